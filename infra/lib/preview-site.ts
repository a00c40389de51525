import { type CfnElement, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { CfnSubscription } from 'aws-cdk-lib/aws-pricingplanmanager';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Construct } from 'constructs';
import { VIEWER_REQUEST_FUNCTION_FILE, viewerRequestFunctionCode } from '../cloudfront/viewer-request-loader';
import { PREVIEW_KEY_PREFIX } from '../../contract/preview-path';
import { cacheControlFor } from '../shared/cache-control';
import { builtFilesBucketProps } from './site-bucket';
import { DEPLOYMENT_HANDLER_SIZE } from './site-deployment';
import { CLOUDFRONT_PLANS, type CloudFrontPlanTier } from '../../contract/cloudfront-plans';
import { EdgeFirewall, enforcePlan, subscribe } from './edge-firewall';

export { PREVIEW_KEY_PREFIX, previewPath } from '../../contract/preview-path';

const PREVIEW_FUNCTION_FILE = path.join(path.dirname(VIEWER_REQUEST_FUNCTION_FILE), 'preview-viewer-request.js');

/**
 * The preview distribution's viewer-request code: the live site's function, its handler renamed
 * routeHandler, then preview-viewer-request.js, which maps /pr-N/<sha>/REST with it inside the prefix.
 */
export function previewViewerRequestCode(): string {
  const live = viewerRequestFunctionCode();
  const renamed = live.replace(/^function handler\(event\)/m, 'function routeHandler(event)');
  if (renamed === live) throw new Error(`${VIEWER_REQUEST_FUNCTION_FILE} has no top-level "function handler(event)" to reuse`);
  return `${renamed}\n${readFileSync(PREVIEW_FUNCTION_FILE, 'utf8')}`;
}

/**
 * The previews' viewer-response code. Every preview response says noindex (a preview is never a search
 * result), whatever its build says. On a plan without custom response-headers policies (Free) it also
 * sets the site's security headers, given as name → value (infra/shared/security-headers.ts), which a
 * response-headers policy sets otherwise. Header names are lower case in a function's event (Amazon
 * CloudFront Developer Guide, "CloudFront Functions event structure":
 * https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/functions-event-structure.html).
 */
export function previewViewerResponseCode(securityHeaders: Readonly<Record<string, string>> = {}): string {
  const headers = Object.fromEntries(Object.entries(securityHeaders).map(([name, value]) => [name.toLowerCase(), value]));
  return [
    `var SECURITY_HEADERS = ${JSON.stringify(headers)};`,
    'function handler(event) {',
    '  var response = event.response;',
    '  for (var name in SECURITY_HEADERS) response.headers[name] = { value: SECURITY_HEADERS[name] };',
    "  response.headers['x-robots-tag'] = { value: 'noindex, nofollow' };",
    '  return response;',
    '}',
  ].join('\n');
}

/**
 * Where pull-request previews live: one bucket and one distribution, created by main's deploy, never
 * by a branch. A pull request's workflow builds the site for its own path (PREVIEW_PATH=pr-N/<short sha>:
 * router basename, Vite base, contract/preview-path.ts) and uploads it under that prefix (immutable, so
 * nothing is ever invalidated) with the GitHub stack's preview role, which may put, delete and list
 * objects under `pr-` in this bucket and nothing else in the account. The distribution's viewer-request
 * function maps /pr-N/<sha>/REST with the live routing and keeps no state (preview-viewer-request.js), so
 * any number of previews work side by side in one browser. There is no /api/*: a preview's contact form
 * sends nothing (docs/deploy.md, "Previews").
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

/**
 * The page a direct load of a missing address gets, with status 404: one object at the bucket's root,
 * outside every pr-* prefix, written by main's deploy (the preview role cannot touch it). A distribution
 * has one custom error page for all its paths (Amazon CloudFront Developer Guide, "Custom error pages
 * and error caching": https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/DownloadDistValuesErrorPages.html),
 * so it cannot be each preview's own 404: it is plain HTML that says so and how to reach a preview.
 * No script (the CSP admits only the site's own inline scripts), no style, no asset to fetch.
 */
export const PREVIEW_NOT_FOUND_KEY = 'preview-not-found.html';
export const PREVIEW_NOT_FOUND_HTML = [
  '<!doctype html>',
  '<html lang="en">',
  '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
  '<meta name="robots" content="noindex"><title>Not a page of this preview</title></head>',
  '<body>',
  '<h1>Not a page of this preview</h1>',
  "<p>This address is not a page of this pull request's preview (or the preview has expired).</p>",
  "<p>Open the preview's home from the pull request's comment: its address ends in <code>/pr-N/&lt;commit&gt;/home</code>.",
  ' Inside a preview, its own links lead to its pages and to its own 404 page.</p>',
  '</body>',
  '</html>',
  '',
].join('\n');

/**
 * How long an edge keeps a missing address's answer: short, so a preview uploaded right after a
 * reviewer opened its address too early shows up within seconds.
 */
const NOT_FOUND_TTL = Duration.seconds(10);

export interface PreviewSiteProps {
  /**
   * The live site's security headers: previews get the very same ones, through its response-headers
   * policy where the plan allows one, else set by the viewer-response function from their values.
   */
  readonly headers: { readonly policy: cloudfront.IResponseHeadersPolicy; readonly values: Readonly<Record<string, string>> };
  /** The live site's cache policy for pages (each object's Cache-Control). */
  readonly cachePolicy: cloudfront.ICachePolicy;
  /**
   * The previews' plan tier (by default Free: contract/cloudfront-plans.ts, defaultPreviewPlan): previews
   * are a second distribution, so a second subscription with a web ACL of its own (a plan covers exactly
   * one distribution and one web ACL), or none on pay-as-you-go. A flood of GETs on a preview then costs
   * the plan's price and nothing more.
   */
  readonly plan: CloudFrontPlanTier;
}

export class PreviewSite extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly firewall?: EdgeFirewall;
  readonly subscription?: CfnSubscription;

  constructor(scope: Construct, id: string, props: PreviewSiteProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // Only previews, rebuilt from git at will; kept by `cdk destroy` like the site's bucket, and emptied by
    // `npm run destroy`. What a closed pull request's teardown missed expires.
    this.bucket = new s3.Bucket(this, 'Bucket', {
      ...builtFilesBucketProps([{ id: 'ExpirePreviews', prefix: PREVIEW_KEY_PREFIX, expiration: Duration.days(PREVIEW_EXPIRY_DAYS) }]),
      bucketName: previewBucketName(stack.stackName, stack.account, stack.region),
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Server access logs would only record CloudFront reading public preview builds and the preview workflow writing them.',
    });

    // Functions of its own (the live site's routing inside): nothing here changes the live function.
    const viewerRequest = new cloudfront.Function(this, 'ViewerRequest', {
      code: cloudfront.FunctionCode.fromInline(previewViewerRequestCode()),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'Previews: /pr-N/sha/projects -> /pr-N/sha/projects/index.html; anything outside a preview 404',
    });
    const headersByPolicy = CLOUDFRONT_PLANS[props.plan].allows.has('customResponseHeadersPolicy');
    const viewerResponse = new cloudfront.Function(this, 'ViewerResponse', {
      code: cloudfront.FunctionCode.fromInline(previewViewerResponseCode(headersByPolicy ? {} : props.headers.values)),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: headersByPolicy
        ? 'Previews: X-Robots-Tag noindex on every response'
        : "Previews: the site's security headers and X-Robots-Tag noindex",
    });
    // Origin access control for a second distribution on a second bucket (Amazon CloudFront Developer
    // Guide, "Restrict access to an Amazon S3 origin": https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/private-content-restricting-access-to-s3.html).
    const origin = origins.S3BucketOrigin.withOriginAccessControl(this.bucket, { originAccessLevels: [cloudfront.AccessLevel.READ] });
    if (props.plan !== 'payAsYouGo') this.firewall = new EdgeFirewall(this, 'Firewall', { api: false, metricPrefix: 'Previews' });
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Pull-request previews (${stack.stackName})`,
      webAclId: this.firewall?.webAcl.attrArn,
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
        responseHeadersPolicy: headersByPolicy ? props.headers.policy : undefined,
        functionAssociations: [
          { function: viewerRequest, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
          { function: viewerResponse, eventType: cloudfront.FunctionEventType.VIEWER_RESPONSE },
        ],
      },
      // S3 answers a missing key with 403 to a reader without ListBucket (the distribution reads objects
      // only): both become the not-found page, with 404. A link inside a preview never gets here: its
      // router shows the app's own 404 page under the preview's path. The viewer-request function lets
      // the page's own path through: Lambda@Edge's viewer-request trigger "doesn't execute ... when fetching
      // a custom error page" (Amazon CloudFront Developer Guide, "CloudFront events that can trigger a
      // Lambda@Edge function": https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/lambda-cloudfront-trigger-events.html),
      // and no page says the same of CloudFront Functions, so the function does not count on it.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 404,
        responsePagePath: `/${PREVIEW_NOT_FOUND_KEY}`,
        ttl: NOT_FOUND_TTL,
      })),
    });
    const ack = (findingId: string, reason: string) => Validations.of(this.distribution).acknowledge({ id: findingId, reason });
    ack(
      'AwsSolutions-CFR1',
      'Pull-request previews are read by the reviewers of the pull request, wherever they are; no country is blocked.',
    );
    if (!this.firewall) {
      ack(
        'AwsSolutions-CFR2',
        'Pay-as-you-go chosen on purpose (portfolio.cloudFrontPlan); static preview files only (no /api/*, GET and HEAD only).',
      );
    }
    ack('AwsSolutions-CFR3', "No access logs on the previews' distribution: they would store reviewers' IP addresses for no use.");
    ack('AwsSolutions-CFR4', 'Previews use the default *.cloudfront.net certificate, whose minimum TLS protocol CloudFront itself fixes.');
    enforcePlan(this.distribution, props.plan);
    if (this.firewall)
      this.subscription = subscribe(this, 'Plan', props.plan, { distribution: this.distribution, webAcl: this.firewall.webAcl });
    this.notFoundPage();
  }

  /**
   * The not-found page, written by main's deploy with the site deployment's own handler (the same
   * singleton function: DEPLOYMENT_HANDLER_SIZE). Never prunes: the bucket's pr-* keys are the previews'.
   */
  private notFoundPage(): void {
    new s3deploy.BucketDeployment(this, 'NotFoundPage', {
      ...DEPLOYMENT_HANDLER_SIZE,
      sources: [s3deploy.Source.data(PREVIEW_NOT_FOUND_KEY, PREVIEW_NOT_FOUND_HTML)],
      destinationBucket: this.bucket,
      prune: false,
      cacheControl: [s3deploy.CacheControl.fromString(cacheControlFor(PREVIEW_NOT_FOUND_KEY))],
      contentType: 'text/html; charset=utf-8',
      outputObjectKeys: false,
    });
    const stack = Stack.of(this);
    const bucket = `<${stack.getLogicalId(this.bucket.node.defaultChild as CfnElement)}.Arn>/*`;
    for (const handler of stack.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
      Validations.of(handler).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${bucket}]`,
        reason: "The deploy writes the previews' not-found page at the preview bucket's root; CDK grants the handler its objects.",
      });
    }
  }
}
