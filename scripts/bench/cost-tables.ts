/**
 * The cost figures the docs print, rendered from the one cost model (contract/cost-model.ts): the
 * plans' quiet and worst months, the flood's parts, the README's sentence. Each lives in its doc
 * between `<!-- cost-model:NAME -->` and `<!-- /cost-model:NAME -->`; `npm run bench:costs -- --write`
 * rewrites them, and cost-tables.test.ts fails while a doc differs from what the model gives.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BREAKER_WORST_DELAY_SECONDS, EDGE_DAILY_MAX_PER_ADDRESS, PAST_SHARE_DAILY_REQUESTS } from '../../contract/breaker';
import { CLOUDFRONT_PLAN_TIERS, CLOUDFRONT_PLANS, DEFAULT_CLOUDFRONT_PLAN, defaultPreviewPlan } from '../../contract/cloudfront-plans';
import {
  breakerMonth,
  defaultMonthlyBudgetUsd,
  FLOOD_CEILING_USD,
  planMonths,
  quietMonth,
  type PlanMonths,
} from '../../contract/cost-model';
import { EDGE_RATE_RULE } from '../../contract/edge-rate-rule';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const usd = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const count = (n: number) => Math.round(n).toLocaleString('en-US');

function cloudFrontCell(m: PlanMonths): string {
  return m.cloudFront.capped
    ? 'included, never billed more'
    : `uncapped: + ${usd(m.cloudFront.perRequestPerSecondMonth)} per request a second held a month, + ${usd(m.cloudFront.perMbitPerSecondMonth)} per Mbit/s`;
}

/** Each plan choice: its price, its default budget, its quiet month and its worst month. */
export function plansTable(): string {
  const rows = CLOUDFRONT_PLAN_TIERS.map((tier) => {
    const m = planMonths(tier);
    const name = tier === DEFAULT_CLOUDFRONT_PLAN ? `**${m.label}** (default)` : m.label;
    const price = CLOUDFRONT_PLANS[tier].monthlyUsd;
    const worst = m.cloudFront.capped ? usd(m.worst) : `${usd(m.worst)} + CloudFront`;
    return `| ${name} | ${price === undefined ? 'per request and GB' : usd(price)} | ${CLOUDFRONT_PLANS[defaultPreviewPlan(tier)].label} | ${usd(defaultMonthlyBudgetUsd(tier))} | ${usd(m.quiet)} | ${worst} | ${cloudFrontCell(m)} |`;
  });
  return [
    '| plan (`cloudFrontPlan`) | plan price, the site | previews on (`previewCloudFrontPlan`) | default `monthlyBudgetUsd` | quiet month | worst month | CloudFront in a flood |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The worst month's flood on the default plan, part by part. */
export function floodTable(): string {
  const m = planMonths(DEFAULT_CLOUDFRONT_PLAN);
  const rows = m.flood.routes.map(
    (r) =>
      `| ${r.route}: its daily number, ${BREAKER_WORST_DELAY_SECONDS / 60} min at its throttle, then its trickle | ${count(r.dailyRequests)} | ${count(r.requestsPerDay)} | ${usd(r.dollars)} |`,
  );
  return [
    '| part | daily number | requests a day | a month |',
    '|---|---|---|---|',
    ...rows,
    `| refused for their address's share, every route together | ${count(PAST_SHARE_DAILY_REQUESTS)} | ${count(m.flood.pastShare.requestsPerDay)} | ${usd(m.flood.pastShare.dollars)} |`,
    `| siteverify waits and the mail of ${count(m.flood.siteverify.calls)} passed captchas (the captcha budget) | | | ${usd(m.flood.siteverify.dollars)} |`,
    `| **a flood adds** | | | **${usd(m.flood.total)}** (ceiling ${usd(FLOOD_CEILING_USD)}) |`,
  ].join('\n');
}

/** The quiet month on the default plan, part by part. */
export function quietSentence(): string {
  const q = quietMonth(DEFAULT_CLOUDFRONT_PLAN);
  const b = breakerMonth();
  return (
    `On the default plan (${CLOUDFRONT_PLANS[DEFAULT_CLOUDFRONT_PLAN].label} for the site, ${CLOUDFRONT_PLANS[q.previewPlan].label} for the previews) ` +
    `${usd(q.planUsd)}, plus the stack's own ${usd(q.stackUsd)} (the origin secret, the alarm metrics past the free ten, the two ` +
    `page-view metrics, and the circuit breaker's ${count(b.runs)} runs and ${count(b.reads)} counter reads, ${usd(b.dollars)}): ` +
    `**${usd(q.total)} a month**.`
  );
}

/** The README's sentence about what a flood costs. */
export function readmeSentence(): string {
  const m = planMonths(DEFAULT_CLOUDFRONT_PLAN);
  return (
    `On the default plan (${m.label}) a quiet month is about ${usd(m.quiet)} and the worst month an attacker can cause ` +
    `${usd(m.worst)}, CloudFront included ([what a flood costs](docs/deploy.md#the-bills-ceiling-budget-and-route-breakers)).`
  );
}

/** The edge rule's arithmetic the flood rests on. */
export function edgeSentence(): string {
  return (
    `One address gets at most ${count(EDGE_RATE_RULE.limit)} requests to \`/api/*\` past the edge every ` +
    `${EDGE_RATE_RULE.evaluationWindowSeconds / 60} minutes, ${count(EDGE_DAILY_MAX_PER_ADDRESS)} a day.`
  );
}

export const COST_BLOCKS: Readonly<Record<string, { file: string; render: () => string }>> = {
  plans: { file: 'docs/deploy.md', render: plansTable },
  flood: { file: 'docs/deploy.md', render: floodTable },
  edge: { file: 'docs/deploy.md', render: edgeSentence },
  quiet: { file: 'docs/deploy.md', render: quietSentence },
  readme: { file: 'README.md', render: readmeSentence },
};

const markers = (name: string) => [`<!-- cost-model:${name} -->`, `<!-- /cost-model:${name} -->`] as const;

/** The text between a block's markers in `text`, or undefined when a marker is missing. */
export function blockIn(text: string, name: string): string | undefined {
  const [open, close] = markers(name);
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) return undefined;
  return text.slice(start + open.length, end).replace(/^\n|\n$/g, '');
}

/** Rewrites every block in its doc; returns the files changed. */
export function writeCostBlocks(root = ROOT): string[] {
  const changed = new Set<string>();
  for (const [name, { file, render }] of Object.entries(COST_BLOCKS)) {
    const full = path.join(root, file);
    const text = readFileSync(full, 'utf8');
    const [open, close] = markers(name);
    const current = blockIn(text, name);
    if (current === undefined) throw new Error(`${file} has no ${open} … ${close} block`);
    const wanted = render();
    if (current === wanted) continue;
    const start = text.indexOf(open) + open.length;
    writeFileSync(full, `${text.slice(0, start)}\n${wanted}\n${text.slice(text.indexOf(close))}`);
    changed.add(file);
  }
  return [...changed];
}

export const readDoc = (file: string, root = ROOT) => readFileSync(path.join(root, file), 'utf8');
