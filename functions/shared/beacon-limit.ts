/**
 * The beacons' per-address daily count: page views, vitals and clicks from one address past
 * BEACON_DAILY_LIMITS a UTC day are dropped, so one address cannot move the owner's numbers. Counted
 * like the contact form's requests (functions/contact/limits.ts): one conditional write per beacon in
 * the archive's table, under a keyed hash of the address with the day's random key, never the address.
 * A beacon within its address's share also counts toward its route's circuit breaker (spend.ts), one
 * more write; a beacon past it does not, so one address cannot trip the breaker.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ARCHIVE_ENV } from '../../contract/archive';
import { BEACON_DAILY_LIMITS } from '../../contract/limits';
import { createDynamoClient } from '../archive/store';
import { limitAddress } from './address';
import { counterKeys, dynamoCounters, hashAddress, utcDay, type CounterStore } from './counters';
import { countSpend, pastShareCounter } from './spend';

export type BeaconRoute = 'events' | 'vitals';

/** The beacon's place in its address's day (1 for the first), or why it is dropped. */
export type BeaconVerdict = { ok: true; count: number } | { ok: false; reason: 'address-limit' | 'counters-unavailable' };

export type BeaconLimit = (event: APIGatewayProxyEventV2) => Promise<BeaconVerdict>;

const DAY_SECONDS = 24 * 60 * 60;

export interface BeaconLimitOptions {
  counters: CounterStore;
  /** The day's hash key (counterKeys). */
  hashKey: (nowMs: number) => Promise<string>;
  route: BeaconRoute;
  max: number;
  /** Behind CloudFront (the origin check is on): the address is CloudFront-Viewer-Address. */
  viaCloudFront: boolean;
  now: () => number;
  timeoutMs?: number;
  /** Counts a beacon refused for its address's share (spend.ts pastShareCounter); none: not counted. */
  pastShare?: (options?: { abortSignal?: AbortSignal }) => Promise<void>;
}

/** Fails closed: when the counters do not answer, the beacon is dropped (its answer is never read). */
export function createBeaconLimit(options: BeaconLimitOptions): BeaconLimit {
  return async (event) => {
    const now = options.now();
    const day = utcDay(now);
    const dayEnd = Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + DAY_SECONDS;
    try {
      const address = limitAddress(event, options.viaCloudFront);
      const hashed = hashAddress(address, await options.hashKey(now));
      const signal = { abortSignal: AbortSignal.timeout(options.timeoutMs ?? 2_000) };
      const count = await options.counters.take(`beacon#${options.route}#${hashed}#${day}`, options.max, dayEnd, signal);
      if (count === undefined) {
        // Refused either way; a failed count is held for the next write (spend.ts).
        await options.pastShare?.(signal).catch(() => undefined);
        return { ok: false, reason: 'address-limit' };
      }
      await countSpend(options.counters, options.route, now, signal);
      return { ok: true, count };
    } catch {
      return { ok: false, reason: 'counters-unavailable' };
    }
  };
}

/**
 * A beacon function's limit from process.env, as `{ limit }` to spread into its dependencies: the
 * counters in ARCHIVE_TABLE. In Lambda without the table every beacon is dropped (fail closed; the
 * stack always sets it); outside Lambda without it (tests), none.
 */
export function beaconLimitFromEnv(
  route: BeaconRoute,
  viaCloudFront: boolean,
  onMisconfigured: (problem: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): { limit?: BeaconLimit } {
  const table = env[ARCHIVE_ENV.table]?.trim();
  if (!table) {
    if (!env.AWS_LAMBDA_FUNCTION_NAME) return {};
    onMisconfigured(`${ARCHIVE_ENV.table} is not set: every beacon is dropped`);
    return { limit: () => Promise.resolve({ ok: false, reason: 'counters-unavailable' }) };
  }
  return { limit: createBeaconLimits(dynamoCounters({ table, client: createDynamoClient({}) }), viaCloudFront, Date.now)[route] };
}

/** Both beacon routes' limits over one counter store (the day's key made once for both). */
export function createBeaconLimits(counters: CounterStore, viaCloudFront: boolean, now: () => number): Record<BeaconRoute, BeaconLimit> {
  const hashKey = counterKeys(counters);
  const pastShare = pastShareCounter(counters, now);
  const limit = (route: BeaconRoute) =>
    createBeaconLimit({ counters, hashKey, route, max: BEACON_DAILY_LIMITS[route], viaCloudFront, now, pastShare });
  return { events: limit('events'), vitals: limit('vitals') };
}
