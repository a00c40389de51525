/**
 * The route's day counter the circuit breaker reads (contract/breaker.ts says what counts): one atomic
 * add per request that passed the origin check and took a slot of its address's limit, in the
 * counters' table. Kept one day past its own, so the breaker's last run of a day and the owner's
 * doctor can still read it, then deleted by the table's time-to-live.
 */
import { PAST_SHARE_BATCH, PAST_SHARE_COUNTER, spendCounterId, type BreakerCounter, type BreakerRoute } from '../../contract/breaker';
import type { CallOptions } from '../archive/store';
import { utcDay, type CounterStore } from './counters';

const DAY_SECONDS = 24 * 60 * 60;

/** Far above any daily number (contract/breaker.ts DAILY_REQUESTS_LIMITS): the add never stops at it. */
const SPEND_COUNT_CEILING = 1_000_000_000;

/** Adds one to the route's counter of the UTC day of `nowMs`; throws when the table does not answer. */
export async function countSpend(store: CounterStore, route: BreakerRoute, nowMs: number, options?: CallOptions): Promise<number> {
  const day = utcDay(nowMs);
  const expiresAt = Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + 2 * DAY_SECONDS;
  const count = await store.take(spendCounterId(route, day), SPEND_COUNT_CEILING, expiresAt, options);
  if (count === undefined) throw new Error(`The ${route} day counter is full`);
  return count;
}

/** A day counter's count for the UTC day of `nowMs` (0 before the first). */
export function readSpend(store: CounterStore, counter: BreakerCounter, nowMs: number, options?: CallOptions): Promise<number> {
  return store.read(spendCounterId(counter, utcDay(nowMs)), options);
}

/**
 * Counts the requests this container refused for their address's share into the day's past-share
 * counter, PAST_SHARE_BATCH at a time (one write per batch, so a flood past its shares costs a tenth of
 * a write per request). Until a batch is full its requests are held here, and a container that stops
 * loses fewer than one batch; a failed write keeps them for the next. Resolves when counted or held.
 */
export function pastShareCounter(
  store: CounterStore,
  now: () => number,
  batch = PAST_SHARE_BATCH,
): (options?: CallOptions) => Promise<void> {
  let pending = 0;
  return async (options) => {
    pending += 1;
    if (pending < batch) return;
    const n = pending;
    pending = 0;
    const day = utcDay(now());
    try {
      await store.add(
        spendCounterId(PAST_SHARE_COUNTER, day),
        n,
        Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + 2 * DAY_SECONDS,
        options,
      );
    } catch (error) {
      pending += n;
      throw error;
    }
  };
}
