/**
 * Preview stages from GitHub (docs/deploy.md, "Deploy from GitHub"): what a pull request's copy is
 * called, how many may be open at once, and the account quotas that number must respect.
 */

/** The stage of pull request N: `pr-N` (stack `<stackName>-pr-N`). */
export const previewStage = (pullRequest: number): string => `pr-${pullRequest}`;
export const PREVIEW_STAGE_PATTERN = /^pr-([1-9][0-9]*)$/;

/**
 * Open previews at once: the repository variable PREVIEW_LIMIT, default 3, at most `max`. Each preview
 * holds one response headers policy of its own (its CSP is the pull request's), so the bound keeps the
 * live site plus every preview within the account's 20 (PREVIEW_QUOTA_HEADROOM left for other uses).
 */
export const PREVIEW_LIMIT = { default: 3, max: 10 } as const;

/**
 * Per-account CloudFront quotas a stage's resources count against. Source: Amazon CloudFront Developer
 * Guide, "Quotas" (General quotas on policies; origin access controls under General quotas on distributions):
 * https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/cloudfront-limits.html
 * These are the defaults; AWS raises them on request (AWS General Reference, "Amazon CloudFront endpoints
 * and quotas", https://docs.aws.amazon.com/general/latest/gr/cf_region.html), and the preview cap keeps
 * an account that never asked within them.
 */
export const CLOUDFRONT_ACCOUNT_QUOTAS = {
  'AWS::CloudFront::CachePolicy': 20,
  'AWS::CloudFront::OriginRequestPolicy': 20,
  'AWS::CloudFront::ResponseHeadersPolicy': 20,
  'AWS::CloudFront::OriginAccessControl': 100,
} as const;

/** Room left in each quota for the account's other sites when the live site and PREVIEW_LIMIT.max previews run. */
export const PREVIEW_QUOTA_HEADROOM = 5;

/** The cap from the repository variable's text: blank means the default; anything else must be 0…max. */
export function previewLimit(value: string | undefined): number {
  const text = (value ?? '').trim();
  if (text === '') return PREVIEW_LIMIT.default;
  if (!/^\d+$/.test(text) || Number(text) > PREVIEW_LIMIT.max) {
    throw new Error(
      `PREVIEW_LIMIT is "${text}": a whole number from 0 (previews off) to ${PREVIEW_LIMIT.max} ` +
        '(each preview holds one CloudFront response headers policy; an account holds 20)',
    );
  }
  return Number(text);
}
