import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';
import { API_REQUEST_HEADERS, ORIGIN_VERIFY_HEADER } from '../../contract/api-headers';

/**
 * What CloudFront passes to the HTTP API: exactly the headers the functions read
 * (contract/api-headers.ts), CloudFront-Viewer-Address among them, and no cookie or query string.
 *
 * Not the managed AllViewerExceptHostHeader: it forwards "all headers in the viewer request except for
 * the Host header" and none of CloudFront's own; the CloudFront-Viewer-* headers come only with
 * AllViewerAndCloudFrontHeaders-2022-06 (CloudFront Developer Guide, "Use managed origin request
 * policies": https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/using-managed-origin-request-policies.html),
 * so with it the visitor's address never arrived. An allow list names them (header behavior
 * `whitelist`: "Only the HTTP headers that are listed ... are included"; CloudFront API Reference,
 * OriginRequestPolicyHeadersConfig). Host is never in it: API Gateway routes by its own host name, which
 * CloudFront sets from the origin's domain when the viewer's Host is not forwarded.
 *
 * ORIGIN_VERIFY_HEADER is in it too: the /api/* viewer-request function sets it (after removing any
 * copy the viewer sent), and the origin request is made from the request as that function left it,
 * filtered by this policy ("Control origin requests with a policy":
 * https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/controlling-origin-requests.html).
 */
export function createApiOriginRequestPolicy(scope: Construct, id: string): cloudfront.OriginRequestPolicy {
  const headers = [...Object.values(API_REQUEST_HEADERS), ORIGIN_VERIFY_HEADER];
  if (headers.some((h) => h.toLowerCase() === 'host')) throw new Error('The API origin request policy must never forward Host.');
  return new cloudfront.OriginRequestPolicy(scope, id, {
    comment: 'The request headers the API functions read (contract/api-headers.ts), CloudFront-Viewer-Address included',
    headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList(...headers),
    cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
    queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.none(),
  });
}
