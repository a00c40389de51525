/**
 * The customer managed policies of the deploy's fence (infra/lib/deploy-fence.ts): the one
 * `cdk bootstrap --cloudformation-execution-policies` gives CloudFormation's execution role instead of
 * AdministratorAccess (executionPolicyDocument), and the permissions boundary `cdk bootstrap
 * --custom-permissions-boundary` puts on that role and the app puts on every role it makes
 * (boundaryPolicyDocument): created when missing, given a new default version when cdk.json changed
 * what they name (the stack, the live secret). IAM keeps at most five versions of a managed policy, so
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
import {
  boundaryPolicyDocument,
  boundaryPolicyName,
  executionPolicyDocument,
  executionPolicyName,
  type FenceScope,
} from '../../lib/deploy-fence';

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

/** The two policies of the fence: CloudFormation's execution policy and the boundary it and every stack role carry. */
export function fencePolicies(scope: FenceScope): { name: string; arn: string; document: unknown; description: string; what: string }[] {
  const arn = (name: string) => `arn:${scope.partition}:iam::${scope.account}:policy/${name}`;
  return [
    {
      name: executionPolicyName(scope.portfolioStackName),
      arn: arn(executionPolicyName(scope.portfolioStackName)),
      document: executionPolicyDocument(scope),
      description:
        "CloudFormation's role for cdk deploy: everything but table items, the live secret, role chains and the deploy machinery",
      what: "CloudFormation's execution policy",
    },
    {
      name: boundaryPolicyName(scope.portfolioStackName),
      arn: arn(boundaryPolicyName(scope.portfolioStackName)),
      document: boundaryPolicyDocument(scope),
      description: "The permissions boundary of CloudFormation's role and of every role the portfolio stacks make",
      what: 'the permissions boundary of every role a deploy makes',
    },
  ];
}

type FencePolicy = ReturnType<typeof fencePolicies>[number];
type State = 'missing' | 'stale' | 'current';

/** Whether each fence policy exists and says what its document says now (reads only); the stale ones, named. */
export async function fencePolicyStates(iam: IAMClient, scope: FenceScope): Promise<{ name: string; what: string; state: State }[]> {
  const states = [];
  for (const policy of fencePolicies(scope))
    states.push({ name: policy.name, what: policy.what, state: await policyState(iam, policy.arn, policy.document) });
  return states;
}

/** Reads only. IAM returns the document URL-encoded (RFC 3986): IAM API Reference, PolicyVersion data type. */
async function policyState(iam: IAMClient, arn: string, document: unknown): Promise<State> {
  let defaultVersion: string | undefined;
  try {
    defaultVersion = (await iam.send(new GetPolicyCommand({ PolicyArn: arn }))).Policy?.DefaultVersionId;
  } catch (error) {
    if (!isNoSuchEntity(error)) throw error;
  }
  if (!defaultVersion) return 'missing';
  const current = (await iam.send(new GetPolicyVersionCommand({ PolicyArn: arn, VersionId: defaultVersion }))).PolicyVersion?.Document;
  return current && sameDocument(decodeURIComponent(current), document) ? 'current' : 'stale';
}

const isNoSuchEntity = (error: unknown) => ['NoSuchEntityException', 'NoSuchEntity'].includes((error as { name?: string }).name ?? '');

/** Makes both fence policies say what their documents say now; the execution policy's ARN and the boundary's name. */
export async function ensureFencePolicies(iam: IAMClient, scope: FenceScope): Promise<{ arn: string; boundary: string }> {
  const [execution, boundary] = fencePolicies(scope) as [FencePolicy, FencePolicy];
  // The boundary first: the execution policy names it, and bootstrap gives it to CloudFormation's role.
  await ensurePolicy(iam, boundary);
  await ensurePolicy(iam, execution);
  return { arn: execution.arn, boundary: boundary.name };
}

async function ensurePolicy(iam: IAMClient, policy: FencePolicy): Promise<void> {
  const { arn, document } = policy;
  const text = JSON.stringify(document);
  const state = await policyState(iam, arn, document);
  if (state === 'current') return;
  if (state === 'missing') {
    await iam.send(new CreatePolicyCommand({ PolicyName: policy.name, PolicyDocument: text, Description: policy.description }));
    return;
  }
  const versions = (await iam.send(new ListPolicyVersionsCommand({ PolicyArn: arn }))).Versions ?? [];
  if (versions.length >= MAX_POLICY_VERSIONS) {
    const oldest = versions
      .filter((v) => !v.IsDefaultVersion)
      .sort((a, b) => (a.CreateDate?.getTime() ?? 0) - (b.CreateDate?.getTime() ?? 0))[0];
    if (oldest?.VersionId) await iam.send(new DeletePolicyVersionCommand({ PolicyArn: arn, VersionId: oldest.VersionId }));
  }
  await iam.send(new CreatePolicyVersionCommand({ PolicyArn: arn, PolicyDocument: text, SetAsDefault: true }));
}

function sameDocument(text: string, document: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(document);
  } catch {
    return false;
  }
}
