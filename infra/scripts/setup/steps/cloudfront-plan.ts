/** npm run setup: the CloudFront plan the site's distributions are on (asked once, kept in cdk.json). */
import {
  CLOUDFRONT_PLANS,
  CLOUDFRONT_PLAN_TIERS,
  type CloudFrontPlanTier,
  DEFAULT_CLOUDFRONT_PLAN,
  describePlan,
  isCloudFrontPlanTier,
} from '../../../../contract/cloudfront-plans';
import { describePlanMonths } from '../../../../contract/cost-model';
import { planRegionProblem } from '../../../config/portfolio-config';
import { portfolioBlockHas } from '../cdk-json';
import { SetupError } from '../context';
import { type Step, result } from './step';

const STEP = 'CloudFront plan';

/**
 * The lines shown before the question: every tier with its price and allowance (contract/cloudfront-plans.ts)
 * and what a month on it costs, quiet and at worst (contract/cost-model.ts), that the pull-request
 * previews have a subscription of their own (Free by default), what a paid tier waits for, and what
 * pay-as-you-go risks.
 */
export function planChoiceNote(region: string): string {
  const lines = [
    "CloudFront plan: how AWS bills the site's distribution. The pull-request previews' distribution has its own subscription, on Free",
    '(previewCloudFrontPlan in cdk.json puts it on another plan; with the site on pay-as-you-go it stays there too).',
    'A flat-rate plan never bills more than its price: past its allowance AWS may slow the site instead; requests its web ACL blocks do not count.',
    ...CLOUDFRONT_PLAN_TIERS.filter((tier) => tier !== 'payAsYouGo').map((tier) => `  ${describePlan(CLOUDFRONT_PLANS[tier])}`),
    `  ${describePlan(CLOUDFRONT_PLANS.payAsYouGo)}.`,
    `The site needs custom response-headers and origin-request policies (its security headers, the API's headers), so Free does not fit it; ${CLOUDFRONT_PLANS[DEFAULT_CLOUDFRONT_PLAN].label} is the cheapest plan that does.`,
    'A paid plan bills nothing until you approve its subscription after the deploy (npm run deploy prints how).',
    'What each choice costs a month, the previews included, quiet and at worst under a flood (the cost model, contract/cost-model.ts):',
    ...CLOUDFRONT_PLAN_TIERS.filter((tier) => tier !== 'free').map((tier) => `  ${describePlanMonths(tier)}`),
  ];
  if (region !== 'us-east-1')
    lines.push(
      `A plan needs region us-east-1 (its web ACL is made there); this stack's region is ${region}: choose pay-as-you-go, or set region to us-east-1 first.`,
    );
  return lines.join('\n  ');
}

export const cloudFrontPlanStep: Step = {
  id: 'cloudfront-plan',
  async run(ctx) {
    // Asked once: an answer in cdk.json (whatever it is) is the owner's, and a re-run asks nothing.
    if (portfolioBlockHas('cloudFrontPlan')) return [result(STEP, 'ready', summary(ctx.config.cloudFrontPlan, 'cdk.json'))];
    const given = ctx.options.answers['cloudfront-plan'] ?? ctx.options.env.SETUP_CLOUDFRONT_PLAN;
    if (given === undefined && !ctx.options.interactive) {
      return [
        result(STEP, 'ready', `${summary(ctx.config.cloudFrontPlan, 'the default')}; to choose: npm run setup -- --cloudfront-plan TIER`),
      ];
    }
    ctx.print(`  ${planChoiceNote(ctx.config.region)}`);
    const tier = await ctx.choose<string>(
      {
        id: 'cloudfront-plan',
        message: 'The CloudFront plan',
        options: CLOUDFRONT_PLAN_TIERS.map((value) => ({ value, label: describePlan(CLOUDFRONT_PLANS[value]) })),
        initial: DEFAULT_CLOUDFRONT_PLAN,
      },
      'cloudfront-plan',
    );
    if (!isCloudFrontPlanTier(tier)) throw new SetupError(`--cloudfront-plan ${tier}: one of ${CLOUDFRONT_PLAN_TIERS.join(', ')}`);
    const problem = planRegionProblem({ ...ctx.config, cloudFrontPlan: tier, stage: '' });
    if (problem) throw new SetupError(problem);
    await ctx.writeConfig({ cloudFrontPlan: tier });
    return [result(STEP, 'changed', summary(tier, 'cdk.json'))];
  },
};

function summary(tier: CloudFrontPlanTier, from: string): string {
  const plan = CLOUDFRONT_PLANS[tier];
  const approval = plan.needsApproval ? '; approve each subscription after the deploy (npm run deploy prints how)' : '';
  return `${plan.label} (${from}): ${plan.monthlyUsd === undefined ? 'billed per request and per GB, no ceiling' : `$${plan.monthlyUsd} a month per distribution`}${approval}`;
}
