/**
 * The circuit breaker in the local stand-in of API Gateway: each route's requests of the current UTC
 * day are counted as they reach its function; past the route's daily number the route meets its
 * trickle throttle (contract/breaker.ts) until midnight UTC, and the owner is told once per trip. On
 * AWS a scheduled function does the same from CloudWatch's counts, minutes late; here it is exact.
 */
import { API_ROUTES } from '../../contract/api-routes';
import { DEFAULT_DAILY_REQUESTS, nextUtcDay, TRIPPED_THROTTLES, utcDayStart, type BreakerRoute } from '../../contract/breaker';

export interface LocalBreakerOptions {
  /** Requests each route takes in a UTC day; a route left out keeps its default. */
  dailyRequests?: Partial<Record<BreakerRoute, number>>;
  /** Epoch milliseconds: the day and the trickle's bucket (tests move it). */
  now: () => number;
  /** Told once when a route trips (`npm start` prints it). */
  onTrip: (message: string) => void;
  /** The token bucket API Gateway applies, built for a throttle on the given clock (api-gateway.ts). */
  bucket: (limits: (typeof TRIPPED_THROTTLES)[BreakerRoute], now: () => number) => () => boolean;
}

export interface BreakerRouteState {
  count: number;
  dailyRequests: number;
  /** ISO time the route gets its own throttle back, when tripped. */
  trippedUntil: string | undefined;
}

export interface LocalBreaker {
  /**
   * Whether the route may go on to its function: undefined while the route is under its number (its own
   * throttle decides), else the trickle's answer. The route trips the moment its count reaches the number.
   */
  trickle(route: BreakerRoute): boolean | undefined;
  /** One request reached the route's function (what the stack counts: Lambda's invocations). */
  count(route: BreakerRoute): void;
  state(): Record<BreakerRoute, BreakerRouteState>;
}

export function createLocalBreaker(options: LocalBreakerOptions): LocalBreaker {
  const daily = { ...DEFAULT_DAILY_REQUESTS, ...options.dailyRequests };
  const routes = API_ROUTES.map((r) => r.name);
  const count = Object.fromEntries(routes.map((r) => [r, 0])) as Record<BreakerRoute, number>;
  const trickles = new Map<BreakerRoute, () => boolean>();
  let day = utcDayStart(options.now());
  const turnDay = () => {
    const today = utcDayStart(options.now());
    if (today === day) return;
    day = today;
    for (const r of routes) count[r] = 0;
    trickles.clear();
  };
  return {
    trickle(route) {
      turnDay();
      if (count[route] < daily[route]) return undefined;
      let trickle = trickles.get(route);
      if (!trickle) {
        trickle = options.bucket(TRIPPED_THROTTLES[route], options.now);
        trickles.set(route, trickle);
        const until = new Date(nextUtcDay(options.now())).toISOString();
        options.onTrip(
          `Circuit breaker: ${route} reached its ${daily[route]} requests today (UTC); turned down to a trickle until ${until}.`,
        );
      }
      return trickle();
    },
    count(route) {
      turnDay();
      count[route] += 1;
    },
    state() {
      turnDay();
      return Object.fromEntries(
        routes.map((r) => [
          r,
          {
            count: count[r],
            dailyRequests: daily[r],
            trippedUntil: trickles.has(r) ? new Date(nextUtcDay(options.now())).toISOString() : undefined,
          },
        ]),
      ) as Record<BreakerRoute, BreakerRouteState>;
    },
  };
}
