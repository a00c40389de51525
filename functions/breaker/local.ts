/**
 * The circuit breaker as the local stack (`npm start`) runs it: exact, per request. Before a request
 * reaches its handler, the route's counted requests of the current UTC day are read from the same day
 * counter the handlers keep (functions/shared/spend.ts; contract/breaker.ts says what counts); from
 * the day's number on, the route gets its trickle (contract/breaker.ts) until midnight UTC, and the
 * owner is told once per trip. A request the trickle refuses gets API Gateway's own 429 answer. On AWS
 * the scheduled function (run.ts) reads the same counter, minutes late.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { API_ROUTES } from '../../contract/api-routes';
import {
  nextUtcDay,
  PAST_SHARE_COUNTER,
  PAST_SHARE_DAILY_REQUESTS,
  TRIPPED_THROTTLES,
  utcDayStart,
  type BreakerRoute,
} from '../../contract/breaker';
import { dailyRequestsFromBudget, defaultMonthlyBudgetUsd } from '../../contract/cost-model';
import { DEFAULT_CLOUDFRONT_PLAN } from '../../contract/cloudfront-plans';
import type { RouteThrottle } from '../../contract/limits';

export interface LocalBreakerOptions {
  /** Counted requests each route takes in a UTC day; a route left out has the default budget's (contract/cost-model.ts). */
  dailyRequests?: Partial<Record<BreakerRoute, number>>;
  /** Requests refused for their address's share, every route together, before every route is turned down. */
  pastShareDaily?: number;
  /** Epoch milliseconds: the day and the trickle's bucket (tests move it). Default Date.now. */
  now?: () => number;
  /** Told once when a route trips (`npm start` prints it, as the owner's mail says it on AWS). */
  onTrip?: (message: string) => void;
}

export interface BreakerRouteState {
  count: number;
  dailyRequests: number;
  /** ISO time the route gets its own throttle back, when tripped. */
  trippedUntil: string | undefined;
}

export interface LocalBreaker {
  /**
   * True when the request may reach the handler: the route's counted requests of the day so far are
   * under its number and the day's past-share requests under theirs, or the trickle lets it through.
   */
  admit(route: BreakerRoute, counts: { counted: number; pastShare: number }): boolean;
  /** The breaker's clock (the day whose counter is read). */
  now(): number;
  state(): Record<BreakerRoute, BreakerRouteState>;
}

/**
 * API Gateway's route throttling, as infra/local applies it (a route's own and its trickle): a token
 * bucket, `burstLimit` tokens, refilled at `rateLimit` a second; a request that finds it empty gets 429
 * and never reaches the function ("Throttle requests to your HTTP APIs for better throughput in API
 * Gateway": https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-throttling.html).
 */
export function routeThrottle(limits: RouteThrottle, now: () => number = () => performance.now()): () => boolean {
  let tokens = limits.burstLimit;
  let at = now();
  return () => {
    const t = now();
    tokens = Math.min(limits.burstLimit, tokens + ((t - at) / 1000) * limits.rateLimit);
    at = t;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

export function createLocalBreaker(options: LocalBreakerOptions = {}): LocalBreaker {
  const now = options.now ?? Date.now;
  const daily = {
    ...dailyRequestsFromBudget(defaultMonthlyBudgetUsd(DEFAULT_CLOUDFRONT_PLAN), DEFAULT_CLOUDFRONT_PLAN),
    ...options.dailyRequests,
  };
  const pastShareDaily = options.pastShareDaily ?? PAST_SHARE_DAILY_REQUESTS;
  const routes = API_ROUTES.map((r) => r.name);
  const count = Object.fromEntries(routes.map((r) => [r, 0])) as Record<BreakerRoute, number>;
  const trickles = new Map<BreakerRoute, () => boolean>();
  let day = utcDayStart(now());
  const turnDay = () => {
    if (utcDayStart(now()) === day) return;
    day = utcDayStart(now());
    for (const r of routes) count[r] = 0;
    trickles.clear();
  };
  const until = () => new Date(nextUtcDay(now())).toISOString();
  return {
    now,
    admit(route, counts) {
      turnDay();
      count[route] = counts.counted;
      if (counts.counted < daily[route] && counts.pastShare < pastShareDaily) return true;
      let trickle = trickles.get(route);
      if (!trickle) {
        trickle = routeThrottle(TRIPPED_THROTTLES[route], now);
        trickles.set(route, trickle);
        const why =
          counts.counted >= daily[route]
            ? `${route} reached its ${daily[route]} counted requests today (UTC)`
            : `${counts.pastShare} requests past their address's share today (UTC) reached the ${pastShareDaily} one address cannot pass`;
        options.onTrip?.(`Circuit breaker: ${why}; ${route} turned down to a trickle until ${until()}.`);
      }
      return trickle();
    },
    state() {
      turnDay();
      const of = (r: BreakerRoute): BreakerRouteState => ({
        count: count[r],
        dailyRequests: daily[r],
        trippedUntil: trickles.has(r) ? until() : undefined,
      });
      return Object.fromEntries(routes.map((r) => [r, of(r)])) as Record<BreakerRoute, BreakerRouteState>;
    },
  };
}

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * The route handlers behind the breaker: a refused request gets API Gateway's 429 and never reaches its
 * handler. `counted` reads a route's day counter for the UTC day of a moment. When it cannot be read,
 * the route is judged on the last count read, as the stack's breaker leaves every route as it was.
 */
export function withBreaker<H extends Record<BreakerRoute, Handler>>(
  handlers: H,
  breaker: LocalBreaker,
  counted: (counter: BreakerRoute | typeof PAST_SHARE_COUNTER, nowMs: number) => Promise<number>,
): H {
  const tooMany = {
    statusCode: 429,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'Too Many Requests' }),
  };
  let lastPastShare = 0;
  const guarded =
    (route: BreakerRoute): Handler =>
    async (event, context) => {
      const [own, pastShare] = await Promise.all([
        counted(route, breaker.now()).catch(() => breaker.state()[route].count),
        counted(PAST_SHARE_COUNTER, breaker.now()).catch(() => lastPastShare),
      ]);
      lastPastShare = pastShare;
      return breaker.admit(route, { counted: own, pastShare }) ? handlers[route](event, context) : tooMany;
    };
  return { ...handlers, contact: guarded('contact'), events: guarded('events'), vitals: guarded('vitals') };
}
