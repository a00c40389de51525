/**
 * One run of the circuit breaker: for each API route, its counted requests since midnight UTC (the
 * day counter the handlers keep: contract/breaker.ts says what counts) against the route's daily number. A route past it is turned down to its trickle on the stage (and
 * the owner is mailed, once: only the run that turns it down mails); a tripped route whose day has
 * turned gets its own throttle back. The stage's route settings are the only state: a tripped route is
 * one whose throttle is the trickle, so there is nothing else to keep or to drift.
 *
 * Fails closed: when a count cannot be read, the run throws (the breaker's alarm mails the owner) and
 * leaves every route as it was; a tripped route is never reopened on a count it could not read.
 */
import {
  isTrippedThrottle,
  nextUtcDay,
  PAST_SHARE_COUNTER,
  TRIPPED_THROTTLES,
  type BreakerCounter,
  type BreakerRoute,
  type BreakerRouteSettings,
} from '../../contract/breaker';
import type { RouteThrottle } from '../../contract/limits';

export type { BreakerRouteSettings };

export interface BreakerDeps {
  now: () => number;
  /** A day counter's count (a route's counted requests, or the past-share one) for the UTC day `now` falls in. */
  countRequests: (counter: BreakerCounter, now: number) => Promise<number>;
  /**
   * Deletes the hash key of the UTC day before `now` (functions/shared/counters.ts counterKeys), so no
   * day's key lies beside its hashes once the day is over. A failure is reported, never thrown: the
   * routes matter more, and the next run tries again.
   */
  forgetYesterdaysKey?: (now: number) => Promise<void>;
  /** The stage's current throttle per route key. */
  readThrottles: () => Promise<Record<string, Partial<RouteThrottle>>>;
  /** Sets one route's throttle on the stage. */
  setThrottle: (routeKey: string, throttle: RouteThrottle) => Promise<void>;
  /** Mails the owner (the alarm topic). */
  notify: (subject: string, message: string) => Promise<void>;
}

export interface BreakerOutcome {
  route: BreakerRoute;
  count: number;
  dailyRequests: number;
  /** The day's requests refused for their address's share, every route together. */
  pastShare: number;
  action: 'tripped' | 'reset' | 'none';
}

/**
 * `pastShareDaily`: the past-share counter's number (contract/breaker.ts PAST_SHARE_DAILY_REQUESTS); past
 * it, every route is turned down.
 */
export async function runBreaker(
  routes: readonly BreakerRouteSettings[],
  deps: BreakerDeps,
  pastShareDaily: number,
): Promise<BreakerOutcome[]> {
  const now = deps.now();
  // Every count first: one that cannot be read stops the run before any route changes.
  const [pastShare, ...counts] = await Promise.all([
    deps.countRequests(PAST_SHARE_COUNTER, now),
    ...routes.map((r) => deps.countRequests(r.route, now)),
  ]);
  const throttles = await deps.readThrottles();
  const outcomes: BreakerOutcome[] = [];
  for (const [i, r] of routes.entries()) {
    const count = counts[i]!;
    const tripped = isTrippedThrottle(r.route, throttles[r.routeKey]);
    const over = count > r.dailyRequests || pastShare! > pastShareDaily;
    let action: BreakerOutcome['action'] = 'none';
    if (over && !tripped) {
      await deps.setThrottle(r.routeKey, TRIPPED_THROTTLES[r.route]);
      await deps.notify(
        tripSubject(r),
        tripMessage(r, count, now, pastShare! > pastShareDaily ? { count: pastShare!, daily: pastShareDaily } : undefined),
      );
      action = 'tripped';
    } else if (!over && tripped) {
      await deps.setThrottle(r.routeKey, r.throttle);
      action = 'reset';
    }
    outcomes.push({ route: r.route, count, dailyRequests: r.dailyRequests, pastShare: pastShare!, action });
  }
  await deps.forgetYesterdaysKey?.(now);
  return outcomes;
}

function tripSubject(r: BreakerRouteSettings): string {
  return `Portfolio: the ${r.route} route's circuit breaker tripped`;
}

/** The mail: what happened, until when, and what the owner may do. */
export function tripMessage(r: BreakerRouteSettings, count: number, now: number, pastShare?: { count: number; daily: number }): string {
  const until = new Date(nextUtcDay(now)).toISOString().replace('.000Z', 'Z');
  const trickle = TRIPPED_THROTTLES[r.route];
  const what =
    trickle.rateLimit > 0
      ? `It now takes ${trickle.rateLimit} request a second (burst ${trickle.burstLimit}); visitors beyond that see the form's failure message and keep their text.`
      : 'Its beacons are dropped (API Gateway answers 429) and nothing is recorded.';
  const why = pastShare
    ? `The API refused ${pastShare.count} requests today (UTC) from addresses past their own share, every route together, past the ` +
      `${pastShare.daily} one address can send through the edge's rate rule: many addresses are flooding. ${r.routeKey} counted ${count}.`
    : `${r.routeKey} counted ${count} requests today (UTC) from addresses within their own share, past its daily number of ${r.dailyRequests}.`;
  return [
    why,
    what,
    `Its own throttle comes back at ${until} (midnight UTC). Nothing else is sent about it today.`,
    'If the traffic is real, raise monthlyBudgetUsd (or circuitBreaker) in cdk.json and deploy; `npm run doctor` shows the breaker.',
  ].join('\n');
}
