/** Keys of the main stack's CloudFormation outputs that the owner's scripts read back. */
export const STACK_OUTPUT_KEYS = {
  siteUrl: 'SiteUrl',
  /** The message archive's DynamoDB table (read by `npm run messages`). */
  archiveTable: 'ArchiveTableName',
  /** The vitals function's log group, where page views are kept (read by `npm run visitors`). */
  pageViewsLogGroup: 'PageViewsLogGroup',
} as const;
