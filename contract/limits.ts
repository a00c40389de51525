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

/**
 * Each route of contract/api-routes.ts has its own bucket (API Gateway route throttling, "Throttle
 * requests to your HTTP APIs": https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-throttling.html),
 * so a burst on one never refuses another: click beacons never starve page views, and neither makes a
 * contact send fail with 429. The stack and the local API stand-in both apply these.
 * - contact: a person types a message; one a second with a burst of 5 is far above real use and caps
 *   what abuse can cost in SES and Lambda.
 * - events: a click sends one beacon; a class of visitors clicking together stays within 50 at once.
 * - vitals: one beacon per page view, sent when the page is hidden or left: a class of 100 that opens
 *   the site together and closes it together is taken in one burst.
 */
export const ROUTE_THROTTLES = {
  contact: { rateLimit: 1, burstLimit: 5 },
  events: { rateLimit: 25, burstLimit: 50 },
  vitals: { rateLimit: 25, burstLimit: 100 },
} as const satisfies Readonly<Record<string, RouteThrottle>>;

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
