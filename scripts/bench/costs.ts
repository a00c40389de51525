/**
 * `npm run bench:costs`: the month's figures of the one cost model (contract/cost-model.ts) that the docs
 * print: the bytes each API handler logs per request, measured now (log-bytes.ts) against what the model
 * assumes; each plan choice's quiet and worst month; the flood's parts on the default plan. With
 * `--write`, it rewrites the docs' cost blocks (cost-tables.ts). Exits 1 when a flood adds more than the
 * ceiling on a plan's default budget, or a handler logs more than the model assumes.
 */
import { measureLoggedBytes } from './log-bytes';
import { CLOUDFRONT_PLAN_TIERS } from '../../contract/cloudfront-plans';
import { ACCESS_LOG_LINE, describePlanMonths, FLOOD_CEILING_USD, LOGGED_BYTES, planMonths } from '../../contract/cost-model';
import { edgeSentence, floodTable, usd, writeCostBlocks } from './cost-tables';
import { runMain } from './shared';

async function main(): Promise<number> {
  let failed = false;
  console.log('Logged per request (bytes, lines), measured; the model assumes at most:');
  const measured = await measureLoggedBytes();
  for (const [route, m] of Object.entries(measured) as [keyof typeof LOGGED_BYTES, (typeof measured)['contact']][]) {
    const assumed = LOGGED_BYTES[route];
    const over = m.normal.bytes > assumed.normal || m.refused.bytes > assumed.refused || m.normal.lines > 1 || m.refused.lines > 1;
    failed ||= over;
    console.log(
      `  ${route.padEnd(8)} normal ${m.normal.bytes} B / ${m.normal.lines} line (≤ ${assumed.normal}), refused ${m.refused.bytes} B / ${m.refused.lines} line (≤ ${assumed.refused})${over ? '  OVER' : ''}`,
    );
  }
  console.log(`  API access log: ${new TextEncoder().encode(ACCESS_LOG_LINE).length} B a request`);

  console.log(
    `\n${edgeSentence()}\n\nEach plan choice, with its default budget (the worst month: a quiet one plus the most a flood adds):`,
  );
  for (const plan of CLOUDFRONT_PLAN_TIERS) {
    const m = planMonths(plan);
    const over = m.worst - m.quiet > FLOOD_CEILING_USD;
    failed ||= over;
    console.log(
      `  ${describePlanMonths(plan)}: a flood adds ${usd(m.worst - m.quiet)} (ceiling ${usd(FLOOD_CEILING_USD)})${over ? '  OVER' : ''}`,
    );
  }
  console.log(`\nThe flood on the default plan:\n${floodTable()}`);
  if (process.argv.includes('--write')) {
    const changed = writeCostBlocks();
    console.log(changed.length > 0 ? `\nRewrote the cost blocks in ${changed.join(', ')}.` : '\nThe docs already print these figures.');
  }
  return failed ? 1 : 0;
}

runMain(main);
