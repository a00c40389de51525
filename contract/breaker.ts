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
import type { RouteThrottle } from './limits';

export type BreakerRoute = ApiRoute['name'];

/**
 * Requests a route may take in one UTC day before it is turned down (cdk.json `circuitBreaker`
 * overrides each). Sized to a personal site, many times a good day:
 * - contact: a portfolio gets a few messages a week; 200 sends a day (with retries and refusals) is
 *   already a flood, and at the contact throttle (5 a second) it is reached in 40 s.
 * - events and vitals: one beacon per click and per page view; 10,000 a day is about twenty times a
 *   portfolio's busiest day (15,000 page views a month), and at the beacons' throttle (10 a second)
 *   it is reached in under 17 minutes, so a flood trips the breaker well within the hour.
 */
export const DEFAULT_DAILY_REQUESTS: Readonly<Record<BreakerRoute, number>> = {
  contact: 200,
  events: 10_000,
  vitals: 10_000,
};

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
 * How often the stack's breaker function reads the day's counts, in minutes. Each run reads one
 * counter item per route (a strongly consistent GetItem, one read request unit each) and deletes the
 * finished day's hash key: 3 × 4 × 24 × 30 = 8,640 reads and 2,880 deletes a month, a fraction of a
 * cent at DynamoDB's on-demand prices. Every 15 minutes keeps the worst delay (below) to 20 minutes.
 */
export const BREAKER_CHECK_MINUTES = 15;

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
export const BREAKER_ENV = { apiId: 'API_ID', stageName: 'STAGE_NAME', topicArn: 'TOPIC_ARN', routes: 'BREAKER_ROUTES', table: 'ARCHIVE_TABLE' } as const;

/** The counters' item that holds a route's counted requests of one UTC day ("2026-11-22"). */
export const spendCounterId = (route: BreakerRoute, day: string) => `spend#${route}#${day}`;

/** What the breaker knows of one route: its API Gateway route key, its numbers. */
export interface BreakerRouteSettings {
  route: BreakerRoute;
  routeKey: string;
  dailyRequests: number;
  /** The route's own throttle, restored when the day turns. */
  throttle: RouteThrottle;
}
