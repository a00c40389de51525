/** Keys of the main stack's CloudFormation outputs that the owner's scripts read back. */
export const STACK_OUTPUT_KEYS = {
  siteUrl: 'SiteUrl',
  /** The site's S3 bucket, which `npm run destroy` empties and deletes (every stage keeps it on cdk destroy). */
  siteBucket: 'SiteBucketName',
  /** The message archive's DynamoDB table (read by `npm run messages`). */
  archiveTable: 'ArchiveTableName',
  /** The vitals function's log group, where page views are kept (read by `npm run visitors`). */
  pageViewsLogGroup: 'PageViewsLogGroup',
} as const;
