/**
 * The month's AWS bill for the API, worst and quiet, from the stack's own numbers (route throttles,
 * circuit-breaker day numbers, the breaker's delay, the bytes each handler logs) and AWS's us-east-1
 * unit prices. docs/deploy.md's "The bill's ceiling" prints what `npm run bench:costs` computes here.
 * Each price names the page it was read from; the two marked third-party could not be read on AWS's
 * own page and are to be checked there.
 */
import { API_ROUTES } from '../../contract/api-routes';
import { BREAKER_CHECK_MINUTES, BREAKER_WORST_DELAY_SECONDS, DEFAULT_DAILY_REQUESTS, TRIPPED_THROTTLES, type BreakerRoute } from '../../contract/breaker';
import { CONTACT_ADDRESS_LIMITS, DEFAULT_CAPTCHA_MONTHLY_BUDGET, ROUTE_THROTTLES } from '../../contract/limits';

export const PRICES = {
  /** API Gateway pricing, HTTP APIs, first 300 million a month: https://aws.amazon.com/api-gateway/pricing/ */
  apiGatewayPerMillion: 1.0,
  /** Lambda pricing, requests, and arm64 duration per GB-second: https://aws.amazon.com/lambda/pricing/ */
  lambdaPerMillion: 0.2,
  lambdaPerGbSecond: 0.0000133334,
  /** DynamoDB pricing, on-demand write request units: https://aws.amazon.com/dynamodb/pricing/on-demand/ */
  dynamoWritesPerMillion: 0.625,
  /** CloudWatch pricing, Logs (Standard) ingestion per GB: https://aws.amazon.com/cloudwatch/pricing/ */
  logsPerGb: 0.5,
  /** CloudWatch pricing, a standard alarm per metric it reads, a month. */
  alarmMetric: 0.1,
  /** CloudWatch pricing, API requests per 1,000 (GetMetricStatistics; its first million a month are free). */
  apiRequestsPerThousand: 0.01,
  /** SES pricing, outbound mail per 1,000: https://aws.amazon.com/ses/pricing/ */
  sesPerThousand: 0.1,
  /**
   * CloudFront, HTTPS requests per 10,000 in the United States, Mexico and Canada, past the always-free
   * 10 million a month (https://aws.amazon.com/cloudfront/pricing/, "Included in Always Free Tier").
   * Third-party: the pricing page's request table could not be read here; the figure is infracost's.
   */
  cloudFrontHttpsPer10k: 0.01,
} as const;

/** What a request costs besides API Gateway's charge: its function's time and memory, and its writes. */
export const ROUTE_WORK: Readonly<Record<BreakerRoute, { memoryGb: number; seconds: number; dynamoWrites: number }>> = {
  // Up to siteverify's answer (budgeted 5 s; Google answers in well under one) for a request that passes
  // its address's limit; the counters' writes: each window of CONTACT_ADDRESS_LIMITS plus the month's budget.
  contact: { memoryGb: 0.25, seconds: 1, dynamoWrites: CONTACT_ADDRESS_LIMITS.length + 1 },
  events: { memoryGb: 0.125, seconds: 0.01, dynamoWrites: 0 },
  vitals: { memoryGb: 0.125, seconds: 0.01, dynamoWrites: 0 },
};

/** One API access-log line as the stage writes it (infra/lib/http-api.ts ACCESS_LOG_FORMAT), a typical one. */
export const ACCESS_LOG_LINE = JSON.stringify({ requestId: 'Jq1Xb2cDoAMEb0Q=', routeKey: 'POST /api/contact', status: '429', latencyMs: '12', integrationError: '-' });

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
const MONTH_DAYS = 30;

export interface RouteMonth {
  route: BreakerRoute;
  requestsPerDay: number;
  requestsPerMonth: number;
  dollars: { apiGateway: number; lambda: number; dynamo: number; logs: number; ses: number };
  total: number;
  /** CloudFront's charge for the same requests, past its free 10 million (stated apart: a WAF alone caps it). */
  cloudFront: number;
}

/**
 * A route held at its throttle for a month, with its breaker: each UTC day the flood takes the day's
 * number, then runs on at the throttle for the breaker's worst delay, then meets the trickle until
 * midnight. Every request counted as reaching the function (the most it costs).
 */
export function worstRouteMonth(route: BreakerRoute, dailyRequests = DEFAULT_DAILY_REQUESTS[route]): RouteMonth {
  const rate = ROUTE_THROTTLES[route].rateLimit;
  const trickle = TRIPPED_THROTTLES[route].rateLimit;
  const beforeTrip = dailyRequests / rate + BREAKER_WORST_DELAY_SECONDS;
  // Never more than the throttle lets through in a day (a day number above it means no breaker at all).
  const requestsPerDay = Math.round(
    Math.min(rate * DAY_SECONDS, dailyRequests + rate * BREAKER_WORST_DELAY_SECONDS + trickle * Math.max(0, DAY_SECONDS - beforeTrip)),
  );
  const n = requestsPerDay * MONTH_DAYS;
  const work = ROUTE_WORK[route];
  const logBytes = n * (Math.max(LOGGED_BYTES[route].normal, LOGGED_BYTES[route].refused) + Buffer.byteLength(ACCESS_LOG_LINE));
  const dollars = {
    apiGateway: (n / 1e6) * PRICES.apiGatewayPerMillion,
    lambda: (n / 1e6) * PRICES.lambdaPerMillion + n * work.memoryGb * work.seconds * PRICES.lambdaPerGbSecond,
    dynamo: ((n * work.dynamoWrites) / 1e6) * PRICES.dynamoWritesPerMillion,
    logs: (logBytes / 1e9) * PRICES.logsPerGb,
    // Mail goes out only for a passed captcha, which the month's siteverify budget caps.
    ses: route === 'contact' ? (DEFAULT_CAPTCHA_MONTHLY_BUDGET / 1000) * PRICES.sesPerThousand : 0,
  };
  const total = Object.values(dollars).reduce((a, b) => a + b, 0);
  return { route, requestsPerDay, requestsPerMonth: n, dollars, total, cloudFront: 0 };
}

/** CloudFront's request charge for `requests` a month past its free 10 million. */
export function cloudFrontRequests(requests: number): number {
  return (Math.max(0, requests - 10_000_000) / 10_000) * PRICES.cloudFrontHttpsPer10k;
}

/** What the breaker adds to a quiet month: its alarm, and its metric reads past CloudWatch's free million. */
export function quietMonthAdded(): { alarm: number; metricReads: number; metricReadsPastFreeTier: number } {
  const reads = API_ROUTES.length * (60 / BREAKER_CHECK_MINUTES) * 24 * MONTH_DAYS;
  return { alarm: PRICES.alarmMetric, metricReads: reads, metricReadsPastFreeTier: (reads / 1000) * PRICES.apiRequestsPerThousand };
}

/** Every route at once, held for the month; and CloudFront's charge if the attacker sends at each throttle. */
export function worstMonth() {
  const routes = API_ROUTES.map((r) => worstRouteMonth(r.name));
  const atThrottle = API_ROUTES.reduce((sum, r) => sum + ROUTE_THROTTLES[r.name].rateLimit * DAY_SECONDS * MONTH_DAYS, 0);
  return {
    routes,
    total: routes.reduce((sum, r) => sum + r.total, 0),
    cloudFrontAtThrottles: { requests: atThrottle, dollars: cloudFrontRequests(atThrottle) },
  };
}
