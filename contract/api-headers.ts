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

export type ApiRequestHeader = (typeof API_REQUEST_HEADERS)[keyof typeof API_REQUEST_HEADERS];

/** The headers of the list that CloudFront generates rather than forwards from the viewer. */
export const CLOUDFRONT_GENERATED_API_HEADERS: readonly ApiRequestHeader[] = [API_REQUEST_HEADERS.viewerAddress];

/**
 * The header CloudFront adds to every request it sends the API (an origin custom header, set on the
 * origin, so it overwrites one a viewer sent: CloudFront Developer Guide, "Add custom headers to
 * origin requests": https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/add-origin-custom-headers.html).
 * Its value is known to the stack alone; the contact function refuses a request without it before
 * any other work, so the API's own execute-api address cannot be used to skip CloudFront. Not in
 * API_REQUEST_HEADERS: the viewer's copy is never forwarded.
 */
export const ORIGIN_VERIFY_HEADER = 'x-portfolio-origin';
