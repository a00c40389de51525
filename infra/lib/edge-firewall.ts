import { Stack } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as pricingplanmanager from 'aws-cdk-lib/aws-pricingplanmanager';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import {
  CLOUDFRONT_PLANS,
  type CloudFrontPlanTier,
  type DistributionFeature,
  disallowedFeatures,
  cheapestTierFor,
} from '../../contract/cloudfront-plans';
import { EDGE_RATE_RULE, assertWafAcceptsRateRule } from '../../contract/edge-rate-rule';
import { securityHeaders } from '../shared/security-headers';

/**
 * The headers of the web ACL's 429: the site's security headers, the CSP narrowed to what an empty body
 * needs (nothing), so a blocked answer carries them whether or not CloudFront adds its response-headers
 * policy to an answer the WAF made.
 */
export function blockedResponseHeaders(): Record<string, string> {
  return { ...securityHeaders(), 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'" };
}

/**
 * AWS managed rule groups the web ACL runs, each a baseline group AWS lists under "Baseline rule
 * groups" / "IP reputation rule groups" (AWS WAF Developer Guide, "AWS Managed Rules rule groups list":
 * https://docs.aws.amazon.com/waf/latest/developerguide/aws-managed-rule-groups-list.html):
 * - AWSManagedRulesAmazonIpReputationList: addresses Amazon's threat intelligence marks as bots or
 *   attackers;
 * - AWSManagedRulesKnownBadInputsRuleSet: request patterns of known exploits (Log4j and the like).
 * Not the Core rule set: its SizeRestrictions_BODY rule blocks bodies over 8 KB, and a contact message
 * may be up to CONTACT_MAX_BODY_BYTES (32 KB, contract/limits.ts).
 */
export const MANAGED_RULE_GROUPS = ['AWSManagedRulesAmazonIpReputationList', 'AWSManagedRulesKnownBadInputsRuleSet'] as const;

/** The rate rule's name in the web ACL (and its CloudWatch metric). */
export const RATE_RULE_NAME = 'ApiPerViewerAddress';

/**
 * PricingPlanManager's plan family for CloudFront ("Currently, CloudFront is the only supported plan
 * family": https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-pricingplanmanager-subscription.html).
 */
export const CLOUDFRONT_PLAN_FAMILY = 'CloudFront';

export interface EdgeFirewallProps {
  /** Whether the distribution has /api/*: only then is the per-address rate rule there. */
  readonly api: boolean;
  /** A short name for the web ACL's metrics ("Site", "Previews"). */
  readonly metricPrefix: string;
}

/**
 * The web ACL a flat-rate plan includes (scope CLOUDFRONT): AWS managed protections, and, with an API,
 * the per-address rate rule on /api/* (contract/edge-rate-rule.ts). A request it blocks never reaches
 * the origin, and on a plan it counts neither against the allowance nor the bill (Developer Guide,
 * "CloudFront flat-rate pricing plans": https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/flat-rate-pricing-plan.html).
 * A CLOUDFRONT-scope web ACL is created in us-east-1 only (AWS WAF Developer Guide, "Using AWS WAF with
 * Amazon CloudFront": https://docs.aws.amazon.com/waf/latest/developerguide/cloudfront-features.html),
 * which portfolio-config.ts requires of a stack on a plan.
 */
export class EdgeFirewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeFirewallProps) {
    super(scope, id);
    const visibility = (name: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName: `${props.metricPrefix}${name}`,
      // No sampled requests: they would keep viewers' addresses, which the privacy policy does not announce.
      sampledRequestsEnabled: false,
    });
    const rules: wafv2.CfnWebACL.RuleProperty[] = [];
    if (props.api) rules.push(apiRateRule(visibility));
    MANAGED_RULE_GROUPS.forEach((name, index) =>
      rules.push({
        name,
        priority: rules.length + index,
        statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
        overrideAction: { none: {} },
        visibilityConfig: visibility(name),
      }),
    );
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      // Letters, digits, spaces and / - , . only: the characters a WAF description surely takes.
      description: props.api
        ? `Per-address limit on ${EDGE_RATE_RULE.pathPrefix}, ${EDGE_RATE_RULE.limit} requests per ${EDGE_RATE_RULE.evaluationWindowSeconds} s, and AWS managed protections`
        : 'AWS managed protections',
      visibilityConfig: visibility('WebAcl'),
      rules,
    });
  }
}

/**
 * Blocks, per viewer address, the requests to /api/* past EDGE_RATE_RULE.limit within its window. The
 * scope-down statement keeps every other path out of the count ("Using scope-down statements in
 * rate-based rules": https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based-request-limiting.html);
 * aggregation IP is the address CloudFront received the request from, not a header a client can set.
 */
function apiRateRule(visibility: (name: string) => wafv2.CfnWebACL.VisibilityConfigProperty): wafv2.CfnWebACL.RuleProperty {
  assertWafAcceptsRateRule(EDGE_RATE_RULE);
  return {
    name: RATE_RULE_NAME,
    priority: 0,
    statement: {
      rateBasedStatement: {
        aggregateKeyType: 'IP',
        limit: EDGE_RATE_RULE.limit,
        evaluationWindowSec: EDGE_RATE_RULE.evaluationWindowSeconds,
        scopeDownStatement: {
          byteMatchStatement: {
            fieldToMatch: { uriPath: {} },
            positionalConstraint: 'STARTS_WITH',
            searchString: EDGE_RATE_RULE.pathPrefix,
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        },
      },
    },
    action: {
      block: {
        customResponse: {
          responseCode: EDGE_RATE_RULE.blockStatus,
          responseHeaders: Object.entries(blockedResponseHeaders()).map(([name, value]) => ({ name, value })),
        },
      },
    },
    visibilityConfig: visibility(RATE_RULE_NAME),
  };
}

/**
 * The distribution's flat-rate subscription: "exactly one Amazon CloudFront distribution and exactly
 * one AWS WAF web ACL", and the key value store its function reads, so the store's reads are the plan's
 * too (PricingPlanManager API Reference, CreateSubscription:
 * https://docs.aws.amazon.com/pricingplanmanager/latest/APIReference/API_CreateSubscription.html).
 * A paid tier starts in PENDING_APPROVAL and bills nothing until approved; see docs/deploy.md.
 */
export function subscribe(
  scope: Construct,
  id: string,
  tier: CloudFrontPlanTier,
  resources: { distribution: cloudfront.Distribution; webAcl: wafv2.CfnWebACL; keyValueStores?: readonly cloudfront.IKeyValueStore[] },
): pricingplanmanager.CfnSubscription {
  const planTier = CLOUDFRONT_PLANS[tier].planTier;
  if (!planTier) throw new Error(`"${tier}" is not a flat-rate plan: nothing to subscribe to.`);
  return new pricingplanmanager.CfnSubscription(scope, id, {
    planFamily: CLOUDFRONT_PLAN_FAMILY,
    planTier,
    resourceArns: [
      resources.distribution.distributionArn,
      resources.webAcl.attrArn,
      ...(resources.keyValueStores ?? []).map((store) => store.keyValueStoreArn),
    ],
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- resolved CloudFormation JSON
type Json = Record<string, any>;

/** What a distribution's template uses, in the plans' terms, and how many cache behaviours it has. */
export interface DistributionUsage {
  readonly features: ReadonlySet<DistributionFeature>;
  readonly cacheBehaviors: number;
}

/**
 * Reads the distribution's synthesized configuration: a policy id that is a plain string is an
 * AWS-managed policy (their ids are fixed), anything else (a Ref to a policy of this stack, an
 * imported id) counts as custom.
 */
export function distributionUsage(distribution: cloudfront.Distribution): DistributionUsage {
  const stack = Stack.of(distribution);
  const cfn = distribution.node.defaultChild as cloudfront.CfnDistribution;
  const config = stack.resolve(cfn.distributionConfig) as Json;
  const behaviors: Json[] = [
    config.defaultCacheBehavior ?? config.DefaultCacheBehavior,
    ...(config.cacheBehaviors ?? config.CacheBehaviors ?? []),
  ].filter(Boolean);
  const features = new Set<DistributionFeature>();
  const custom = (id: unknown) => id !== undefined && typeof id !== 'string';
  const functionsById = cloudFrontFunctions(stack);
  for (const behavior of behaviors) {
    if (custom(behavior.cachePolicyId)) features.add('customCachePolicy');
    if (custom(behavior.originRequestPolicyId)) features.add('customOriginRequestPolicy');
    if (custom(behavior.responseHeadersPolicyId)) features.add('customResponseHeadersPolicy');
    if (behavior.forwardedValues) features.add('forwardedValues');
    if (behavior.lambdaFunctionAssociations?.length) features.add('lambdaEdge');
    if (behavior.realtimeLogConfigArn) features.add('realtimeLogs');
    for (const association of behavior.functionAssociations ?? []) {
      features.add('cloudFrontFunction');
      const logicalId = association.functionArn?.['Fn::GetAtt']?.[0] as string | undefined;
      const fn = logicalId === undefined ? undefined : functionsById.get(logicalId);
      // A function this walk cannot see into might read a store: counted as one, so the check fails closed.
      if (!fn || fn.functionConfig?.keyValueStoreAssociations?.length) features.add('keyValueStore');
    }
  }
  for (const origin of config.origins ?? []) {
    if (origin.s3OriginConfig?.originAccessIdentity) features.add('originAccessIdentity');
  }
  return { features, cacheBehaviors: behaviors.length };
}

function cloudFrontFunctions(stack: Stack): Map<string, Json> {
  const found = new Map<string, Json>();
  for (const child of stack.node.findAll()) {
    if (child instanceof cloudfront.CfnFunction)
      found.set(stack.getLogicalId(child), { functionConfig: stack.resolve(child.functionConfig) as Json });
  }
  return found;
}

/** Problems that keep the distribution off the tier: empty when it qualifies. */
export function planProblems(tier: CloudFrontPlanTier, usage: DistributionUsage): string[] {
  const plan = CLOUDFRONT_PLANS[tier];
  const problems: string[] = [];
  const refused = disallowedFeatures(tier, usage.features);
  if (refused.length > 0) {
    const fits = cheapestTierFor(usage.features);
    problems.push(
      `The CloudFront ${plan.label} plan does not allow ${refused.join(', ')} (Developer Guide, "Features by pricing plan tier": ` +
        'https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/pricing-plans.html). ' +
        (fits ? `Choose portfolio.cloudFrontPlan "${fits}" or above, ` : 'No flat-rate plan allows it: ') +
        'choose "payAsYouGo", or change the distribution.',
    );
  }
  if (plan.maxCacheBehaviors !== undefined && usage.cacheBehaviors > plan.maxCacheBehaviors) {
    problems.push(
      `The CloudFront ${plan.label} plan allows ${plan.maxCacheBehaviors} cache behaviours; the distribution has ${usage.cacheBehaviors}.`,
    );
  }
  return problems;
}

/** Fails synth, naming each feature, when the distribution uses what its tier does not allow. */
export function enforcePlan(distribution: cloudfront.Distribution, tier: CloudFrontPlanTier): void {
  distribution.node.addValidation({ validate: () => planProblems(tier, distributionUsage(distribution)) });
}
