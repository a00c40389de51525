/**
 * The per-route circuit breaker: the stack's scheduled breaker function and the local API stand-in
 * both turn a route down to its trickle once the route's counted requests of the current UTC day pass
 * its daily number, and back up when the day turns. One place for the numbers, so both agree.
 *
 * What counts: a request that passed the origin check (it came through CloudFront) and took a slot of
 * its address's limit (CONTACT_ADDRESS_LIMITS, BEACON_DAILY_LIMITS), whether or not its body is then
 * accepted. The handler adds it to the route's day counter (spendCounterId) in the counters' table.
 * A request refused by the origin check or past its address's limit never counts, so one address
 * adds at most its own day's limit to a route's count, and a daily number above that (dailyNumberFloor)
 * cannot be reached from one address, however fast it sends.
 */
import type { ApiRoute } from './api-routes';
import { EDGE_RATE_RULE } from './edge-rate-rule';
import { BEACON_DAILY_LIMITS, CONTACT_ADDRESS_LIMITS, CONTACT_NETWORK_LIMITS, type RouteThrottle } from './limits';

export type BreakerRoute = ApiRoute['name'];

/**
 * The most requests one viewer address can get past the edge's rate rule to /api/* in a UTC day
 * (EDGE_RATE_RULE: its limit in every evaluation window of the day), every route together.
 */
export const EDGE_DAILY_MAX_PER_ADDRESS = EDGE_RATE_RULE.limit * Math.ceil((24 * 60 * 60) / EDGE_RATE_RULE.evaluationWindowSeconds);

/**
 * The most counted requests one address adds to a route's day: its own daily share. For contact that
 * is an IPv6 /48's (CONTACT_NETWORK_LIMITS), the largest share one subscriber can hold.
 */
export const ADDRESS_DAILY_SHARE: Readonly<Record<BreakerRoute, number>> = {
  contact: Math.max(
    ...[...CONTACT_ADDRESS_LIMITS, ...CONTACT_NETWORK_LIMITS].filter((w) => w.windowSeconds === 24 * 60 * 60).map((w) => w.maxRequests),
  ),
  events: BEACON_DAILY_LIMITS.events,
  vitals: BEACON_DAILY_LIMITS.vitals,
};

/**
 * The smallest daily number a route may have: ten addresses' whole shares, so tripping a breaker takes
 * at least ten addresses however fast each sends, and one address's share is a tenth of the day.
 */
export const MIN_ADDRESSES_TO_TRIP = 10;
export const dailyNumberFloor = (route: BreakerRoute) => MIN_ADDRESSES_TO_TRIP * ADDRESS_DAILY_SHARE[route];

/**
 * The one counter of requests refused for their address's share, every route together, and its daily
 * number: such a request still reaches its function (and costs), so a crowd of addresses sending past
 * their shares must be stopped too, yet one address never: it can send at most EDGE_DAILY_MAX_PER_ADDRESS
 * a day through the edge, so the number is above that. Past it, every route is turned down until
 * midnight UTC. AWS WAF blocks near its limit, not exactly at it ("Rate-based rule high-level settings
 * in AWS WAF": https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based-high-level-settings.html),
 * so the number keeps a quarter more than the exact maximum.
 */
export const PAST_SHARE_COUNTER = 'past-share';
export const PAST_SHARE_DAILY_REQUESTS = Math.ceil(EDGE_DAILY_MAX_PER_ADDRESS * 1.25);

/** Refused requests a function holds before it adds them to the past-share counter in one write. */
export const PAST_SHARE_BATCH = 10;

/** The accepted range of a daily number (a typo of a million per day would leave no ceiling at all). */
export const DAILY_REQUESTS_LIMITS = { min: 1, max: 1_000_000 } as const;

/**
 * A tripped route's throttle. The contact route keeps a trickle (one request every 10 s, at most 8,640
 * a day) so a visitor who retries later can still get through; everyone else meets API Gateway's 429,
 * which the form shows as its failure message and keeps the visitor's text. The beacons drop everything
 * (a rate and burst of 0): a lost page view costs the owner nothing. API Gateway takes a throttle's rate
 * as a Double and its burst as an Integer (API Gateway API Reference, "ThrottleSettings":
 * https://docs.aws.amazon.com/apigateway/latest/api/API_ThrottleSettings.html; the HTTP API's
 * RouteSettings carry the same two types in the SDK's service model).
 */
export const TRIPPED_THROTTLES: Readonly<Record<BreakerRoute, RouteThrottle>> = {
  contact: { rateLimit: 0.1, burstLimit: 1 },
  events: { rateLimit: 0, burstLimit: 0 },
  vitals: { rateLimit: 0, burstLimit: 0 },
};

/**
 * How often the stack's breaker function reads the day's counts, in minutes. Each run reads four
 * counter items (the three routes' and the past-share one: strongly consistent GetItems, one read
 * request unit each): 4 × 60 × 24 × 30 = 172,800 reads a month, and 43,200 runs of a 128 MB function;
 * contract/cost-model.ts prices both into the quiet month. Every minute keeps the worst delay (below)
 * to 6 minutes, the flood a route takes past its number to 6 minutes at its throttle.
 */
export const BREAKER_CHECK_MINUTES = 1;

/**
 * The longest a flood runs at a route's throttle before the breaker has turned it down, in seconds,
 * as the cost figures assume: one check interval plus five minutes for the stage update to reach
 * API Gateway everywhere (the count itself is read at once, strongly consistent).
 */
export const BREAKER_WORST_DELAY_SECONDS = (BREAKER_CHECK_MINUTES + 5) * 60;

/** Midnight UTC of the day `now` falls in, in milliseconds. */
export function utcDayStart(now: number): number {
  const day = new Date(now);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
}

/** The next midnight UTC after `now`, in milliseconds. */
export function nextUtcDay(now: number): number {
  return utcDayStart(now) + 24 * 60 * 60 * 1000;
}

/** True when a stage's throttle on a route is the breaker's trickle (the route is tripped). */
export function isTrippedThrottle(route: BreakerRoute, throttle: Partial<RouteThrottle> | undefined): boolean {
  const trickle = TRIPPED_THROTTLES[route];
  return throttle?.rateLimit === trickle.rateLimit && throttle?.burstLimit === trickle.burstLimit;
}

/** The breaker function's environment variables, as the stack sets them (one JSON variable for the routes). */
export const BREAKER_ENV = {
  apiId: 'API_ID',
  stageName: 'STAGE_NAME',
  topicArn: 'TOPIC_ARN',
  routes: 'BREAKER_ROUTES',
  table: 'ARCHIVE_TABLE',
  pastShareDaily: 'BREAKER_PAST_SHARE_DAILY',
} as const;

/** A day counter the breaker reads: a route's counted requests, or the requests refused for their address's share. */
export type BreakerCounter = BreakerRoute | typeof PAST_SHARE_COUNTER;

/** The counters' item that holds one day counter of one UTC day ("2026-11-22"). */
export const spendCounterId = (counter: BreakerCounter, day: string) => `spend#${counter}#${day}`;

/** What the breaker knows of one route: its API Gateway route key, its numbers. */
export interface BreakerRouteSettings {
  route: BreakerRoute;
  routeKey: string;
  dailyRequests: number;
  /** The route's own throttle, restored when the day turns. */
  throttle: RouteThrottle;
}
