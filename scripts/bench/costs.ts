/**
 * `npm run bench:costs`: the month's figures docs/deploy.md states ("The bill's ceiling"): the bytes each
 * API handler logs per request, measured now (log-bytes.ts); each route held at its throttle for a
 * month with its circuit breaker, by service; what the breaker adds to a quiet month; CloudFront's
 * request charge apart. Exits 1 when the worst month passes $10 beyond a quiet one, a quiet month gains
 * more than $0.20, or a handler logs more than the costs assume.
 */
import { measureLoggedBytes } from './log-bytes';
import { BREAKER_WORST_DELAY_SECONDS } from '../../contract/breaker';
import { ACCESS_LOG_LINE, LOGGED_BYTES, quietMonthAdded, worstMonth } from './cost-model';

const usd = (n: number) => `$${n.toFixed(2)}`;

async function main(): Promise<number> {
  let failed = false;
  console.log('Logged per request (bytes, lines), measured; the costs assume at most:');
  const measured = await measureLoggedBytes();
  for (const [route, m] of Object.entries(measured) as [keyof typeof LOGGED_BYTES, (typeof measured)['contact']][]) {
    const assumed = LOGGED_BYTES[route];
    const over = m.normal.bytes > assumed.normal || m.refused.bytes > assumed.refused || m.normal.lines > 1 || m.refused.lines > 1;
    failed ||= over;
    console.log(`  ${route.padEnd(8)} normal ${m.normal.bytes} B / ${m.normal.lines} line (≤ ${assumed.normal}), refused ${m.refused.bytes} B / ${m.refused.lines} line (≤ ${assumed.refused})${over ? '  OVER' : ''}`);
  }
  console.log(`  API access log: ${Buffer.byteLength(ACCESS_LOG_LINE)} B a request`);

  const worst = worstMonth();
  console.log(`\nEvery route held at its throttle for 30 days, each breaker tripping ${BREAKER_WORST_DELAY_SECONDS / 60} min late at worst:`);
  for (const r of worst.routes) {
    const d = r.dollars;
    console.log(
      `  ${r.route.padEnd(8)} ${r.requestsPerDay.toLocaleString('en-US')} a day, ${(r.requestsPerMonth / 1e6).toFixed(2)} M a month: ` +
        `API Gateway ${usd(d.apiGateway)}, Lambda ${usd(d.lambda)}, DynamoDB ${usd(d.dynamo)}, Logs ${usd(d.logs)}, SES ${usd(d.ses)} = ${usd(r.total)}`,
    );
  }
  console.log(`  all routes: ${usd(worst.total)} beyond a quiet month (ceiling $10.00)`);
  failed ||= worst.total > 10;
  const cf = worst.cloudFrontAtThrottles;
  console.log(`  CloudFront, apart: ${(cf.requests / 1e6).toFixed(1)} M requests at the throttles = ${usd(cf.dollars)} past its free 10 M (no breaker caps it; a WAF or a flat-rate plan does)`);

  const quiet = quietMonthAdded();
  const quietTotal = quiet.alarm + quiet.metricReadsPastFreeTier;
  console.log(
    `\nA quiet month gains: the BreakerFailed alarm ${usd(quiet.alarm)}; ${quiet.metricReads.toLocaleString('en-US')} GetMetricStatistics calls ` +
      `(free within CloudWatch's million API requests, ${usd(quiet.metricReadsPastFreeTier)} past it): at most ${usd(quietTotal)} (ceiling $0.20)`,
  );
  failed ||= quietTotal > 0.2;
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
