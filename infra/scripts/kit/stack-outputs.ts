/**
 * A deployed stack's outputs, by the names in STACK_OUTPUT_KEYS: from CloudFormation (DescribeStacks)
 * or from the file `cdk deploy --outputs-file` wrote. The deploy learns the site's CloudFront address,
 * destroy the bucket to empty, messages the archive's table.
 */
import { readFileSync } from 'node:fs';
import { CloudFormationClient, DescribeStacksCommand, paginateListStackResources } from '@aws-sdk/client-cloudformation';
import { STACK_OUTPUT_KEYS } from '../../shared/stack-output-keys';
import { CLOUDFRONT_PLANS, type CloudFrontPlanTier } from '../../../contract/cloudfront-plans';
import { awsClient, isStackMissing } from './aws';

export type StackOutputs = Partial<Record<(typeof STACK_OUTPUT_KEYS)[keyof typeof STACK_OUTPUT_KEYS], string>> & Record<string, string>;

/** The stack's outputs by key, or undefined when the stack does not exist. */
export async function stackOutputs(
  stackName: string,
  region: string,
  client: CloudFormationClient = awsClient(CloudFormationClient, { region }),
): Promise<StackOutputs | undefined> {
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const stack = Stacks?.[0];
    if (!stack) return undefined;
    return Object.fromEntries((stack.Outputs ?? []).map((o) => [o.OutputKey ?? '', o.OutputValue ?? '']));
  } catch (error) {
    if (isStackMissing(error)) return undefined;
    throw error;
  }
}

const withoutTrailingSlash = (url: string | undefined) => url?.replace(/\/+$/, '') || undefined;

/** The site's address from the stack's SiteUrl output ("https://d111111abcdef8.cloudfront.net"), if deployed. */
export async function deployedSiteUrl(stackName: string, region: string, client?: CloudFormationClient): Promise<string | undefined> {
  return withoutTrailingSlash((await stackOutputs(stackName, region, client))?.[STACK_OUTPUT_KEYS.siteUrl]);
}

/** The stack's outputs in a `cdk deploy --outputs-file` file; none when the file or the stack is not there. */
function outputsFromFile(file: string, stackName: string): Record<string, string> {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>)[stackName] ?? {};
  } catch {
    return {};
  }
}

/** The stack's SiteUrl in a `cdk deploy --outputs-file` file, if there. */
export function siteUrlFromOutputsFile(file: string, stackName: string): string | undefined {
  return withoutTrailingSlash(outputsFromFile(file, stackName)[STACK_OUTPUT_KEYS.siteUrl]);
}

/**
 * The HTTP API's id, read from the stack's resources: the stack has no output naming the API, so no
 * deploy log or workflow prints its execute-api address. The physical id of an AWS::ApiGatewayV2::Api
 * is its API id ("Ref returns the API ID": https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-apigatewayv2-api.html).
 * Undefined when the stack does not exist or has no API. ListStackResources, paged, rather than
 * DescribeStackResources, which returns the first 100 resources only.
 */
export async function deployedApiId(
  stackName: string,
  region: string,
  client: CloudFormationClient = awsClient(CloudFormationClient, { region }),
): Promise<string | undefined> {
  const apis: string[] = [];
  try {
    for await (const page of paginateListStackResources({ client }, { StackName: stackName })) {
      for (const resource of page.StackResourceSummaries ?? []) {
        if (resource.ResourceType === 'AWS::ApiGatewayV2::Api' && resource.PhysicalResourceId) apis.push(resource.PhysicalResourceId);
      }
    }
  } catch (error) {
    if (isStackMissing(error)) return undefined;
    throw error;
  }
  if (apis.length > 1) throw new Error(`Stack ${stackName} holds ${apis.length} HTTP APIs (${apis.join(', ')}); expected one.`);
  return apis[0];
}

/** The stack's plan subscriptions in a `cdk deploy --outputs-file` file (none on pay-as-you-go). */
export function planSubscriptionsFromOutputsFile(file: string, stackName: string): { site?: string; previews?: string } {
  const { [STACK_OUTPUT_KEYS.sitePlan]: site, [STACK_OUTPUT_KEYS.previewPlan]: previews } = outputsFromFile(file, stackName);
  return { ...(site ? { site } : {}), ...(previews ? { previews } : {}) };
}

/** A subscription the deploy made: whose, on which tier, its ARN. */
export interface PlanSubscription {
  readonly distribution: string;
  readonly tier: CloudFrontPlanTier;
  readonly arn: string;
}

/**
 * What `npm run deploy` prints after deploying on a paid tier. CloudFormation creates a paid
 * subscription in PENDING_APPROVAL and "does not approve the subscription automatically"; billing starts
 * with ApprovePaidSubscription, which needs the subscription's current ETag from GetSubscription
 * (AWS::PricingPlanManager::Subscription: https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-pricingplanmanager-subscription.html;
 * PricingPlanManager API Reference, ApprovePaidSubscription: https://docs.aws.amazon.com/pricingplanmanager/latest/APIReference/API_ApprovePaidSubscription.html;
 * AWS CLI, pricing-plan-manager get-subscription and approve-paid-subscription). The deploy does not
 * approve by itself: approving starts a charge, so it is the owner's own act. Until then the plan is
 * not active, so its ceiling does not hold yet. Undefined when no subscription is on a paid tier.
 */
export function planApprovalNote(subscriptions: readonly PlanSubscription[]): string | undefined {
  const paid = subscriptions.filter((s) => CLOUDFRONT_PLANS[s.tier].needsApproval);
  if (paid.length === 0) return undefined;
  return [
    'A paid CloudFront plan waits for your approval: until then it is not active, and its ceiling on the bill does not hold.',
    "Approving starts its monthly price (this month pro-rated; a cancellation takes effect at the month's end):",
    ...paid.flatMap(({ distribution, tier, arn }) => [
      `  ${distribution}, ${CLOUDFRONT_PLANS[tier].label} plan, $${CLOUDFRONT_PLANS[tier].monthlyUsd} a month:`,
      `    aws pricing-plan-manager get-subscription --region us-east-1 --arn ${arn}   # status PENDING_APPROVAL, and its ETag`,
      `    aws pricing-plan-manager approve-paid-subscription --region us-east-1 --arn ${arn} --if-match ETAG`,
    ]),
  ].join('\n');
}

/** The deploy's subscriptions, each with the tier the configuration gave it. */
export function deployedPlanSubscriptions(
  arns: { site?: string; previews?: string },
  tiers: { site: CloudFrontPlanTier; previews: CloudFrontPlanTier },
): PlanSubscription[] {
  return [
    ...(arns.site ? [{ distribution: 'the site', tier: tiers.site, arn: arns.site }] : []),
    ...(arns.previews ? [{ distribution: 'the previews', tier: tiers.previews, arn: arns.previews }] : []),
  ];
}
