/** The breaker's day counters: a route's counted requests, and the past-share requests a batch at a time. */
import { describe, expect, it } from 'vitest';
import { PAST_SHARE_BATCH } from '../../contract/breaker';
import { memoryCounters } from './counters';
import { countSpend, pastShareCounter, readSpend } from './spend';

const DAY = Date.UTC(2026, 10, 22, 9);

describe('the day counters', () => {
  it("counts a route's requests per UTC day, kept a day past its own", async () => {
    const store = memoryCounters();
    await countSpend(store, 'vitals', DAY);
    expect(await countSpend(store, 'vitals', DAY + 1000)).toBe(2);
    expect(await readSpend(store, 'vitals', DAY)).toBe(2);
    expect(await readSpend(store, 'vitals', DAY + 24 * 3600_000)).toBe(0);
    expect(store.items.get('spend#vitals#2026-11-22')?.expiresAt).toBe(Date.UTC(2026, 10, 24) / 1000);
  });

  it('adds the past-share requests a batch at a time, and keeps a batch whose write failed for the next', async () => {
    const store = memoryCounters();
    const count = pastShareCounter(store, () => DAY);
    for (let i = 0; i < PAST_SHARE_BATCH - 1; i++) await count();
    expect(await readSpend(store, 'past-share', DAY)).toBe(0);
    await count();
    expect(await readSpend(store, 'past-share', DAY)).toBe(PAST_SHARE_BATCH);

    let down = true;
    const flaky = {
      ...store,
      add: (id: string, n: number, at: number) => (down ? Promise.reject(new Error('down')) : store.add(id, n, at)),
    };
    const counted = pastShareCounter(flaky, () => DAY);
    for (let i = 0; i < PAST_SHARE_BATCH - 1; i++) await counted();
    await expect(counted()).rejects.toThrow('down');
    down = false;
    await counted();
    expect(await readSpend(store, 'past-share', DAY)).toBe(2 * PAST_SHARE_BATCH + 1);
  });
});
