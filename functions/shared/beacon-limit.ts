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
import { emptyResponse, type HttpResult, type RejectedRequest } from './http';
import { describeError, type LoggerLike } from './observability';
import { originCheckFromEnv, originRefused, type OriginCheck } from './origin';
import { counterKeys, dynamoCounters, hashAddress, utcDay, type CounterStore } from './counters';
import { countSpend, pastShareCounter } from './spend';

export type BeaconRoute = 'events' | 'vitals';

/** sendBeacon sends a Blob's own type, or text/plain for a string: both are accepted. */
export const BEACON_CONTENT_TYPES = ['application/json', 'text/plain'] as const;

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
 * A beacon function's guards from process.env, to spread into its dependencies: the origin check
 * (origin.ts) and the limit, over the counters in ARCHIVE_TABLE. In Lambda without the table every
 * beacon is dropped (fail closed; the stack always sets it); outside Lambda without it (tests), none.
 */
export function beaconGuardsFromEnv(route: BeaconRoute, logger: LoggerLike): BeaconGuards {
  const origin = originCheckFromEnv(process.env, (error) =>
    logger.error('The origin secret could not be read; requests are refused', describeError(error)),
  );
  const guards: BeaconGuards = origin ? { origin } : {};
  const table = process.env[ARCHIVE_ENV.table]?.trim();
  if (!table) {
    if (!process.env.AWS_LAMBDA_FUNCTION_NAME) return guards;
    logger.error(`${ARCHIVE_ENV.table} is not set: every beacon is dropped`);
    return { ...guards, limit: () => Promise.resolve({ ok: false, reason: 'counters-unavailable' }) };
  }
  const counters = dynamoCounters({ table, client: createDynamoClient({}) });
  return { ...guards, limit: createBeaconLimits(counters, origin !== undefined, Date.now)[route] };
}

/** What a beacon function checks before the body: CloudFront's origin check and the address's share. */
export interface BeaconGuards {
  /** Set, a request without CloudFront's value is refused (403) first. */
  origin?: OriginCheck;
  /** Past the address's daily count, a beacon is dropped, not kept. */
  limit?: BeaconLimit;
}

/**
 * A beacon through its guards and then its own check, each refusal one log line with its outcome:
 * the origin (403), then the address's share, malformed or not, since every request past the origin
 * check takes a slot (and counts toward the route's breaker), so an address's junk cannot run on
 * uncounted (dropped: 204), then the body (4xx). Admitted: the checked value and the address's verdict.
 */
export async function admitBeacon<T>(
  event: APIGatewayProxyEventV2,
  log: LoggerLike,
  guards: BeaconGuards,
  messages: { rejected: string; dropped: string },
  check: (event: APIGatewayProxyEventV2) => { ok: true; value: T } | RejectedRequest,
): Promise<{ ok: true; value: T; verdict?: Extract<BeaconVerdict, { ok: true }> } | { ok: false; response: HttpResult }> {
  if (guards.origin && !(await guards.origin(event))) {
    log.info(messages.rejected, { outcome: 'rejected-origin', statusCode: 403 });
    return { ok: false, response: originRefused() };
  }
  const verdict = guards.limit ? await guards.limit(event) : undefined;
  if (verdict && !verdict.ok) {
    log.info(messages.dropped, { outcome: `dropped-${verdict.reason}`, statusCode: 204 });
    return { ok: false, response: emptyResponse(204) };
  }
  const checked = check(event);
  if (!checked.ok) log.info(messages.rejected, { outcome: `rejected-${checked.reason}`, statusCode: checked.response.statusCode });
  return checked.ok ? { ...checked, verdict } : checked;
}

/** Both beacon routes' limits over one counter store (the day's key made once for both). */
export function createBeaconLimits(counters: CounterStore, viaCloudFront: boolean, now: () => number): Record<BeaconRoute, BeaconLimit> {
  const hashKey = counterKeys(counters);
  const pastShare = pastShareCounter(counters, now);
  const limit = (route: BeaconRoute) =>
    createBeaconLimit({ counters, hashKey, route, max: BEACON_DAILY_LIMITS[route], viaCloudFront, now, pastShare });
  return { events: limit('events'), vitals: limit('vitals') };
}
