/**
 * Platform limits and time budgets that more than one part relies on: the build checks the CSP
 * against the same ceiling the stack does, and the handlers and the local API stand-in agree on
 * body sizes and how long a request may take.
 */

/**
 * CloudFront's response-headers policy accepts a Content-Security-Policy of at most this many
 * characters (the default quota; an account can ask Service Quotas for more); the post-build step and
 * the stack both refuse a longer one. Source: Amazon CloudFront Developer Guide, "Quotas", response
 * headers policies (a longer value fails with TooLongCSPInResponseHeadersPolicy):
 * https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/cloudfront-limits.html
 */
export const CLOUDFRONT_CSP_MAX_CHARS = 1783;

/**
 * API Gateway HTTP APIs stop waiting for an integration after 30 s, a quota that cannot be raised:
 * every Lambda timeout and request budget stays below it. Source: "Quotas for configuring and
 * running an HTTP API in API Gateway", Maximum integration timeout:
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html
 */
export const API_GATEWAY_HTTP_INTEGRATION_TIMEOUT_MS = 30_000;

/**
 * An SES message tag's name and value: ASCII letters, digits, "_" and "-", at most 256 characters.
 * Source: Amazon SES API Reference, MessageTag: https://docs.aws.amazon.com/ses/latest/APIReference/API_MessageTag.html
 */
export const SES_MESSAGE_TAG_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;

/** Largest contact request body (a long message in UTF-8 with room to spare); larger gets 413. */
export const CONTACT_MAX_BODY_BYTES = 32 * 1024;

/** Largest click-event body: one short name; larger gets 413. */
export const EVENT_MAX_BODY_BYTES = 1024;

/**
 * Largest page-view beacon body: five metrics, a route pattern and three short fields take under
 * 200 bytes; larger gets 413.
 */
export const VITALS_MAX_BODY_BYTES = 1024;

/** Requests per second an API route takes steadily, and how many it takes at once above that. */
export interface RouteThrottle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** Time budgets of one contact request, in milliseconds. */
export const CONTACT_TIMEOUTS_MS = {
  /** siteverify, body included. */
  verify: 5_000,
  /** One SES SendEmail call. */
  ses: 3_000,
  /** The whole request, from arrival to answer: below API Gateway's 30 s (above) and the Lambda timeout. */
  total: 9_000,
  /** One call to the message archive (DynamoDB): a put, a get or an update. */
  archive: 1_000,
  /** The SSM read on a cold start counts against the request budget, so it is kept short. */
  ssm: 2_500,
} as const;

/**
 * API Gateway's throttle on each route: one bucket per route, shared by every client (HTTP APIs have
 * no per-client throttle: "Throttling limits" in the API Gateway Developer Guide,
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-throttling.html). A burst on
 * one route never refuses another: click beacons never starve page views, and neither makes a contact
 * send fail with 429. The stack and the local API stand-in both apply these.
 * Sized to a personal site, each with what it takes and what it costs if held (us-east-1, HTTP API at
 * $1.00 per million requests; docs/deploy.md, "What it costs a month", has the full arithmetic):
 * - contact: a person sends a message or two; the bucket is sized above what one flooding address
 *   sends in the benchmark (4 a second), so the per-address limit (CONTACT_ADDRESS_LIMITS) does the
 *   sorting, and ten visitors may press Send in the same second. Held for a day: 432,000 requests
 *   ($0.43 at API Gateway alone), which is why the circuit breaker (contract/breaker.ts) turns the
 *   route down after its day's number rather than letting the throttle stand as the ceiling.
 * - events: a click sends one beacon; a class of 30 clicking together stays within a burst of 50, and
 *   10 a second is 36,000 clicks an hour.
 * - vitals: one beacon per page view, sent when the page is hidden or left: a class of 100 that opens
 *   the site together and closes it together is taken in one burst; 10 a second is 864,000 page views
 *   a day, far above any day a portfolio has.
 * AWS calls these targets, not guaranteed ceilings ("Throttle requests to your HTTP APIs"), so the
 * cost ceiling is the breaker's, with these as the rate a flood runs at until it trips.
 */
export const ROUTE_THROTTLES = {
  contact: { rateLimit: 5, burstLimit: 10 },
  events: { rateLimit: 10, burstLimit: 50 },
  vitals: { rateLimit: 10, burstLimit: 100 },
} as const satisfies Readonly<Record<string, RouteThrottle>>;

/**
 * Contact requests one address may make, per fixed window, before it is answered 429 without any
 * call to siteverify: a person sends a message or two; a bot from one address gets at most 5 checks
 * in ten minutes and 20 a day (600 a month), far below the monthly siteverify budget. Counted in
 * DynamoDB (functions/contact/limits.ts) under a keyed hash of the address, never the address itself.
 */
export const CONTACT_ADDRESS_LIMITS = [
  { windowSeconds: 10 * 60, maxRequests: 5 },
  { windowSeconds: 24 * 60 * 60, maxRequests: 20 },
] as const;

/**
 * The same count for the IPv6 /48 an address's /64 lies in, with a larger allowance: one subscriber is
 * often given a whole /48, 65,536 /64s, so without it a bot steps through /64s; a site or provider
 * sharing one /48 among many people still gets four times one address's share.
 */
export const CONTACT_NETWORK_LIMITS = [
  { windowSeconds: 10 * 60, maxRequests: 20 },
  { windowSeconds: 24 * 60 * 60, maxRequests: 80 },
] as const;

/**
 * Beacons one address may send a UTC day before the rest are dropped (answered 204 like any beacon,
 * kept nowhere, and counted in the log as dropped): a visitor reading the whole site sends far fewer, so
 * one address cannot move the owner's page views, vitals or click counts by more than this.
 */
export const BEACON_DAILY_LIMITS = { events: 100, vitals: 100 } as const;

/**
 * Of an address's page views of a day, only the first this many feed the slow-page alarms' metrics (the
 * rest are still logged, up to the daily limit): the alarms need 40 values a day (SLOW_PAGES_MIN_VIEWS),
 * so at least 14 different addresses before they can fire or clear.
 */
export const VITALS_ALARM_VIEWS_PER_ADDRESS = 3;

/**
 * The default monthly siteverify budget: under Google's free reCAPTCHA allowance, leaving room for other
 * keys of the project. The allowance: 10,000 requests a calendar month per Google Cloud project while
 * billing is off, shared by every key and application of the project, reset on the first of the
 * month; past it Google answers HTTP 429 (reCAPTCHA docs, "Quotas":
 * https://docs.cloud.google.com/recaptcha/quotas; "Create assessments for websites": "The first
 * 10,000 reCAPTCHA monthly assessments are free").
 */
export const DEFAULT_CAPTCHA_MONTHLY_BUDGET = 9_000;

/** The share of the monthly budget at which the owner is warned (a metric and an alarm). */
export const CAPTCHA_BUDGET_WARNING_SHARE = 0.8;
