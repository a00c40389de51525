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

/** `key` is an object key or URL path; undefined: the server's own guess by extension is right. */
export function contentTypeFor(key: string): string | undefined {
  return /\.data$/i.test(key) ? PAGE_DATA_CONTENT_TYPE : undefined;
}
