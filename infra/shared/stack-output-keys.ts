/** Keys of the main stack's CloudFormation outputs that the owner's scripts read back. */
export const STACK_OUTPUT_KEYS = {
  siteUrl: 'SiteUrl',
  /** CloudFront's own name for the site, which an external DNS host points the custom domain at (`npm run setup`). */
  distributionDomain: 'DistributionDomainName',
  /** The site's S3 bucket, which `npm run destroy` empties and deletes (every stage keeps it on cdk destroy). */
  siteBucket: 'SiteBucketName',
  /** The message archive's DynamoDB table (read by `npm run messages`). */
  archiveTable: 'ArchiveTableName',
  /** The vitals function's log group, where page views are kept (read by `npm run visitors`). */
  pageViewsLogGroup: 'PageViewsLogGroup',
  /** Pull-request previews' bucket (github-setup prints it as AWS_PREVIEW_BUCKET) and address. */
  previewBucket: 'PreviewBucketName',
  previewUrl: 'PreviewUrl',
  /** The flat-rate plan subscriptions (none on pay-as-you-go), whose approval `npm run deploy` explains. */
  sitePlan: 'SitePlanSubscriptionArn',
  previewPlan: 'PreviewPlanSubscriptionArn',
} as const;

/** Keys of the GitHub deploy stack's outputs that `npm run github-setup` reads back. */
export const GITHUB_STACK_OUTPUT_KEYS = {
  productionRole: 'ProductionRoleArn',
  previewRole: 'PreviewRoleArn',
  /** The preview bucket main's stack creates (its name is fixed by stack name, account and region). */
  previewBucket: 'PreviewBucketName',
  providerArn: 'OidcProviderArn',
  /** "yes" when this stack created the account's GitHub OIDC provider (so a rerun must not import it). */
  providerOwned: 'OidcProviderOwned',
} as const;

/**
 * The construct id of the live stack's reCAPTCHA alarm (infra/lib/monitoring.ts), which `npm run doctor`
 * finds among the stack's resources by its logical id (CloudFormation names the alarm itself).
 */
export const CAPTCHA_ALARM_ID = 'CaptchaQuotaOrBudget';
