import { describe, expect, it } from 'vitest';
import { BLOCKING_THRESHOLD_MS, CPU_SLOWDOWN, blockingOf, commitTaskOf, longTasksOf, processTrace } from './trace-tasks';

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
    expect(
      blockingOf([
        { startMs: 1, cpuMs: 12.4, wallMs: 40 },
        { startMs: 2, cpuMs: 9, wallMs: 9 },
      ]),
    ).toEqual({ longestTaskMs: 12.4, simulatedBlockingMs: 0, longestWallMs: 40, tasks: 2 });
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

describe("the navigation's commit task", () => {
  // The least of a trace Lighthouse's trace processor reads: the renderer's main thread, the
  // browser's tracing start naming the frame's process, and the main frame's navigation.
  const pid = 2;
  const tid = 1;
  const frame = 'F';
  const task = (name: string, startUs: number, wallUs: number, cpuUs = wallUs) => ({
    name,
    ph: 'X',
    pid,
    tid,
    ts: startUs,
    dur: wallUs,
    tdur: cpuUs,
    cat: 'devtools.timeline',
    args: {},
  });
  const traceOf = (...events: object[]) => ({
    traceEvents: [
      { name: 'thread_name', ph: 'M', pid, tid, ts: 0, cat: '__metadata', args: { name: 'CrRendererMain' } },
      {
        name: 'TracingStartedInBrowser',
        ph: 'I',
        pid: 1,
        tid: 1,
        ts: 1_000,
        cat: 'disabled-by-default-devtools.timeline',
        args: {
          data: {
            frameTreeNodeId: 1,
            persistentIds: true,
            frames: [{ frame, url: 'about:blank', name: '', processId: pid, isOutermostMainFrame: true, isInPrimaryMainFrame: true }],
          },
        },
      },
      {
        name: 'navigationStart',
        ph: 'R',
        pid,
        tid,
        ts: 2_000,
        cat: 'blink.user_timing',
        args: { frame, data: { documentLoaderURL: 'http://127.0.0.1/home', isLoadingMainFrame: true, navigationId: 'n' } },
      },
      ...events,
    ],
  });

  it("is the task around the page's commit (the longest), by CPU and wall time, not the empty initial document's", () => {
    const trace = traceOf(
      task('RunTask', 3_000, 1_500, 1_000),
      task('DocumentLoader::CommitNavigation', 3_100, 1_000), // the new process's initial empty document
      task('RunTask', 10_000, 30_000, 9_000),
      task('DocumentLoader::CommitNavigation', 10_100, 25_000, 8_000),
      task('RunTask', 50_000, 2_000),
    );
    expect(commitTaskOf(processTrace(trace))).toEqual({ cpuMs: 9, wallMs: 30 });
  });

  it('is undefined in a trace without a commit', () => {
    expect(commitTaskOf(processTrace(traceOf(task('RunTask', 10_000, 3_000))))).toBeUndefined();
  });
});
