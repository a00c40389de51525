/**
 * Content-Type where the upload's guess by extension is wrong, one rule for the S3 upload (CDK
 * BucketDeployment metadata) and the local server.
 */

/**
 * A page's build-time loader data (`/contact.data`), with the type React Router itself serves it with
 * (its single-fetch responses set `Content-Type: text/x-script`). By extension an upload would guess
 * application/octet-stream, which CloudFront never compresses; text/x-script is on its list of file types
 * it compresses (CloudFront Developer Guide, "Serve compressed files", File types that CloudFront
 * compresses: https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/ServingCompressedFiles.html).
 */
export const PAGE_DATA_CONTENT_TYPE = 'text/x-script';

/** The object keys PAGE_DATA_CONTENT_TYPE applies to, as an upload filter. */
export const PAGE_DATA_GLOB = '*.data';

/**
 * A language's Atom feed (feed.xml, es/feed.xml), with Atom's own registered type (RFC 4287 §7,
 * https://www.rfc-editor.org/rfc/rfc4287#section-7) rather than the application/xml an upload guesses
 * by extension: a reader then knows it is a feed without sniffing. application/atom+xml is not on
 * CloudFront's list of types it compresses (the page above), so the feeds travel uncompressed.
 */
export const FEED_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';

/** The object keys FEED_CONTENT_TYPE applies to, as upload filters. */
export const FEED_GLOBS = ['feed.xml', '*/feed.xml'] as const;

/** `key` is an object key or URL path; undefined: the server's own guess by extension is right. */
export function contentTypeFor(key: string): string | undefined {
  if (/\.data$/i.test(key)) return PAGE_DATA_CONTENT_TYPE;
  return /(?:^|\/)feed\.xml$/.test(key) ? FEED_CONTENT_TYPE : undefined;
}
