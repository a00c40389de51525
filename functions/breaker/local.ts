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
import { DEFAULT_DAILY_REQUESTS, nextUtcDay, TRIPPED_THROTTLES, utcDayStart, type BreakerRoute } from '../../contract/breaker';

export interface LocalBreakerOptions {
  /** Requests each route takes in a UTC day; a route left out keeps its default. */
  dailyRequests?: Partial<Record<BreakerRoute, number>>;
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
   * True when the request may reach the handler: `counted`, the route's counted requests of the day so
   * far, is under the day's number, or the trickle lets it through.
   */
  admit(route: BreakerRoute, counted: number): boolean;
  /** The breaker's clock (the day whose counter is read). */
  now(): number;
  state(): Record<BreakerRoute, BreakerRouteState>;
}

/** A token bucket of `burst` tokens refilled at `rate` a second (API Gateway's throttle, as infra/local applies it). */
function bucket(rate: number, burst: number, now: () => number): () => boolean {
  let tokens = burst;
  let at = now();
  return () => {
    const t = now();
    tokens = Math.min(burst, tokens + ((t - at) / 1000) * rate);
    at = t;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

export function createLocalBreaker(options: LocalBreakerOptions = {}): LocalBreaker {
  const now = options.now ?? Date.now;
  const daily = { ...DEFAULT_DAILY_REQUESTS, ...options.dailyRequests };
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
    admit(route, counted) {
      turnDay();
      count[route] = counted;
      if (counted < daily[route]) return true;
      let trickle = trickles.get(route);
      if (!trickle) {
        trickle = bucket(TRIPPED_THROTTLES[route].rateLimit, TRIPPED_THROTTLES[route].burstLimit, now);
        trickles.set(route, trickle);
        options.onTrip?.(`Circuit breaker: ${route} reached its ${daily[route]} requests today (UTC); turned down to a trickle until ${until()}.`);
      }
      return trickle();
    },
    state() {
      turnDay();
      const of = (r: BreakerRoute): BreakerRouteState => ({ count: count[r], dailyRequests: daily[r], trippedUntil: trickles.has(r) ? until() : undefined });
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
  counted: (route: BreakerRoute, nowMs: number) => Promise<number>,
): H {
  const tooMany = { statusCode: 429, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'Too Many Requests' }) };
  const guarded = (route: BreakerRoute): Handler => async (event, context) => {
    const count = await counted(route, breaker.now()).catch(() => breaker.state()[route].count);
    return breaker.admit(route, count) ? handlers[route](event, context) : tooMany;
  };
  return { ...handlers, contact: guarded('contact'), events: guarded('events'), vitals: guarded('vitals') };
}
