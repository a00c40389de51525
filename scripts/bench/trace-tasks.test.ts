import { describe, expect, it } from 'vitest';
import { BLOCKING_THRESHOLD_MS, CPU_SLOWDOWN, blockingOf, longTasksOf } from './trace-tasks';

describe('blocking from the tasks after FCP', () => {
  it('is the longest task and the sum of 4·task − 50 over the tasks that would block a phone', () => {
    expect(CPU_SLOWDOWN).toBe(4);
    expect(BLOCKING_THRESHOLD_MS).toBe(50);
    const measure = blockingOf([
      { startMs: 900, cpuMs: 12.5, wallMs: 30 }, // exactly 50 ms on the phone: not blocking
      { startMs: 950, cpuMs: 47, wallMs: 52 }, // 188 − 50 = 138
      { startMs: 1000, cpuMs: 20, wallMs: 21 }, // 80 − 50 = 30
      { startMs: 1100, cpuMs: 3, wallMs: 3 },
    ]);
    expect(measure).toEqual({ longestTaskMs: 47, simulatedBlockingMs: 168, longestWallMs: 52, tasks: 4 });
  });

  it('is zero with no task over 12.5 ms of CPU, or no task at all', () => {
    expect(blockingOf([{ startMs: 1, cpuMs: 12.4, wallMs: 40 }, { startMs: 2, cpuMs: 9, wallMs: 9 }])).toEqual({ longestTaskMs: 12.4, simulatedBlockingMs: 0, longestWallMs: 40, tasks: 2 });
    expect(blockingOf([])).toEqual({ longestTaskMs: 0, simulatedBlockingMs: 0, longestWallMs: 0, tasks: 0 });
  });
});

describe("Lighthouse's long tasks, for a TBT miss", () => {
  it('lists the long-tasks audit longest first, with its attribution, rounded to the millisecond', () => {
    const lhr = {
      audits: {
        'long-tasks': {
          details: {
            items: [
              { url: 'Unattributable', startTime: 617.4, duration: 110.2 },
              { url: 'http://127.0.0.1:1/projects/1', startTime: 805.2, duration: 115.6 },
              { startTime: 994, duration: 57 },
            ],
          },
        },
      },
    };
    expect(longTasksOf(lhr)).toEqual([
      { url: 'http://127.0.0.1:1/projects/1', startMs: 805, durationMs: 116 },
      { url: 'Unattributable', startMs: 617, durationMs: 110 },
      { url: '', startMs: 994, durationMs: 57 },
    ]);
  });

  it('is empty when the audit has no items or did not run', () => {
    expect(longTasksOf({ audits: { 'long-tasks': { details: { items: [] } } } })).toEqual([]);
    expect(longTasksOf({ audits: {} })).toEqual([]);
  });
});
