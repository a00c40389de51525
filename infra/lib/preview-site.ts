import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Construct } from 'constructs';
import { VIEWER_REQUEST_FUNCTION_FILE, viewerRequestFunctionCode } from '../cloudfront/viewer-request-loader';
import { PREVIEW_KEY_PREFIX } from '../../contract/preview-path';

export { PREVIEW_KEY_PREFIX, previewPath } from '../../contract/preview-path';

const PREVIEW_FUNCTION_FILE = path.join(path.dirname(VIEWER_REQUEST_FUNCTION_FILE), 'preview-viewer-request.js');

/**
 * The preview distribution's viewer-request code: the live site's function, its handler renamed
 * routeHandler, then preview-viewer-request.js, which picks the preview by cookie and prefixes the path.
 */
export function previewViewerRequestCode(): string {
  const live = viewerRequestFunctionCode();
  const renamed = live.replace(/^function handler\(event\)/m, 'function routeHandler(event)');
  if (renamed === live) throw new Error(`${VIEWER_REQUEST_FUNCTION_FILE} has no top-level "function handler(event)" to reuse`);
  return `${renamed}\n${readFileSync(PREVIEW_FUNCTION_FILE, 'utf8')}`;
}

/** Every preview response says noindex (a preview is never a search result), whatever its build says. */
export const PREVIEW_VIEWER_RESPONSE_CODE = [
  'function handler(event) {',
  '  var response = event.response;',
  "  response.headers['x-robots-tag'] = { value: 'noindex, nofollow' };",
  '  return response;',
  '}',
].join('\n');

/**
 * Where pull-request previews live: one bucket and one distribution, created by main's deploy, never
 * by a branch. A pull request's workflow uploads its built site under `pr-N/<short sha>/` (immutable, so
 * nothing is ever invalidated) with the GitHub stack's preview role, which may put, delete and list
 * objects under `pr-` in this bucket and nothing else in the account. The files are the same build as
 * the live site's (built for the root, with the preview distribution's address): the distribution's
 * viewer-request function picks a preview by cookie (preview-viewer-request.js), so no page needs a
 * base path. There is no /api/*: a preview's contact form sends nothing (docs/deploy.md, "Previews").
 */

/**
 * Days a preview's files are kept after upload. A closed pull request's prefix is deleted at once by
 * its workflow; this expiry removes what that missed (a failed run, a force-pushed commit's older
 * build) with no scheduled workflow: S3 Lifecycle "Expiration" with a prefix filter (Amazon S3 User
 * Guide, "Lifecycle configuration elements": https://docs.aws.amazon.com/AmazonS3/latest/userguide/intro-lifecycle-rules.html).
 */
export const PREVIEW_EXPIRY_DAYS = 14;

/**
 * The preview bucket's name, fixed so the GitHub stack's preview role can name it before main's
 * first deploy: the account and region in it keep it unique, and the role also requires the bucket to
 * be this account's (aws:ResourceAccount), so a bucket of that name elsewhere receives nothing.
 */
export function previewBucketName(portfolioStackName: string, account: string, region: string): string {
  return `${portfolioStackName.toLowerCase()}-previews-${account}-${region}`;
}

export interface PreviewSiteProps {
  /** The live site's response headers policy: previews get the very same security headers. */
  readonly headersPolicy: cloudfront.IResponseHeadersPolicy;
  /** The live site's cache policy for pages (each object's Cache-Control). */
  readonly cachePolicy: cloudfront.ICachePolicy;
}

export class PreviewSite extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;

  constructor(scope: Construct, id: string, props: PreviewSiteProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      bucketName: previewBucketName(stack.stackName, stack.account, stack.region),
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: false,
      // Only previews, rebuilt from git at will: nothing here is worth keeping after `cdk destroy`
      // except that CloudFormation cannot delete a non-empty bucket; `npm run destroy` empties it.
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        { id: 'ExpirePreviews', prefix: PREVIEW_KEY_PREFIX, expiration: Duration.days(PREVIEW_EXPIRY_DAYS) },
        { id: 'AbortUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: "Server access logs would only record CloudFront reading public preview builds and the preview workflow writing them.",
    });

    // Functions of its own (the live site's routing inside): nothing here changes the live function.
    const viewerRequest = new cloudfront.Function(this, 'ViewerRequest', {
      code: cloudfront.FunctionCode.fromInline(previewViewerRequestCode()),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'Previews: /pr-N/sha/ sets the preview cookie; then /projects -> /pr-N/sha/projects/index.html',
    });
    const viewerResponse = new cloudfront.Function(this, 'ViewerResponse', {
      code: cloudfront.FunctionCode.fromInline(PREVIEW_VIEWER_RESPONSE_CODE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'Previews: X-Robots-Tag noindex on every response',
    });
    // Origin access control for a second distribution on a second bucket (Amazon CloudFront Developer
    // Guide, "Restrict access to an Amazon S3 origin": https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/private-content-restricting-access-to-s3.html).
    const origin = origins.S3BucketOrigin.withOriginAccessControl(this.bucket, { originAccessLevels: [cloudfront.AccessLevel.READ] });
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Pull-request previews (${stack.stackName})`,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableIpv6: true,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachedMethods: cloudfront.CachedMethods.CACHE_GET_HEAD,
        compress: true,
        cachePolicy: props.cachePolicy,
        responseHeadersPolicy: props.headersPolicy,
        functionAssociations: [
          { function: viewerRequest, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
          { function: viewerResponse, eventType: cloudfront.FunctionEventType.VIEWER_RESPONSE },
        ],
      },
    });
    const ack = (findingId: string, reason: string) => Validations.of(this.distribution).acknowledge({ id: findingId, reason });
    ack('AwsSolutions-CFR1', 'Pull-request previews are read by the reviewers of the pull request, wherever they are; no country is blocked.');
    ack('AwsSolutions-CFR2', 'Static preview files only (no /api/*, GET and HEAD only): a WAF would cost more than the previews it would guard.');
    ack('AwsSolutions-CFR3', "No access logs on the previews' distribution: they would store reviewers' IP addresses for no use.");
    ack('AwsSolutions-CFR4', 'Previews use the default *.cloudfront.net certificate, whose minimum TLS protocol CloudFront itself fixes.');
  }
}
