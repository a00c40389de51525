/**
 * Platform limits and time budgets that more than one part relies on: the build checks the CSP
 * against the same ceiling the stack does, and the handlers and the local API stand-in agree on
 * body sizes and how long a request may take.
 */

/**
 * CloudFront's response-headers policy accepts a Content-Security-Policy of at most this many
 * characters; the post-build step and the stack both refuse a longer one.
 */
export const CLOUDFRONT_CSP_MAX_CHARS = 1783;

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
  /** The whole request, from arrival to answer: below API Gateway's 30 s and the Lambda timeout. */
  total: 9_000,
  /** One call to the message archive (DynamoDB): a put, a get or an update. */
  archive: 1_000,
  /** The SSM read on a cold start counts against the request budget, so it is kept short. */
  ssm: 2_500,
} as const;
