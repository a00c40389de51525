/**
 * Every request header the API's handlers read, lower-cased: the one list the handlers take their
 * names from (`getHeader` accepts no other) and the CDK stack forwards to the API through its origin
 * request policy (infra/lib/api-origin-request-policy.ts). A header not named here never reaches the
 * functions on AWS, so reading a new one means adding it here.
 */
export const API_REQUEST_HEADERS = {
  /** Both routes: the body's media type. */
  contentType: 'content-type',
  /** Contact: the page's language, for the mail to the owner. */
  contentLanguage: 'content-language',
  /** Contact: the client's key for a safe retry. */
  idempotencyKey: 'idempotency-key',
  /**
   * Contact: the visitor's "ip:port", added by CloudFront itself (not sent by the browser). CloudFront
   * adds its CloudFront-Viewer-* headers only when an origin request policy names them (CloudFront
   * Developer Guide, "Add CloudFront request headers":
   * https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/adding-cloudfront-headers.html).
   */
  viewerAddress: 'cloudfront-viewer-address',
} as const;

/**
 * A Content-Language value the page sends and the API reads: one BCP 47-looking tag (`en`, `es`,
 * `pt-BR`) of at most 35 characters. Anything else is left out by the page and ignored by the API,
 * never refused: the language only labels the owner's mail.
 */
export function isContentLanguage(value: string): boolean {
  return value.length <= 35 && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(value);
}

export type ApiRequestHeader = (typeof API_REQUEST_HEADERS)[keyof typeof API_REQUEST_HEADERS];

/**
 * The header every request CloudFront sends the API carries: a viewer-request CloudFront Function on
 * the /api/* behavior (infra/cloudfront/api-origin.js) removes a viewer's copy and sets the origin
 * secret, read from the distribution's key value store under ORIGIN_SECRET_KVS_KEY. The secret is a
 * random value Secrets Manager keeps and a rotation function replaces on a schedule (infra/lib/origin-secret.ts):
 * never in a template, an output or a log. Every API function refuses a request without it before any
 * other work (functions/shared/origin.ts), so the API's own execute-api address cannot be used to
 * skip CloudFront. Not in API_REQUEST_HEADERS: the origin request policy adds it on its own.
 */
export const ORIGIN_VERIFY_HEADER = 'x-portfolio-origin';

/** The environment variable that names the origin secret (its ARN: the value is read at run time). */
export const ORIGIN_SECRET_ENV = 'ORIGIN_SECRET_ARN';

/** The key value store's key that holds the origin secret CloudFront sends. */
export const ORIGIN_SECRET_KVS_KEY = 'origin-secret';
