/**
 * The customer managed policy `cdk bootstrap --cloudformation-execution-policies` gives CloudFormation's
 * execution role instead of AdministratorAccess (infra/lib/github-deploy-stack.ts,
 * executionPolicyDocument): created when missing, given a new default version when cdk.json changed
 * what it names (the stack, the live secret). IAM keeps at most five versions of a managed policy, so
 * the oldest non-default one goes first (IAM User Guide, "Versioning IAM policies":
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_managed-versioning.html).
 */
import {
  CreatePolicyCommand,
  CreatePolicyVersionCommand,
  DeletePolicyVersionCommand,
  GetPolicyCommand,
  GetPolicyVersionCommand,
  type IAMClient,
  ListPolicyVersionsCommand,
} from '@aws-sdk/client-iam';
import { executionPolicyDocument, executionPolicyName, type FenceScope } from '../../lib/github-deploy-stack';

export const MAX_POLICY_VERSIONS = 5;

/** The partition of a region's ARNs (the China and GovCloud regions have their own). */
export function partitionOf(region: string): string {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  return 'aws';
}

export function executionPolicyArn(scope: Pick<FenceScope, 'partition' | 'account' | 'portfolioStackName'>): string {
  return `arn:${scope.partition}:iam::${scope.account}:policy/${executionPolicyName(scope.portfolioStackName)}`;
}

type Outcome = 'created' | 'updated' | 'unchanged';

/** Whether the policy exists and says what executionPolicyDocument says now (reads only). */
export async function executionPolicyState(iam: IAMClient, scope: FenceScope): Promise<'missing' | 'stale' | 'current'> {
  const arn = executionPolicyArn(scope);
  let defaultVersion: string | undefined;
  try {
    defaultVersion = (await iam.send(new GetPolicyCommand({ PolicyArn: arn }))).Policy?.DefaultVersionId;
  } catch (error) {
    if (!isNoSuchEntity(error)) throw error;
  }
  if (!defaultVersion) return 'missing';
  const current = (await iam.send(new GetPolicyVersionCommand({ PolicyArn: arn, VersionId: defaultVersion }))).PolicyVersion?.Document;
  return current && sameDocument(decodeURIComponent(current), executionPolicyDocument(scope)) ? 'current' : 'stale';
}

const isNoSuchEntity = (error: unknown) => ['NoSuchEntityException', 'NoSuchEntity'].includes((error as { name?: string }).name ?? '');

/** Makes the policy say what executionPolicyDocument says now; its ARN and what was done. */
export async function ensureExecutionPolicy(iam: IAMClient, scope: FenceScope): Promise<{ arn: string; outcome: Outcome }> {
  const arn = executionPolicyArn(scope);
  const document = executionPolicyDocument(scope);
  const text = JSON.stringify(document);
  let defaultVersion: string | undefined;
  try {
    defaultVersion = (await iam.send(new GetPolicyCommand({ PolicyArn: arn }))).Policy?.DefaultVersionId;
  } catch (error) {
    if (!isNoSuchEntity(error)) throw error;
  }
  if (!defaultVersion) {
    await iam.send(
      new CreatePolicyCommand({
        PolicyName: executionPolicyName(scope.portfolioStackName),
        PolicyDocument: text,
        Description: "CloudFormation's role for cdk deploy: everything but table items, the live secret, role chains and the deploy machinery",
      }),
    );
    return { arn, outcome: 'created' };
  }
  const current = (await iam.send(new GetPolicyVersionCommand({ PolicyArn: arn, VersionId: defaultVersion }))).PolicyVersion?.Document;
  // IAM returns the document URL-encoded (RFC 3986): IAM API Reference, PolicyVersion data type.
  if (current && sameDocument(decodeURIComponent(current), document)) return { arn, outcome: 'unchanged' };
  const versions = (await iam.send(new ListPolicyVersionsCommand({ PolicyArn: arn }))).Versions ?? [];
  if (versions.length >= MAX_POLICY_VERSIONS) {
    const oldest = versions
      .filter((v) => !v.IsDefaultVersion)
      .sort((a, b) => (a.CreateDate?.getTime() ?? 0) - (b.CreateDate?.getTime() ?? 0))[0];
    if (oldest?.VersionId) await iam.send(new DeletePolicyVersionCommand({ PolicyArn: arn, VersionId: oldest.VersionId }));
  }
  await iam.send(new CreatePolicyVersionCommand({ PolicyArn: arn, PolicyDocument: text, SetAsDefault: true }));
  return { arn, outcome: 'updated' };
}

function sameDocument(text: string, document: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(document);
  } catch {
    return false;
  }
}
