/** The breaker function's settings, as the stack passes them (one JSON variable for the routes). */
import { z } from 'zod';
import { API_ROUTES } from '../../contract/api-routes';
import { BREAKER_ENV, type BreakerRouteSettings } from '../../contract/breaker';

const Throttle = z.strictObject({ rateLimit: z.number().min(0), burstLimit: z.number().int().min(0) });
const Routes = z
  .array(
    z.strictObject({
      route: z.enum(API_ROUTES.map((r) => r.name) as [BreakerRouteSettings['route'], ...BreakerRouteSettings['route'][]]),
      routeKey: z.string().min(1),
      dailyRequests: z.number().int().min(1),
      throttle: Throttle,
    }),
  )
  .min(1);

export interface BreakerEnv {
  apiId: string;
  stageName: string;
  topicArn: string;
  /** The counters' table (the archive's): the routes' day counters and the days' hash keys. */
  table: string;
  routes: BreakerRouteSettings[];
  /** The past-share counter's daily number. */
  pastShareDaily: number;
}

/** Throws naming every missing or malformed variable: a breaker that cannot read its settings must not run. */
export function parseBreakerEnv(env: Record<string, string | undefined>): BreakerEnv {
  const problems: string[] = [];
  const text = (name: string) => {
    const value = env[name]?.trim();
    if (!value) problems.push(`${name} is missing`);
    return value ?? '';
  };
  const apiId = text(BREAKER_ENV.apiId);
  const stageName = text(BREAKER_ENV.stageName);
  const topicArn = text(BREAKER_ENV.topicArn);
  const table = text(BREAKER_ENV.table);
  let routes: BreakerRouteSettings[] = [];
  try {
    const parsed = Routes.safeParse(JSON.parse(env[BREAKER_ENV.routes] ?? ''));
    if (parsed.success) routes = parsed.data;
    else problems.push(`${BREAKER_ENV.routes}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  } catch {
    problems.push(`${BREAKER_ENV.routes} is not JSON`);
  }
  const pastShareDaily = Number(text(BREAKER_ENV.pastShareDaily));
  if (env[BREAKER_ENV.pastShareDaily]?.trim() && !(Number.isInteger(pastShareDaily) && pastShareDaily >= 1)) {
    problems.push(`${BREAKER_ENV.pastShareDaily} is not a whole number of at least 1`);
  }
  if (problems.length > 0) throw new Error(`The circuit breaker's settings are wrong: ${problems.join('; ')}`);
  return { apiId, stageName, topicArn, table, routes, pastShareDaily };
}
