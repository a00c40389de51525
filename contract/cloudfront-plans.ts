/**
 * How the live distribution is billed: one of CloudFront's flat-rate plans, or pay-as-you-go chosen on
 * purpose. One table for the stack (which subscribes the distribution and refuses, at synth, a feature
 * the chosen tier does not allow), `npm run setup` (which states each tier's price and allowance) and
 * the docs.
 *
 * What the plans are, read on AWS's pages:
 * - CloudFront sells flat-rate plans per distribution since 2025-11-18, Free, Pro, Business and Premium,
 *   that never bill overage; past the allowance AWS may slow the site instead, and requests the WAF
 *   blocks do not count against it (Amazon CloudFront Developer Guide, "CloudFront flat-rate pricing
 *   plans": https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/flat-rate-pricing-plan.html,
 *   and the CloudFront pricing page: https://aws.amazon.com/cloudfront/pricing/).
 * - A subscription is the CloudFormation resource AWS::PricingPlanManager::Subscription: "The service
 *   creates paid-tier subscriptions in PENDING_APPROVAL status. Billing does not start until you approve
 *   the subscription through a separate ApprovePaidSubscription API call [...] The service activates
 *   free-tier subscriptions immediately", and a stack update cannot change the tier
 *   (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-pricingplanmanager-subscription.html).
 * - Its tier names are FREE, PRO, BUSINESS and PREMIUM, and a CloudFront subscription's resources are
 *   "exactly one Amazon CloudFront distribution and exactly one AWS WAF web ACL", plus optionally
 *   "CloudFront KeyValueStores" (PricingPlanManager API Reference, CreateSubscription:
 *   https://docs.aws.amazon.com/pricingplanmanager/latest/APIReference/API_CreateSubscription.html).
 * - Features by tier: the Developer Guide's "Features by pricing plan tier"
 *   (https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/pricing-plans.html). Custom
 *   cache policies ("custom caching rules") are Business and Premium only; Free and Pro have the
 *   AWS-managed ones. Cache behaviours per distribution: Free 5, Pro 10, Business 50, Premium 100.
 *   No plan allows Lambda@Edge, legacy ForwardedValues, an origin access identity or real-time logs.
 *   The policies other than cache policies: this repository's earlier reading of that page has Free
 *   without custom origin-request and response-headers policies, and AWS's own starter kit
 *   (aws-samples/serverless-full-stack-webapp-starter-kit, issue 187, "confirmed in the AWS docs") lists
 *   custom cache policies, and no other policy, among what Free and Pro lack; so Free is refused them and
 *   Pro allowed.
 *
 * A guard built on this table refuses a feature at synth. Should AWS refuse more than the table says,
 * CloudFormation fails the subscription at deploy and the stack rolls back: nothing runs unprotected.
 */

/** The tiers as CloudFormation's PlanTier names them, plus pay-as-you-go (no subscription at all). */
export const CLOUDFRONT_PLAN_TIERS = ['payAsYouGo', 'free', 'pro', 'business', 'premium'] as const;
export type CloudFrontPlanTier = (typeof CLOUDFRONT_PLAN_TIERS)[number];
export type FlatRateTier = Exclude<CloudFrontPlanTier, 'payAsYouGo'>;

/** What the distribution may use; the stack's synth-time check maps its configuration onto these. */
export type DistributionFeature =
  | 'customCachePolicy'
  | 'customOriginRequestPolicy'
  | 'customResponseHeadersPolicy'
  | 'cloudFrontFunction'
  | 'keyValueStore'
  | 'lambdaEdge'
  | 'forwardedValues'
  | 'originAccessIdentity'
  | 'realtimeLogs';

export interface CloudFrontPlan {
  readonly tier: CloudFrontPlanTier;
  /** How setup and the docs name it. */
  readonly label: string;
  /** PricingPlanManager's PlanTier value; undefined for pay-as-you-go. */
  readonly planTier?: 'FREE' | 'PRO' | 'BUSINESS' | 'PREMIUM';
  /** US dollars a month, whatever the traffic; undefined for pay-as-you-go (it grows with traffic). */
  readonly monthlyUsd?: number;
  /** Requests a month the plan includes (WAF-blocked ones do not count); past it AWS may slow the site. */
  readonly monthlyRequests?: number;
  /** Data transfer a month the plan includes, in GB (decimal, as AWS states it). */
  readonly monthlyDataGb?: number;
  /** Cache behaviours one distribution may have on this plan. */
  readonly maxCacheBehaviors?: number;
  /** Features this tier allows; pay-as-you-go allows them all. */
  readonly allows: ReadonlySet<DistributionFeature>;
  /** True when AWS bills nothing until an ApprovePaidSubscription call (the paid tiers). */
  readonly needsApproval: boolean;
}

const EVERY_TIER: readonly DistributionFeature[] = ['cloudFrontFunction', 'keyValueStore'];
const ABOVE_FREE: readonly DistributionFeature[] = [...EVERY_TIER, 'customOriginRequestPolicy', 'customResponseHeadersPolicy'];
const BUSINESS_UP: readonly DistributionFeature[] = [...ABOVE_FREE, 'customCachePolicy'];
const ALL_FEATURES: readonly DistributionFeature[] = [
  ...BUSINESS_UP,
  'lambdaEdge',
  'forwardedValues',
  'originAccessIdentity',
  'realtimeLogs',
];

const TB = 1000;

/** A flat-rate tier: what it includes a month, its features; a paid one bills nothing until approved. */
function flatRate(
  tier: FlatRateTier,
  label: string,
  monthlyUsd: number,
  monthlyRequests: number,
  monthlyDataGb: number,
  maxCacheBehaviors: number,
  allows: readonly DistributionFeature[],
): CloudFrontPlan {
  const planTier = tier.toUpperCase() as CloudFrontPlan['planTier'];
  return {
    tier,
    label,
    planTier,
    monthlyUsd,
    monthlyRequests,
    monthlyDataGb,
    maxCacheBehaviors,
    allows: new Set(allows),
    needsApproval: monthlyUsd > 0,
  };
}

export const CLOUDFRONT_PLANS: Readonly<Record<CloudFrontPlanTier, CloudFrontPlan>> = {
  payAsYouGo: { tier: 'payAsYouGo', label: 'Pay-as-you-go (no plan)', allows: new Set(ALL_FEATURES), needsApproval: false },
  free: flatRate('free', 'Free', 0, 1_000_000, 100, 5, EVERY_TIER),
  pro: flatRate('pro', 'Pro', 15, 10_000_000, 50 * TB, 10, ABOVE_FREE),
  business: flatRate('business', 'Business', 200, 125_000_000, 50 * TB, 50, BUSINESS_UP),
  premium: flatRate('premium', 'Premium', 1000, 500_000_000, 50 * TB, 100, BUSINESS_UP),
};

/**
 * The tier the stack uses unless cdk.json says otherwise: the cheapest on which everything the site
 * does still works. Free cannot carry the site's security headers: no custom response-headers policy,
 * and a function cannot stand in for it on error answers (a viewer-response function "doesn't execute"
 * when the origin returns other than 200 OK, CloudFront API Reference, LambdaFunctionAssociation:
 * https://docs.aws.amazon.com/cloudfront/latest/APIReference/API_LambdaFunctionAssociation.html; no page
 * says CloudFront Functions do better). So Pro; the distribution uses AWS-managed cache policies there,
 * since custom ones need Business.
 */
export const DEFAULT_CLOUDFRONT_PLAN: CloudFrontPlanTier = 'pro';

/**
 * The previews' tier unless cdk.json's previewCloudFrontPlan says otherwise: Free under any flat-rate
 * site plan, so a flood on a preview is capped at $0 rather than at a second paid price. What keeps Free
 * from carrying the live site does not bind a preview: its security headers are set by its viewer-response
 * function instead of a response-headers policy (infra/lib/preview-site.ts), so every preview page has
 * them, and only the not-found page a direct load of a missing address gets (plain HTML, no script, the
 * error answer a function does not run on) goes without; it has no /api/* and needs no origin-request
 * policy, and AWS-managed cache policies are allowed on every plan. A site on pay-as-you-go on purpose
 * keeps its previews there too (no web ACL in either, as the owner chose).
 */
export function defaultPreviewPlan(sitePlan: CloudFrontPlanTier): CloudFrontPlanTier {
  return sitePlan === 'payAsYouGo' ? 'payAsYouGo' : 'free';
}

/** What pay-as-you-go risks, for setup's prompt and the docs: said once, here. */
export const PAY_AS_YOU_GO_RISK =
  'no ceiling: CloudFront bills every request and every GB, with no WAF in front (a WAF there bills per rule ' +
  'and per request), so one client pulling the site in a loop costs hundreds of dollars a month before the ' +
  'budget mail, which AWS updates only a few times a day, arrives';

export function isCloudFrontPlanTier(value: unknown): value is CloudFrontPlanTier {
  return typeof value === 'string' && (CLOUDFRONT_PLAN_TIERS as readonly string[]).includes(value);
}

/** "Pro: $15 a month, 10 M requests and 50 TB included" — the line setup and the docs show. */
export function describePlan(plan: CloudFrontPlan): string {
  if (plan.monthlyUsd === undefined) return `${plan.label}: billed per request and per GB, ${PAY_AS_YOU_GO_RISK}`;
  const requests = `${(plan.monthlyRequests ?? 0) / 1_000_000} M requests`;
  const gb = plan.monthlyDataGb ?? 0;
  const data = gb >= TB ? `${gb / TB} TB` : `${gb} GB`;
  return `${plan.label}: $${plan.monthlyUsd.toLocaleString('en-US')} a month, ${requests} and ${data} included, never billed more`;
}

/** The features a distribution uses that the tier does not allow, in a stable order. */
export function disallowedFeatures(tier: CloudFrontPlanTier, used: Iterable<DistributionFeature>): DistributionFeature[] {
  const allows = CLOUDFRONT_PLANS[tier].allows;
  return [...new Set(used)].filter((feature) => !allows.has(feature)).sort();
}

/** The cheapest flat-rate tier allowing every feature given, or undefined when none does. */
export function cheapestTierFor(used: Iterable<DistributionFeature>): FlatRateTier | undefined {
  const features = [...used];
  const tiers: FlatRateTier[] = ['free', 'pro', 'business', 'premium'];
  return tiers.find((tier) => disallowedFeatures(tier, features).length === 0);
}
