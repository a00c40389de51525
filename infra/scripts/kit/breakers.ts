/**
 * The route circuit breakers of a deployed stack, as `npm run doctor` and `npm run visitors` show them:
 * read from the API stage's route settings (a tripped route's throttle is its trickle; the stage is the
 * breaker's only state, functions/breaker/run.ts).
 */
import { type ApiGatewayV2Client, GetStageCommand } from '@aws-sdk/client-apigatewayv2';
import { API_ROUTES } from '../../../contract/api-routes';
import { isTrippedThrottle, nextUtcDay, TRIPPED_THROTTLES, type BreakerRoute } from '../../../contract/breaker';

export interface BreakerReading {
  tripped: BreakerRoute[];
  /** When the tripped routes get their own throttle back (the next midnight UTC), ISO. */
  until: string;
}

export async function readBreakers(apiGateway: ApiGatewayV2Client, apiId: string, now: Date): Promise<BreakerReading> {
  const stage = await apiGateway.send(new GetStageCommand({ ApiId: apiId, StageName: '$default' }));
  const settings = stage.RouteSettings ?? {};
  const tripped = API_ROUTES.filter((route) => {
    const s = settings[route.routeKey];
    return isTrippedThrottle(route.name, { rateLimit: s?.ThrottlingRateLimit, burstLimit: s?.ThrottlingBurstLimit });
  }).map((route) => route.name);
  return { tripped, until: new Date(nextUtcDay(now.getTime())).toISOString().replace('.000Z', 'Z') };
}

/** One line: which routes are turned down and what that means for visitors, or that none is. */
export function describeBreakers(reading: BreakerReading): string {
  if (reading.tripped.length === 0) return 'no route breaker tripped today (UTC)';
  const what = reading.tripped.map((route) =>
    TRIPPED_THROTTLES[route].rateLimit > 0
      ? `${route} (a trickle: most senders see the form's failure message)`
      : `${route} (beacons dropped)`,
  );
  return `tripped until ${reading.until}: ${what.join(', ')}`;
}
