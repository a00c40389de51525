/**
 * Reads a deployed stack's outputs (CloudFormation DescribeStacks). The deploy learns the site's
 * CloudFront address from the SiteUrl output; destroy learns which bucket to empty.
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';

/** The stack's outputs by key, or undefined when the stack does not exist. */
export async function stackOutputs(
  stackName: string,
  region: string,
  client: CloudFormationClient = new CloudFormationClient({ region }),
): Promise<Record<string, string> | undefined> {
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const stack = Stacks?.[0];
    if (!stack) return undefined;
    return Object.fromEntries((stack.Outputs ?? []).map((o) => [o.OutputKey ?? '', o.OutputValue ?? '']));
  } catch (error) {
    // CloudFormation answers a ValidationError "Stack with id X does not exist" for an unknown stack.
    if ((error as Error).name === 'ValidationError' && /does not exist/.test((error as Error).message)) return undefined;
    throw error;
  }
}

/** The site's address from the stack's SiteUrl output ("https://d111111abcdef8.cloudfront.net"), if deployed. */
export async function deployedSiteUrl(
  stackName: string,
  region: string,
  client?: CloudFormationClient,
): Promise<string | undefined> {
  const url = (await stackOutputs(stackName, region, client))?.SiteUrl;
  return url ? url.replace(/\/+$/, '') : undefined;
}
