/**
 * The live stack on a CloudFront flat-rate plan (us-east-1, the default tier): both distributions
 * subscribed, each with its web ACL, the per-address rule on /api/*, only managed cache policies, and
 * the security headers still on every behaviour and on the error page; and a synth that refuses a
 * feature the chosen tier does not allow.
 */
import { App, Stack } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import vm from 'node:vm';
import { DEFAULT_CLOUDFRONT_PLAN, defaultPreviewPlan } from '../../contract/cloudfront-plans';
import { EDGE_RATE_RULE } from '../../contract/edge-rate-rule';
import { ConfigError } from '../config/portfolio-config';
import { CLOUDFRONT_PLAN_FAMILY, MANAGED_RULE_GROUPS, RATE_RULE_NAME, distributionUsage, enforcePlan, planProblems } from './edge-firewall';
import { fixtureConfig, type Json, synthPortfolio, type Synthesized, undeployableTypes } from './testing';
import { STACK_OUTPUT_KEYS } from '../shared/stack-output-keys';
import { scratchDir } from '../../tools/scratch';

let synth: Synthesized;
let resources: Record<string, Json>;

const ofType = (type: string): [string, Json][] => Object.entries(resources).filter(([, r]) => r.Type === type);
const live = (type: string): [string, Json] => {
  const found = ofType(type).filter(([id]) => !id.startsWith('Previews'));
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const previews = (type: string): [string, Json] => {
  const found = ofType(type).filter(([id]) => id.startsWith('Previews'));
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
/** CachingOptimized's id ("Use managed cache policies": https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/using-managed-cache-policies.html). */
const CACHING_OPTIMIZED_ID = '658327ea-f89d-4fab-a63d-7e88639e58f6';

beforeAll(() => {
  // No cloudFrontPlan key: the default tier, as an owner who never changed it gets.
  synth = synthPortfolio(fixtureConfig({ region: 'us-east-1', cloudFrontPlan: undefined }));
  resources = synth.template.toJSON().Resources;
}, 120_000);

describe('the live distribution on the default plan', () => {
  it('holds only resource types the production deploy accepts (the subscriptions and web ACLs among them)', () => {
    expect(undeployableTypes(synth.template)).toEqual([]);
  });

  it('is subscribed, with its web ACL and the store its /api/* function reads, on the default tier', () => {
    expect(DEFAULT_CLOUDFRONT_PLAN).toBe('pro');
    const [distributionId] = live('AWS::CloudFront::Distribution');
    const [aclId] = live('AWS::WAFv2::WebACL');
    const [storeId] = live('AWS::CloudFront::KeyValueStore');
    const [, subscription] = live('AWS::PricingPlanManager::Subscription');
    expect(subscription.Properties.PlanFamily).toBe(CLOUDFRONT_PLAN_FAMILY);
    expect(subscription.Properties.PlanTier).toBe('PRO');
    const arns = JSON.stringify(subscription.Properties.ResourceArns);
    expect(arns).toContain(distributionId);
    expect(arns).toContain(aclId);
    expect(arns).toContain(storeId);
    expect(subscription.Properties.ResourceArns).toHaveLength(3);
  });

  it('outputs both subscriptions (for the approval npm run deploy explains) and no execute-api address', () => {
    const outputs = synth.template.toJSON().Outputs as Record<string, Json>;
    const [siteSubscription] = live('AWS::PricingPlanManager::Subscription');
    const [previewSubscription] = previews('AWS::PricingPlanManager::Subscription');
    expect(outputs[STACK_OUTPUT_KEYS.sitePlan]!.Value).toEqual({ 'Fn::GetAtt': [siteSubscription, 'Arn'] });
    expect(outputs[STACK_OUTPUT_KEYS.previewPlan]!.Value).toEqual({ 'Fn::GetAtt': [previewSubscription, 'Arn'] });
    expect(outputs.ApiUrl).toBeUndefined();
    expect(JSON.stringify(outputs)).not.toMatch(/execute-api|ApiEndpoint/);
  });

  it('is associated with a CLOUDFRONT web ACL that blocks one address past the limit on /api/* only', () => {
    const [aclId, acl] = live('AWS::WAFv2::WebACL');
    const [, distribution] = live('AWS::CloudFront::Distribution');
    expect(distribution.Properties.DistributionConfig.WebACLId).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(acl.Properties.Scope).toBe('CLOUDFRONT');
    expect(acl.Properties.DefaultAction).toEqual({ Allow: {} });
    expect(acl.Properties.Description).toMatch(/^[\w/,. -]+$/);
    const rate = acl.Properties.Rules.find((r: Json) => r.Name === RATE_RULE_NAME);
    expect(rate.Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: EDGE_RATE_RULE.limit,
      EvaluationWindowSec: EDGE_RATE_RULE.evaluationWindowSeconds,
      ScopeDownStatement: {
        ByteMatchStatement: {
          FieldToMatch: { UriPath: {} },
          PositionalConstraint: 'STARTS_WITH',
          SearchString: '/api/',
          TextTransformations: [{ Priority: 0, Type: 'NONE' }],
        },
      },
    });
    expect(rate.Action.Block.CustomResponse.ResponseCode).toBe(EDGE_RATE_RULE.blockStatus);
    // The 429 carries the security headers too.
    const headers = Object.fromEntries(rate.Action.Block.CustomResponse.ResponseHeaders.map((h: Json) => [h.Name, h.Value]));
    expect(headers).toMatchObject({
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
      'Strict-Transport-Security': 'max-age=63072000; includeSubDomains; preload',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'Cross-Origin-Opener-Policy': 'same-origin',
    });
    expect(headers['Permissions-Policy']).toContain('camera=()');
    const managed = acl.Properties.Rules.filter((r: Json) => r.Statement.ManagedRuleGroupStatement).map(
      (r: Json) => r.Statement.ManagedRuleGroupStatement.Name,
    );
    expect(managed).toEqual([...MANAGED_RULE_GROUPS]);
    const priorities = acl.Properties.Rules.map((r: Json) => r.Priority);
    expect(new Set(priorities).size).toBe(priorities.length);
    // Sampled requests would keep visitors' addresses.
    for (const rule of acl.Properties.Rules) expect(rule.VisibilityConfig.SampledRequestsEnabled).toBe(false);
  });

  it('uses managed cache policies only, and keeps the security headers on every behaviour and the error page', () => {
    expect(ofType('AWS::CloudFront::CachePolicy')).toEqual([]);
    const [, distribution] = live('AWS::CloudFront::Distribution');
    const config = distribution.Properties.DistributionConfig;
    const behaviors: Json[] = [config.DefaultCacheBehavior, ...config.CacheBehaviors];
    const [headersId] = live('AWS::CloudFront::ResponseHeadersPolicy');
    for (const behavior of behaviors) {
      expect(behavior.ResponseHeadersPolicyId, behavior.PathPattern ?? 'default').toEqual({ Ref: headersId });
      expect(typeof behavior.CachePolicyId, behavior.PathPattern ?? 'default').toBe('string');
    }
    expect(config.DefaultCacheBehavior.CachePolicyId).toBe(CACHING_OPTIMIZED_ID);
    // The error page is a response of the default behaviour, so its headers policy applies to it.
    expect(config.CustomErrorResponses).toEqual([expect.objectContaining({ ErrorCode: 404, ResponseCode: 404 })]);
  });

  it('no longer acknowledges the missing WAF to cdk-nag (the finding does not arise)', () => {
    const acks = (s: Synthesized) => JSON.stringify(s.stacks.main.cdn.distribution.node.metadata);
    expect(acks(synth)).not.toContain('AwsSolutions-CFR2');
    expect(acks(synthPortfolio(fixtureConfig({ cloudFrontPlan: 'payAsYouGo' })))).toContain('AwsSolutions-CFR2');
  });
});

describe('the previews distribution on the Free plan', () => {
  it('has its own subscription and web ACL (managed protections, no /api/* rule)', () => {
    const [distributionId] = previews('AWS::CloudFront::Distribution');
    const [aclId, acl] = previews('AWS::WAFv2::WebACL');
    const [, subscription] = previews('AWS::PricingPlanManager::Subscription');
    expect(defaultPreviewPlan(DEFAULT_CLOUDFRONT_PLAN)).toBe('free');
    expect(subscription.Properties.PlanTier).toBe('FREE');
    expect(JSON.stringify(subscription.Properties.ResourceArns)).toContain(distributionId);
    expect(JSON.stringify(subscription.Properties.ResourceArns)).toContain(aclId);
    expect(acl.Properties.Rules.map((r: Json) => r.Name)).toEqual([...MANAGED_RULE_GROUPS]);
  });

  it("sets the site's security headers by its viewer-response function, with no response-headers policy", async () => {
    const [, distribution] = previews('AWS::CloudFront::Distribution');
    const behavior = distribution.Properties.DistributionConfig.DefaultCacheBehavior;
    expect(behavior.ResponseHeadersPolicyId).toBeUndefined();
    expect(behavior.CachePolicyId).toBe(CACHING_OPTIMIZED_ID);
    const [, fn] = ofType('AWS::CloudFront::Function').find(([id]) => id.startsWith('PreviewsViewerResponse'))!;
    const code: string = fn.Properties.FunctionCode;
    expect(Buffer.byteLength(code, 'utf8')).toBeLessThan(10 * 1024);
    // Run as CloudFront runs it: a plain script whose handler gets the response event.
    const sandbox: { handler?: (event: Json) => Json } = {};
    vm.runInNewContext(`${code}\nthis.handler = handler;`, sandbox);
    const response = sandbox.handler!({ response: { statusCode: 200, headers: { 'content-type': { value: 'text/html' } } } });
    const expected = Object.fromEntries(
      Object.entries(synth.stacks.main.cdn.securityHeaderValues).map(([name, value]) => [name.toLowerCase(), { value }]),
    );
    expect(response.headers).toEqual({
      ...expected,
      'content-type': { value: 'text/html' },
      'x-robots-tag': { value: 'noindex, nofollow' },
    });
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(['content-security-policy', 'strict-transport-security']));
  });

  it('on a plan that allows it, shares the live response-headers policy instead (previewCloudFrontPlan)', () => {
    const pro = synthPortfolio(fixtureConfig({ region: 'us-east-1', cloudFrontPlan: 'pro', previewCloudFrontPlan: 'pro' }));
    const configs = Object.entries(pro.template.findResources('AWS::CloudFront::Distribution')).map(
      ([id, d]) => [id, d.Properties.DistributionConfig] as const,
    );
    const preview = configs.find(([id]) => id.startsWith('Previews'))![1];
    const site = configs.find(([id]) => !id.startsWith('Previews'))![1];
    expect(preview.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual(site.DefaultCacheBehavior.ResponseHeadersPolicyId);
    const tiers = Object.values(pro.template.findResources('AWS::PricingPlanManager::Subscription')).map((s) => s.Properties.PlanTier);
    expect(tiers).toEqual(['PRO', 'PRO']);
  }, 120_000);
});

describe('a stage and pay-as-you-go', () => {
  it('a stage gets no plan (pay-as-you-go) even when the live site has one', () => {
    const stage = synthPortfolio(fixtureConfig({ region: 'us-east-1', cloudFrontPlan: 'pro', stage: 'staging' }));
    expect(Object.keys(stage.template.findResources('AWS::PricingPlanManager::Subscription'))).toEqual([]);
    expect(Object.keys(stage.template.findResources('AWS::WAFv2::WebACL'))).toEqual([]);
  }, 120_000);

  it('previews can be put on pay-as-you-go apart from the site (previewCloudFrontPlan)', () => {
    const apart = synthPortfolio(fixtureConfig({ region: 'us-east-1', cloudFrontPlan: 'pro', previewCloudFrontPlan: 'payAsYouGo' }));
    const subscriptions = Object.keys(apart.template.findResources('AWS::PricingPlanManager::Subscription'));
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).not.toMatch(/^Previews/);
    expect(Object.keys(apart.template.findResources('AWS::WAFv2::WebACL')).filter((id) => id.startsWith('Previews'))).toEqual([]);
    expect(JSON.stringify(apart.stacks.main.previews!.distribution.node.metadata)).toContain('AwsSolutions-CFR2');
  }, 120_000);

  it('refuses, at synth, a plan outside us-east-1 with a way out, and an unknown tier at once', () => {
    expect(() => synthPortfolio(fixtureConfig({ region: 'eu-west-1', cloudFrontPlan: 'pro' }))).toThrow(
      /needs portfolio.region "us-east-1".*payAsYouGo/,
    );
    expect(() => fixtureConfig({ cloudFrontPlan: 'gold' })).toThrow(ConfigError);
    expect(() => fixtureConfig({ cloudFrontPlan: 'gold' })).toThrow(
      /"gold" is not one of "payAsYouGo", "free", "pro", "business", "premium"/,
    );
  });
});

describe('a feature the tier does not allow', () => {
  const distributionWith = (build: (stack: Stack, bucket: s3.Bucket) => cloudfront.BehaviorOptions) => {
    const stack = new Stack(new App({ outdir: scratchDir('cdk.out-') }), 'T', { env: { region: 'us-east-1', account: '123456789012' } });
    const bucket = new s3.Bucket(stack, 'B');
    return new cloudfront.Distribution(stack, 'D', { defaultBehavior: build(stack, bucket) });
  };

  it('fails synth, naming the feature and the tier that allows it', () => {
    const distribution = distributionWith((stack, bucket) => ({
      origin: origins.S3BucketOrigin.withOriginAccessControl(bucket),
      cachePolicy: new cloudfront.CachePolicy(stack, 'Custom', { defaultTtl: undefined }),
    }));
    enforcePlan(distribution, 'pro');
    const errors = distribution.node.validate();
    expect(errors.join('\n')).toMatch(/Pro plan does not allow customCachePolicy.*"business"/);
  });

  it('sees a custom response-headers policy, a function reading a store, and counts behaviours', () => {
    const distribution = distributionWith((stack, bucket) => {
      const store = new cloudfront.KeyValueStore(stack, 'S');
      const fn = new cloudfront.Function(stack, 'F', {
        code: cloudfront.FunctionCode.fromInline('function handler(e) { return e.request; }'),
        runtime: cloudfront.FunctionRuntime.JS_2_0,
        keyValueStore: store,
      });
      return {
        origin: origins.S3BucketOrigin.withOriginAccessControl(bucket),
        responseHeadersPolicy: new cloudfront.ResponseHeadersPolicy(stack, 'H', { removeHeaders: ['Server'] }),
        functionAssociations: [{ function: fn, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      };
    });
    const usage = distributionUsage(distribution);
    expect([...usage.features].sort()).toEqual(['cloudFrontFunction', 'customResponseHeadersPolicy', 'keyValueStore']);
    expect(usage.cacheBehaviors).toBe(1);
    expect(planProblems('free', usage).join('\n')).toMatch(/Free plan does not allow customResponseHeadersPolicy.*"pro"/);
    expect(planProblems('pro', usage)).toEqual([]);
    expect(planProblems('free', { features: new Set(), cacheBehaviors: 6 })).toEqual([
      expect.stringMatching(/allows 5 cache behaviours; the distribution has 6/),
    ]);
  });

  it('the live site itself does not fit the Free plan, and synth says so', () => {
    expect(() => synthPortfolio(fixtureConfig({ region: 'us-east-1', cloudFrontPlan: 'free' }))).toThrow(
      /Free plan does not allow customOriginRequestPolicy, customResponseHeadersPolicy/,
    );
  }, 120_000);
});
