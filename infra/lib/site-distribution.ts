import { Annotations, Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { CfnSubscription } from 'aws-cdk-lib/aws-pricingplanmanager';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { viewerRequestFunctionCode } from '../cloudfront/viewer-request-loader';
import { createApiOriginRequestPolicy } from './api-origin-request-policy';
import { CLOUDFRONT_PLANS, type CloudFrontPlanTier } from '../../contract/cloudfront-plans';
import { EdgeFirewall, enforcePlan, subscribe } from './edge-firewall';
import { SPA_FALLBACK_FILE } from '../shared/build-output';
import { CLOUDFRONT_CSP_MAX_CHARS as CLOUDFRONT_CSP_MAX_LENGTH } from '../../contract/limits';
import {
  contentSecurityPolicy,
  type CspOptions,
  CUSTOM_HEADERS,
  FRAME_OPTIONS,
  HSTS,
  REFERRER_POLICY,
  securityHeaders,
} from '../shared/security-headers';

/** CloudFront's limit on the Content-Security-Policy value of a response-headers policy. */
export { CLOUDFRONT_CSP_MAX_LENGTH };
const ONE_YEAR = Duration.days(365);

export interface SiteDistributionProps {
  readonly bucket: s3.IBucket;
  readonly api: apigwv2.IHttpApi;
  /** Origins of an API on another host, if the configuration points the site there. */
  readonly extraConnectSources?: readonly string[];
  /** With a custom domain: its name and a us-east-1 certificate for it. */
  readonly domain?: { readonly domainName: string; readonly certificate: acm.ICertificate };
  /**
   * One existing cache policy for pages and assets instead of the two this construct creates. Previews
   * pass the managed CachingOptimized, so no preview counts against the account's cache policies.
   */
  readonly sharedCachePolicy?: cloudfront.ICachePolicy;
  /** The viewer-request function of /api/* that sets ORIGIN_VERIFY_HEADER (infra/lib/origin-secret.ts). */
  readonly apiViewerRequest?: cloudfront.IFunction;
  /**
   * The host CloudFront reaches the API by: the API's custom domain name when it has one (its default
   * execute-api endpoint then disabled: api-origin-domain.ts); else the execute-api host.
   */
  readonly apiOriginHost?: string;
  /** The key value store apiViewerRequest reads, put under the plan with the distribution. */
  readonly apiKeyValueStore?: cloudfront.IKeyValueStore;
  /**
   * How CloudFront bills the distribution (contract/cloudfront-plans.ts). A flat-rate tier brings a
   * subscription and its web ACL, and synth fails if the distribution uses what the tier does not allow.
   */
  readonly plan: CloudFrontPlanTier;
}

/**
 * The CDN in front of everything: the site from the private bucket through origin access
 * control, /api/* to the HTTP API uncached, the viewer-request function that maps routes to their
 * prerendered files, the shared security headers, and 404 alone mapped to the app's fallback page.
 */
export class SiteDistribution extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly viewerRequestFunction: cloudfront.Function;
  readonly headersPolicy: cloudfront.ResponseHeadersPolicy;
  /** The same security headers as name → value, for a distribution that sets them by function (previews on Free). */
  readonly securityHeaderValues: Readonly<Record<string, string>>;
  readonly pagesCachePolicy: cloudfront.ICachePolicy;
  readonly assetsCachePolicy: cloudfront.ICachePolicy;
  /** The plan's web ACL and subscription; none on pay-as-you-go. */
  readonly firewall?: EdgeFirewall;
  readonly subscription?: CfnSubscription;

  constructor(scope: Construct, id: string, props: SiteDistributionProps) {
    super(scope, id);

    this.viewerRequestFunction = new cloudfront.Function(this, 'ViewerRequest', {
      // The very code the local server runs (infra/local), so both decide paths the same way.
      code: cloudfront.FunctionCode.fromInline(viewerRequestFunctionCode()),
      // cloudfront-js-2.0 ("JavaScript runtime 2.0 features for CloudFront Functions"):
      // https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/functions-javascript-runtime-20.html
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'Routes to prerendered files: /projects/3 -> /projects/3/index.html; / -> 302 /home',
    });

    this.headersPolicy = securityHeadersPolicy(this, props);
    this.securityHeaderValues = securityHeaders(cspOptions(props));
    // Custom cache policies are Business and Premium only (contract/cloudfront-plans.ts). Below that, the
    // managed CachingOptimized ("Use managed cache policies", id 658327ea-…: https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/using-managed-cache-policies.html)
    // gives the same result but for one second: it keys on nothing, compresses (gzip, Brotli) and honours
    // each object's Cache-Control from 1 s to a year, so HTML (max-age=0, must-revalidate) is at most a
    // second stale and the content-hashed assets (immutable, a year) stay a year.
    const sharedCachePolicy =
      props.sharedCachePolicy ??
      (CLOUDFRONT_PLANS[props.plan].allows.has('customCachePolicy') ? undefined : cloudfront.CachePolicy.CACHING_OPTIMIZED);
    // Pages and other named files: the object's own Cache-Control rules (max-age=0, must-revalidate
    // for HTML, a day for the rest); min TTL 0 so a revalidation can reach the origin at once.
    this.pagesCachePolicy =
      sharedCachePolicy ??
      cachePolicy(
        this,
        'PagesCache',
        'Honours the Cache-Control of each object; HTML is revalidated',
        Duration.seconds(0),
        Duration.days(1),
      );
    // Content-hashed files never change under their name: a year at the edge, whatever happens.
    this.assetsCachePolicy =
      sharedCachePolicy ?? cachePolicy(this, 'AssetsCache', 'Content-hashed build assets: one year, immutable', ONE_YEAR, ONE_YEAR);
    if (props.plan !== 'payAsYouGo') this.firewall = new EdgeFirewall(this, 'Firewall', { api: true, metricPrefix: 'Site' });

    const siteOrigin = origins.S3BucketOrigin.withOriginAccessControl(props.bucket, {
      // LIST lets S3 answer 404 (not 403) for a missing key, which the 404 mapping below relies on.
      originAccessLevels: [cloudfront.AccessLevel.READ, cloudfront.AccessLevel.LIST],
    });
    const apiHost = props.apiOriginHost ?? Fn.select(2, Fn.split('/', props.api.apiEndpoint));
    const apiOrigin = new origins.HttpOrigin(apiHost, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Portfolio site (${Stack.of(this).stackName})`,
      webAclId: this.firewall?.webAcl.attrArn,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableIpv6: true,
      domainNames: props.domain ? [props.domain.domainName] : undefined,
      certificate: props.domain?.certificate,
      // Only meaningful with an own certificate; the *.cloudfront.net one is fixed by CloudFront.
      minimumProtocolVersion: props.domain ? cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      // The function already redirects "/" to /home; this keeps a bare "/" from ever listing the bucket.
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: siteOrigin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachedMethods: cloudfront.CachedMethods.CACHE_GET_HEAD,
        compress: true,
        cachePolicy: this.pagesCachePolicy,
        responseHeadersPolicy: this.headersPolicy,
        functionAssociations: [{ function: this.viewerRequestFunction, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        'assets/*': {
          origin: siteOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          compress: true,
          cachePolicy: this.assetsCachePolicy,
          responseHeadersPolicy: this.headersPolicy,
        },
        'api/*': {
          origin: apiOrigin,
          // A POST must not be redirected (browsers turn it into a GET): HTTPS only.
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          // The managed policy by aws-cdk-lib's constant, whose id is the one AWS lists ("Use managed cache
          // policies", CachingDisabled).
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // Exactly the headers the functions read, CloudFront-Viewer-Address included; never Host.
          originRequestPolicy: createApiOriginRequestPolicy(this, 'ApiOriginRequest'),
          responseHeadersPolicy: this.headersPolicy,
          compress: true,
          ...(props.apiViewerRequest
            ? { functionAssociations: [{ function: props.apiViewerRequest, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }] }
            : {}),
        },
      },
      // S3 answers 404 for a missing key only to a reader allowed s3:ListBucket, else 403 (Amazon S3 API
      // Reference, GetObject, Permissions: https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html).
      // 404 alone: a missing page gets the app's fallback with a real 404 status. 403 is never mapped,
      // so a permission fault shows as what it is instead of a fake page.
      errorResponses: [
        {
          httpStatus: 404,
          responseHttpStatus: 404,
          responsePagePath: `/${SPA_FALLBACK_FILE}`,
          ttl: Duration.seconds(60),
        },
      ],
    });

    acknowledgeDistribution(this.distribution, props.domain !== undefined, this.firewall !== undefined);
    enforcePlan(this.distribution, props.plan);
    if (this.firewall) {
      this.subscription = subscribe(this, 'Plan', props.plan, {
        distribution: this.distribution,
        webAcl: this.firewall.webAcl,
        keyValueStores: props.apiKeyValueStore ? [props.apiKeyValueStore] : [],
      });
    }
  }
}

function frameOption(value: string): cloudfront.HeadersFrameOption {
  const options: Record<string, cloudfront.HeadersFrameOption> = {
    DENY: cloudfront.HeadersFrameOption.DENY,
    SAMEORIGIN: cloudfront.HeadersFrameOption.SAMEORIGIN,
  };
  const option = options[value];
  if (!option) throw new Error(`X-Frame-Options "${value}" has no CloudFront equivalent`);
  return option;
}

function referrerPolicy(value: string): cloudfront.HeadersReferrerPolicy {
  const policy = Object.values(cloudfront.HeadersReferrerPolicy).find((p) => p === value);
  if (!policy) throw new Error(`Referrer-Policy "${value}" has no CloudFront equivalent`);
  return policy as cloudfront.HeadersReferrerPolicy;
}

/** The shared security headers (infra/shared/security-headers.ts), the CSP checked against CloudFront's limit. */
/** The options of the site's CSP: its API's origin when elsewhere, and every request upgraded to HTTPS. */
function cspOptions(props: SiteDistributionProps): CspOptions {
  return { extraConnectSources: props.extraConnectSources, upgradeInsecureRequests: true };
}

function securityHeadersPolicy(scope: Construct, props: SiteDistributionProps): cloudfront.ResponseHeadersPolicy {
  // From source only (constant inline-script hashes), never from the build: byte-identical across
  // content deploys, and its length does not grow with pages.
  const csp = contentSecurityPolicy(cspOptions(props));
  if (csp.length > CLOUDFRONT_CSP_MAX_LENGTH) {
    throw new Error(
      `The Content-Security-Policy is ${csp.length} characters; CloudFront accepts at most ${CLOUDFRONT_CSP_MAX_LENGTH}. ` +
        'Fewer extra connect sources or constant inline scripts (web/boot/generate.ts) bring it under the limit.',
    );
  }
  return new cloudfront.ResponseHeadersPolicy(scope, 'SecurityHeaders', {
    comment: 'Security headers from infra/shared/security-headers.ts (the local server sends the same)',
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: csp, override: true },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(HSTS.maxAgeSeconds),
        includeSubdomains: HSTS.includeSubdomains,
        preload: HSTS.preload,
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: frameOption(FRAME_OPTIONS), override: true },
      referrerPolicy: { referrerPolicy: referrerPolicy(REFERRER_POLICY), override: true },
    },
    customHeadersBehavior: {
      customHeaders: Object.entries(CUSTOM_HEADERS).map(([header, value]) => ({ header, value, override: true })),
    },
    removeHeaders: ['Server'],
  });
}

/** A cache policy keyed on the path alone (no query string, header or cookie), compressed responses cached apart. */
function cachePolicy(scope: Construct, id: string, comment: string, minTtl: Duration, defaultTtl: Duration): cloudfront.CachePolicy {
  return new cloudfront.CachePolicy(scope, id, {
    comment,
    minTtl,
    defaultTtl,
    maxTtl: ONE_YEAR,
    enableAcceptEncodingGzip: true,
    enableAcceptEncodingBrotli: true,
    queryStringBehavior: cloudfront.CacheQueryStringBehavior.none(),
    headerBehavior: cloudfront.CacheHeaderBehavior.none(),
    cookieBehavior: cloudfront.CacheCookieBehavior.none(),
  });
}

/** What the distribution leaves out on purpose, each with its reason, for cdk-nag and the CDK's warnings. */
function acknowledgeDistribution(distribution: cloudfront.Distribution, hasDomain: boolean, hasWebAcl: boolean): void {
  Annotations.of(distribution).acknowledgeWarning(
    '@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
    'LIST is granted so missing keys answer 404 (not 403, which would hide unknown paths); the bucket holds only public build output, ' +
      'defaultRootObject is set and the viewer-request function never forwards a bare "/".',
  );
  const ack = (id: string, reason: string) => Validations.of(distribution).acknowledge({ id, reason });
  ack('AwsSolutions-CFR1', 'A public portfolio is meant for visitors from every country; there is no legal reason to block any.');
  // On a flat-rate plan the web ACL is there (edge-firewall.ts) and the finding does not arise.
  if (!hasWebAcl) {
    ack(
      'AwsSolutions-CFR2',
      'Pay-as-you-go was chosen on purpose (portfolio.cloudFrontPlan): there a WAF bills its web ACL, rules and ' +
        'requests; /api/* is throttled per route, counted per address by the functions and capped by the breakers.',
    );
  }
  ack(
    'AwsSolutions-CFR3',
    'No CloudFront access logs on purpose: they would store every visitor IP address, which the privacy policy ' +
      'does not announce; traffic figures come from CloudFront metrics and the click-event dashboard.',
  );
  if (!hasDomain) {
    ack(
      'AwsSolutions-CFR4',
      'Without a custom domain the site uses the default *.cloudfront.net certificate, whose minimum protocol ' +
        'CloudFront fixes; with domain configured the distribution enforces TLSv1.2_2021.',
    );
  }
}
