/**
 * The one cost model: what the stack costs in a quiet month and the most an attacker can add in a
 * month, for each CloudFront plan choice, from the stack's own numbers (route throttles, address
 * shares, the edge's rate rule, the breakers' daily numbers and delay, the bytes each handler logs)
 * and AWS's us-east-1 unit prices. The breakers' daily numbers come from here too: what the owner's
 * monthly budget leaves for a flood, per route and day (dailyRequestsFromBudget). README, docs/deploy.md,
 * `npm run bench:costs`, setup and the doctor print these figures; a test holds the docs' tables to them.
 *
 * Every figure is an upper bound: each flooded request is priced at the dearest path it can take.
 */
import { API_ROUTES } from './api-routes';
import {
  BREAKER_CHECK_MINUTES,
  BREAKER_WORST_DELAY_SECONDS,
  DAILY_REQUESTS_LIMITS,
  dailyNumberFloor,
  EDGE_DAILY_MAX_PER_ADDRESS,
  PAST_SHARE_BATCH,
  PAST_SHARE_DAILY_REQUESTS,
  TRIPPED_THROTTLES,
  type BreakerRoute,
} from './breaker';
import { CLOUDFRONT_PLANS, DEFAULT_CLOUDFRONT_PLAN, defaultPreviewPlan, type CloudFrontPlanTier } from './cloudfront-plans';
import { DEFAULT_CAPTCHA_MONTHLY_BUDGET, ROUTE_THROTTLES } from './limits';

export const PRICES = {
  /** API Gateway pricing, HTTP APIs, first 300 million a month: https://aws.amazon.com/api-gateway/pricing/ */
  apiGatewayPerMillion: 1.0,
  /** Lambda pricing, requests, and arm64 duration per GB-second: https://aws.amazon.com/lambda/pricing/ */
  lambdaPerMillion: 0.2,
  lambdaPerGbSecond: 0.0000133334,
  /** DynamoDB pricing, on-demand write and read request units: https://aws.amazon.com/dynamodb/pricing/on-demand/ */
  dynamoWritesPerMillion: 0.625,
  dynamoReadsPerMillion: 0.125,
  /** CloudWatch pricing, Logs (Standard) ingestion per GB: https://aws.amazon.com/cloudwatch/pricing/ */
  logsPerGb: 0.5,
  /** CloudWatch pricing, a standard alarm per metric it reads, a month (the first 10 are free). */
  alarmMetric: 0.1,
  /** CloudWatch pricing, a custom metric a month (first 10,000), billed only for hours it receives data. */
  customMetric: 0.3,
  /** SES pricing, outbound mail per 1,000: https://aws.amazon.com/ses/pricing/ */
  sesPerThousand: 0.1,
  /** Secrets Manager pricing, a secret a month: https://aws.amazon.com/secrets-manager/pricing/ */
  secret: 0.4,
  /**
   * CloudFront pay-as-you-go, data transfer out to the internet in the United States, Mexico and Canada,
   * first 10 TB, per GB, past the always-free 1 TB a month: https://aws.amazon.com/cloudfront/pricing/
   */
  cloudFrontPerGb: 0.085,
  /**
   * CloudFront pay-as-you-go HTTPS requests per 10,000 in the United States, past the always-free 10 million
   * a month (same page). Third-party: the page's request table could not be read here; the figure is infracost's.
   */
  cloudFrontHttpsPer10k: 0.01,
} as const;

/** How a request is handled: counted (within its address's share, the dearest path) or refused for its share. */
export type RequestPath = 'counted' | 'refused';

/**
 * What one request costs besides API Gateway's charge: its function's time and memory, and its counter
 * writes. Refused for its share, a request adds a tenth of a write (the past-share counter, written a
 * batch at a time) and no other: the function remembers a counter it found full until it expires.
 */
export const ROUTE_WORK: Readonly<Record<BreakerRoute, Record<RequestPath, { memoryGb: number; seconds: number; dynamoWrites: number }>>> =
  {
    // Counted: the share's windows of an IPv6 address and its /48 (4 writes), the route's day counter and the
    // month's siteverify budget; the wait for siteverify is priced apart (the captcha budget caps how many ask).
    contact: {
      counted: { memoryGb: 0.25, seconds: 0.1, dynamoWrites: 6 },
      refused: { memoryGb: 0.25, seconds: 0.05, dynamoWrites: 1 / PAST_SHARE_BATCH },
    },
    // The address's day count and the route's day counter.
    events: {
      counted: { memoryGb: 0.125, seconds: 0.02, dynamoWrites: 2 },
      refused: { memoryGb: 0.125, seconds: 0.02, dynamoWrites: 1 / PAST_SHARE_BATCH },
    },
    vitals: {
      counted: { memoryGb: 0.125, seconds: 0.02, dynamoWrites: 2 },
      refused: { memoryGb: 0.125, seconds: 0.02, dynamoWrites: 1 / PAST_SHARE_BATCH },
    },
  };

/** A contact request that asks siteverify waits this long at most for Google (CONTACT_TIMEOUTS_MS.verify is 5 s; Google answers in well under one). */
const SITEVERIFY_SECONDS = 1;

/** One API access-log line as the stage writes it (infra/lib/http-api.ts ACCESS_LOG_FORMAT), a typical one. */
export const ACCESS_LOG_LINE = JSON.stringify({
  requestId: 'Jq1Xb2cDoAMEb0Q=',
  routeKey: 'POST /api/contact',
  status: '429',
  latencyMs: '12',
  integrationError: '-',
});

/**
 * The bytes each handler writes per request, normal and refused (one line each), that the costs use;
 * the logged-bytes test measures the handlers and holds them to these.
 */
export const LOGGED_BYTES: Readonly<Record<BreakerRoute, { normal: number; refused: number }>> = {
  contact: { normal: 600, refused: 500 },
  events: { normal: 260, refused: 270 },
  vitals: { normal: 520, refused: 270 },
};

const DAY_SECONDS = 86_400;
export const MONTH_DAYS = 30;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Dollars for one request on `route` taking `path`: API Gateway, Lambda, DynamoDB writes, the two log lines. */
export function requestCost(route: BreakerRoute, path: RequestPath): number {
  const work = ROUTE_WORK[route][path];
  const logBytes = LOGGED_BYTES[route][path === 'counted' ? 'normal' : 'refused'] + new TextEncoder().encode(ACCESS_LOG_LINE).length;
  return (
    PRICES.apiGatewayPerMillion / 1e6 +
    PRICES.lambdaPerMillion / 1e6 +
    work.memoryGb * work.seconds * PRICES.lambdaPerGbSecond +
    (work.dynamoWrites * PRICES.dynamoWritesPerMillion) / 1e6 +
    (logBytes / 1e9) * PRICES.logsPerGb
  );
}

/** The dearer of the two paths: what a request a flood sends past the count is priced at. */
const dearest = (route: BreakerRoute) => Math.max(requestCost(route, 'counted'), requestCost(route, 'refused'));

export interface RouteFlood {
  route: BreakerRoute;
  dailyRequests: number;
  /** Requests a flood gets through in a day: the day's number, the breaker's delay at the throttle, the trickle. */
  requestsPerDay: number;
  dollars: number;
}

export interface FloodMonth {
  routes: RouteFlood[];
  /** Requests refused for their address's share, all routes, before their breaker turns every route down. */
  pastShare: { requestsPerDay: number; dollars: number };
  /** Contact requests that ask siteverify (the captcha budget caps them) and the mail a passed one sends. */
  siteverify: { calls: number; dollars: number };
  /** What the attacker adds to the AWS bill beyond a quiet month (CloudFront apart: cloudFrontFlood). */
  total: number;
}

/**
 * The most an attacker adds to a month on the API side, with the given daily numbers: every day each
 * route takes its number, then the breaker's worst delay at its throttle, then its trickle for the whole
 * day; and, on top, the past-share counter's number of requests refused for their share (the crowd of
 * addresses it takes), each at its dearest path; never more than the throttle lets through in a day.
 */
export function floodMonth(dailyRequests: Readonly<Record<BreakerRoute, number>>): FloodMonth {
  const routes = API_ROUTES.map(({ name: route }): RouteFlood => {
    const rate = ROUTE_THROTTLES[route].rateLimit;
    const perDay = Math.min(
      rate * DAY_SECONDS,
      dailyRequests[route] + rate * BREAKER_WORST_DELAY_SECONDS + TRIPPED_THROTTLES[route].rateLimit * DAY_SECONDS,
    );
    return {
      route,
      dailyRequests: dailyRequests[route],
      requestsPerDay: Math.round(perDay),
      dollars: perDay * MONTH_DAYS * dearest(route),
    };
  });
  const pastShareDollars = PAST_SHARE_DAILY_REQUESTS * MONTH_DAYS * Math.max(...API_ROUTES.map((r) => requestCost(r.name, 'refused')));
  const calls = DEFAULT_CAPTCHA_MONTHLY_BUDGET;
  const siteverifyDollars =
    calls * ROUTE_WORK.contact.counted.memoryGb * SITEVERIFY_SECONDS * PRICES.lambdaPerGbSecond + (calls / 1000) * PRICES.sesPerThousand;
  const total = routes.reduce((sum, r) => sum + r.dollars, 0) + pastShareDollars + siteverifyDollars;
  return {
    routes,
    pastShare: { requestsPerDay: PAST_SHARE_DAILY_REQUESTS, dollars: pastShareDollars },
    siteverify: { calls, dollars: siteverifyDollars },
    total,
  };
}

/** The flood's fixed part: everything but the routes' own daily numbers (floodMonth with numbers of 0). */
function fixedFlood(): number {
  return floodMonth({ contact: 0, events: 0, vitals: 0 }).total;
}

/**
 * A quiet month of the stack, beyond its plan's price (us-east-1, a portfolio's traffic: about 15,000
 * page views, 500 clicks, 20 messages): the origin secret, the alarm metrics past the free ten, the two
 * page-view metrics, the breaker's runs and reads. The traffic itself stays within the always-free
 * tiers (docs/deploy.md, "What it costs a month", has the table).
 */
export const QUIET_STACK = {
  /** Alarm metrics the stack's alarms read (infra/lib/monitoring.ts and the breaker's), the first 10 free. */
  alarmMetrics: 23,
  /** Custom metrics that receive data every hour of a quiet month: PageViewLCP and PageViewINP. */
  hourlyCustomMetrics: 2,
} as const;

/** The breaker's own month: runs of a 128 MB function for about 0.2 s, and four strongly consistent reads each. */
export function breakerMonth(): { runs: number; reads: number; dollars: number } {
  const runs = (60 / BREAKER_CHECK_MINUTES) * 24 * MONTH_DAYS;
  const reads = runs * (API_ROUTES.length + 1);
  const dollars =
    (runs / 1e6) * PRICES.lambdaPerMillion + runs * 0.128 * 0.2 * PRICES.lambdaPerGbSecond + (reads / 1e6) * PRICES.dynamoReadsPerMillion;
  return { runs, reads, dollars };
}

export interface QuietMonth {
  plan: CloudFrontPlanTier;
  previewPlan: CloudFrontPlanTier;
  /** The two distributions' plans' prices (pay-as-you-go: 0, the always-free tier covering a quiet month). */
  planUsd: number;
  stackUsd: number;
  total: number;
}

/**
 * `previewPlan`: the pull-request previews' distribution's plan (a second subscription, priced again;
 * default the site's, as cdk.json's previewCloudFrontPlan defaults).
 */
export function quietMonth(
  plan: CloudFrontPlanTier = DEFAULT_CLOUDFRONT_PLAN,
  previewPlan: CloudFrontPlanTier = defaultPreviewPlan(plan),
): QuietMonth {
  const planUsd = (CLOUDFRONT_PLANS[plan].monthlyUsd ?? 0) + (CLOUDFRONT_PLANS[previewPlan].monthlyUsd ?? 0);
  const stackUsd =
    PRICES.secret +
    Math.max(0, QUIET_STACK.alarmMetrics - 10) * PRICES.alarmMetric +
    QUIET_STACK.hourlyCustomMetrics * PRICES.customMetric +
    breakerMonth().dollars;
  return { plan, previewPlan, planUsd, stackUsd, total: planUsd + stackUsd };
}

/**
 * CloudFront's share of a flood. On a flat-rate plan: nothing (AWS never bills overage; past the
 * allowance it may slow the site). On pay-as-you-go: no ceiling at all, stated per unit of the attacker's
 * own rate: each request a second held for a month, and each Mbit/s held for a month.
 */
export function cloudFrontFlood(
  plan: CloudFrontPlanTier,
): { capped: true; dollars: 0 } | { capped: false; perRequestPerSecondMonth: number; perMbitPerSecondMonth: number } {
  if (CLOUDFRONT_PLANS[plan].monthlyUsd !== undefined) return { capped: true, dollars: 0 };
  const seconds = DAY_SECONDS * MONTH_DAYS;
  return {
    capped: false,
    perRequestPerSecondMonth: (seconds / 10_000) * PRICES.cloudFrontHttpsPer10k,
    perMbitPerSecondMonth: ((seconds * 1e6) / 8 / 1e9) * PRICES.cloudFrontPerGb,
  };
}

/** What a flood may add to a month on the owner's budget: the budget less a quiet month on the plan. */
export function floodAllowance(
  monthlyBudgetUsd: number,
  plan: CloudFrontPlanTier,
  previewPlan: CloudFrontPlanTier = defaultPreviewPlan(plan),
): number {
  return monthlyBudgetUsd - quietMonth(plan, previewPlan).total;
}

/**
 * Each route's daily number from the owner's monthly budget: what the budget leaves for a flood, less
 * the flood's fixed part (the breakers' delay, the trickle, the past-share counter, siteverify's mail),
 * shared equally by the three routes, per day, over the dearest request of each; never under the
 * route's floor (dailyNumberFloor: one address must not trip it) and never over DAILY_REQUESTS_LIMITS.max.
 * A budget too small for the floors gives the floors, and floodMonth says what they cost.
 */
export function dailyRequestsFromBudget(
  monthlyBudgetUsd: number,
  plan: CloudFrontPlanTier,
  previewPlan: CloudFrontPlanTier = defaultPreviewPlan(plan),
): Record<BreakerRoute, number> {
  const perRoute = Math.max(0, floodAllowance(monthlyBudgetUsd, plan, previewPlan) - fixedFlood()) / API_ROUTES.length / MONTH_DAYS;
  const daily = (route: BreakerRoute) =>
    Math.min(DAILY_REQUESTS_LIMITS.max, Math.max(dailyNumberFloor(route), Math.floor(perRoute / dearest(route))));
  return { contact: daily('contact'), events: daily('events'), vitals: daily('vitals') };
}

/** What a flood may add on the default budget: the ceiling the docs promise. */
export const FLOOD_CEILING_USD = 10;

/** The default monthly budget on a plan: a quiet month and the flood ceiling, rounded down to whole dollars (so a flood stays within the ceiling). */
export function defaultMonthlyBudgetUsd(
  plan: CloudFrontPlanTier = DEFAULT_CLOUDFRONT_PLAN,
  previewPlan: CloudFrontPlanTier = defaultPreviewPlan(plan),
): number {
  return Math.floor(quietMonth(plan, previewPlan).total + FLOOD_CEILING_USD);
}

export interface PlanMonths {
  plan: CloudFrontPlanTier;
  label: string;
  quiet: number;
  /** The worst month on the API side: quiet plus the flood, with the daily numbers the budget gives. */
  worst: number;
  flood: FloodMonth;
  cloudFront: ReturnType<typeof cloudFrontFlood>;
}

/** The quiet and the worst month for a plan and budget (default: the plans' default budget). */
export function planMonths(
  plan: CloudFrontPlanTier,
  monthlyBudgetUsd?: number,
  previewPlan: CloudFrontPlanTier = defaultPreviewPlan(plan),
): PlanMonths {
  const budget = monthlyBudgetUsd ?? defaultMonthlyBudgetUsd(plan, previewPlan);
  const flood = floodMonth(dailyRequestsFromBudget(budget, plan, previewPlan));
  const quiet = quietMonth(plan, previewPlan).total;
  return { plan, label: CLOUDFRONT_PLANS[plan].label, quiet, worst: quiet + flood.total, flood, cloudFront: cloudFrontFlood(plan) };
}

/** One line for setup's plan question and the doctor: the plan's quiet month and worst month. */
export function describePlanMonths(
  plan: CloudFrontPlanTier,
  monthlyBudgetUsd?: number,
  previewPlan: CloudFrontPlanTier = defaultPreviewPlan(plan),
): string {
  const m = planMonths(plan, monthlyBudgetUsd, previewPlan);
  const usd = (n: number) => `$${round2(n).toFixed(2)}`;
  const cf = m.cloudFront.capped
    ? 'CloudFront included'
    : `plus CloudFront, uncapped: $${round2(m.cloudFront.perRequestPerSecondMonth).toFixed(2)} per request a second held a month, ` +
      `$${round2(m.cloudFront.perMbitPerSecondMonth).toFixed(2)} per Mbit/s`;
  return `${m.label}: quiet month ${usd(m.quiet)}, worst month ${usd(m.worst)} (${cf})`;
}

/** Each request at the edge's per-address maximum: what one address alone can send to /api/* in a day. */
export { EDGE_DAILY_MAX_PER_ADDRESS };
