/**
 * A deployed stack's outputs, by the names in STACK_OUTPUT_KEYS: from CloudFormation (DescribeStacks)
 * or from the file `cdk deploy --outputs-file` wrote. The deploy learns the site's CloudFront address,
 * destroy the bucket to empty, messages the archive's table.
 */
import { readFileSync } from 'node:fs';
import { CloudFormationClient, DescribeStacksCommand, paginateListStackResources } from '@aws-sdk/client-cloudformation';
import { STACK_OUTPUT_KEYS } from '../../shared/stack-output-keys';
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

/** The stack's SiteUrl in a `cdk deploy --outputs-file` file, if there. */
export function siteUrlFromOutputsFile(file: string, stackName: string): string | undefined {
  try {
    const outputs = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
    return withoutTrailingSlash(outputs[stackName]?.[STACK_OUTPUT_KEYS.siteUrl]);
  } catch {
    return undefined;
  }
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
