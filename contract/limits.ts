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

/** Time budgets of one contact request, in milliseconds. */
export const CONTACT_TIMEOUTS_MS = {
  /** siteverify, body included. */
  verify: 5_000,
  /** One SES SendEmail call. */
  ses: 3_000,
  /** The whole request, from arrival to answer: below API Gateway's 30 s (above) and the Lambda timeout. */
  total: 9_000,
  /** The SSM read on a cold start counts against the request budget, so it is kept short. */
  ssm: 2_500,
} as const;
