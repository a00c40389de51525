import { describe, expect, it } from 'vitest';
import {
  CLOUDFRONT_PLANS,
  CLOUDFRONT_PLAN_TIERS,
  DEFAULT_CLOUDFRONT_PLAN,
  cheapestTierFor,
  describePlan,
  disallowedFeatures,
  isCloudFrontPlanTier,
} from './cloudfront-plans';
import { EDGE_RATE_RULE, assertWafAcceptsRateRule } from './edge-rate-rule';

describe('CloudFront plans', () => {
  it('each tier allows at least what the tier below it allows, and pay-as-you-go allows everything', () => {
    const order = ['free', 'pro', 'business', 'premium'] as const;
    order.forEach((tier, i) => {
      const below = order[i - 1];
      if (below === undefined) return;
      for (const feature of CLOUDFRONT_PLANS[below].allows) {
        expect(CLOUDFRONT_PLANS[tier].allows.has(feature), `${tier} ${feature}`).toBe(true);
      }
    });
    for (const tier of order) {
      for (const feature of CLOUDFRONT_PLANS[tier].allows) expect(CLOUDFRONT_PLANS.payAsYouGo.allows.has(feature)).toBe(true);
    }
  });

  it('no flat-rate tier allows the features AWS excludes from every plan', () => {
    for (const tier of ['free', 'pro', 'business', 'premium'] as const) {
      expect(disallowedFeatures(tier, ['lambdaEdge', 'forwardedValues', 'originAccessIdentity', 'realtimeLogs'])).toHaveLength(4);
    }
  });

  it('only the paid tiers wait for approval, and only they cost money', () => {
    for (const tier of CLOUDFRONT_PLAN_TIERS) {
      const plan = CLOUDFRONT_PLANS[tier];
      expect(plan.needsApproval, tier).toBe((plan.monthlyUsd ?? 0) > 0);
    }
  });

  it('the default is the cheapest tier allowing custom response headers with managed cache policies', () => {
    expect(cheapestTierFor(['customResponseHeadersPolicy', 'customOriginRequestPolicy', 'cloudFrontFunction', 'keyValueStore'])).toBe(
      DEFAULT_CLOUDFRONT_PLAN,
    );
    expect(cheapestTierFor(['customCachePolicy'])).toBe('business');
    expect(cheapestTierFor(['lambdaEdge'])).toBeUndefined();
  });

  it('states price and allowance the way setup shows them', () => {
    expect(describePlan(CLOUDFRONT_PLANS.pro)).toBe('Pro: $15 a month, 10 M requests and 50 TB included, never billed more');
    expect(describePlan(CLOUDFRONT_PLANS.free)).toBe('Free: $0 a month, 1 M requests and 100 GB included, never billed more');
    expect(describePlan(CLOUDFRONT_PLANS.payAsYouGo)).toMatch(/no ceiling/);
  });

  it('recognises only the listed tier names', () => {
    expect(isCloudFrontPlanTier('pro')).toBe(true);
    expect(isCloudFrontPlanTier('PRO')).toBe(false);
    expect(isCloudFrontPlanTier(undefined)).toBe(false);
  });
});

describe('edge rate rule', () => {
  it('is a rule AWS WAF accepts', () => {
    expect(() => assertWafAcceptsRateRule(EDGE_RATE_RULE)).not.toThrow();
    expect(() => assertWafAcceptsRateRule({ evaluationWindowSeconds: 30, limit: 100 })).toThrow(/60, 120, 300, 600/);
    expect(() => assertWafAcceptsRateRule({ evaluationWindowSeconds: 60, limit: 9 })).toThrow(/at least 10/);
  });

  it('lets one very fast reader (a page every 3 s, three requests a page, five contact sends) through', () => {
    const fastReader = (EDGE_RATE_RULE.evaluationWindowSeconds / 3) * 3 + 5;
    expect(fastReader).toBeLessThanOrEqual(EDGE_RATE_RULE.limit + 5);
  });
});
