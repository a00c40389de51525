/** npm run setup, step 4: CDK bootstrap. */
import { DeleteStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { emptyAndDeleteBucket } from '../../destroy/bucket';
import { isStackMissing } from '../../kit/aws';
import { bootstrapNames, boundaryPolicyName } from '../../../lib/deploy-fence';
import { ensureFencePolicies, executionPolicyArn, fencePolicyStates, partitionOf } from '../execution-policy';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../../config/portfolio-config';
import { checkBootstrap, stackRegions } from '../../doctor/checks';
import { SetupError, type SetupContext, type StepResult } from '../context';
import { type Step, awsFailure, call, result, sinceDate, fromNow, waiting, applyPlan } from './step';

/** The bootstrap template version the pinned CDK CLI deploys (its bootstrap-template.yaml). */
export function pinnedBootstrapVersion(root = REPO_ROOT): number {
  const template = readFileSync(path.join(root, 'node_modules/aws-cdk/lib/api/bootstrap/bootstrap-template.yaml'), 'utf8');
  const value = /\n {2}BootstrapVersion:\n[\s\S]*?\n {4}Value: '(\d+)'/.exec(template)?.[1];
  if (!value) throw new Error('cannot read the bootstrap version from the pinned aws-cdk');
  return Number(value);
}

async function toolkitStack(ctx: SetupContext, region: string) {
  try {
    const answer = await ctx.clients.cloudFormation(region).send(new DescribeStacksCommand({ StackName: 'CDKToolkit' }));
    return answer.Stacks?.[0];
  } catch (error) {
    if (isStackMissing(error)) return undefined;
    throw awsFailure('cloudformation:DescribeStacks', error);
  }
}

const BOOTSTRAP_COST =
  "CDK's bootstrap stack: an S3 bucket and an ECR repository for deploy assets, IAM roles, an SSM parameter; only stored assets are billed";

/** Where the execution policy stands: this account, cdk.json's stack and live secret. */
function fenceScope(ctx: SetupContext, region: string) {
  return {
    partition: partitionOf(region),
    account: ctx.account,
    region,
    portfolioStackName: ctx.config.stackName,
    liveSecretParameter: ctx.config.recaptchaSecretParameter,
  };
}

/**
 * cdk bootstrap with the scoped execution policy in place of AdministratorAccess and the boundary on
 * CloudFormation's role (both created or brought up to date first: the template takes existing
 * policies). AWS CDK Developer Guide, "cdk bootstrap", --cloudformation-execution-policies and
 * --custom-permissions-boundary: https://docs.aws.amazon.com/cdk/v2/guide/ref-cli-cmd-bootstrap.html.
 */
async function bootstrap(ctx: SetupContext, region: string): Promise<void> {
  const target = `aws://${ctx.account}/${region}`;
  const { arn, boundary } = await call('iam:CreatePolicyVersion', () => ensureFencePolicies(ctx.clients.iam, fenceScope(ctx, region)));
  const status = ctx.deps.runCdk([
    'bootstrap',
    target,
    '--cloudformation-execution-policies',
    arn,
    '--custom-permissions-boundary',
    boundary,
  ]);
  if (status !== 0) throw new SetupError(`cdk bootstrap ${target} failed (exit ${status}); its output above says why`);
}

/** A parameter of the bootstrap stack; "" when not given. */
function parameterOf(stack: { Parameters?: { ParameterKey?: string; ParameterValue?: string }[] } | undefined, key: string): string {
  return stack?.Parameters?.find((p) => p.ParameterKey === key)?.ParameterValue ?? '';
}

/**
 * A bootstrap whose creation failed leaves its staging bucket behind (the template retains it, under a
 * fixed name), and the next bootstrap then fails with "already exists" (aws/aws-cdk#24143,
 * https://github.com/aws/aws-cdk/issues/24143):
 * deleted with the failed stack, on the same yes.
 */
async function deleteRetainedStagingBucket(ctx: SetupContext, region: string): Promise<number> {
  const bucket = bootstrapNames(ctx.account, region).stagingBucket;
  return call('s3:DeleteBucket', () => emptyAndDeleteBucket(bucket, ctx.clients.s3(region)));
}

export const bootstrapStep: Step = {
  id: 'bootstrap',
  async run(ctx) {
    const results: StepResult[] = [];
    for (const region of stackRegions(ctx.config)) {
      const name = `CDK bootstrap ${region}`;
      const target = `aws://${ctx.account}/${region}`;
      const check = await checkBootstrap(ctx.clients.cloudFormation, ctx.account, region);
      const stack = await toolkitStack(ctx, region);
      const version = Number(stack?.Outputs?.find((o) => o.OutputKey === 'BootstrapVersion')?.OutputValue);
      const pinned = pinnedBootstrapVersion();
      const policy = executionPolicyArn(fenceScope(ctx, region));
      // The execution policies it was given (empty: the template's default, AdministratorAccess) and the
      // boundary it puts on CloudFormation's role (empty: none).
      const policies = parameterOf(stack, 'CloudFormationExecutionPolicies');
      const boundary = boundaryPolicyName(ctx.config.stackName);
      const bounded = parameterOf(stack, 'InputPermissionsBoundary');
      if (check.status === 'pass') {
        if (version < pinned || policies !== policy || bounded !== boundary) {
          const why = [
            version < pinned && `from version ${version} to ${pinned}`,
            policies !== policy &&
              `its CloudFormation execution role from ${policies || 'AdministratorAccess'} to ${policy.split('/').pop()} (no table items, secret, role chains or deploy roles)`,
            bounded !== boundary &&
              `the boundary ${boundary} on CloudFormation's role${bounded ? ` in place of ${bounded}` : ''} (no role a deploy makes escapes it)`,
          ].filter(Boolean);
          const applied = await applyPlan(ctx, name, {
            change: `update the bootstrap stack in ${region}: ${why.join('; ')} (cdk bootstrap ${target} --cloudformation-execution-policies ${policy} --custom-permissions-boundary ${boundary})`,
            cost: BOOTSTRAP_COST,
            consentId: `bootstrap-update-${region}`,
            optional: true,
            apply: () => bootstrap(ctx, region),
          });
          if (applied) {
            results.push(result(name, 'changed', `updated to version ${pinned}, execution policy ${policy.split('/').pop()}`));
            continue;
          }
        }
        // The bootstrap names the policies; what they say follows cdk.json (the stack, the live secret).
        const states = await call('iam:GetPolicyVersion', () => fencePolicyStates(ctx.clients.iam, fenceScope(ctx, region)));
        const due = states.filter((p) => p.state !== 'current');
        if (due.length > 0) {
          const applied = await applyPlan(ctx, name, {
            change: `${due.map((p) => `${p.state === 'missing' ? 'create' : 'bring up to date'} ${p.name}, ${p.what}`).join('; ')} (what cdk.json names now)`,
            cost: 'nothing (IAM is free)',
            consentId: `execution-policy-${region}`,
            apply: async () =>
              void (await call('iam:CreatePolicyVersion', () => ensureFencePolicies(ctx.clients.iam, fenceScope(ctx, region)))),
          });
          if (applied) {
            results.push(result(name, 'changed', `${check.detail}; ${due.map((p) => p.name).join(' and ')} up to date`));
            continue;
          }
        }
        results.push(
          result(name, 'ready', `${check.detail}; CloudFormation's role limited by ${policy.split('/').pop()} within ${boundary}`),
        );
        continue;
      }
      const status = stack?.StackStatus ?? '';
      if (/IN_PROGRESS$/.test(status)) {
        // Stack.CreationTime / LastUpdatedTime (CloudFormation API Reference, Stack data type):
        // https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_Stack.html
        const started = sinceDate(stack?.LastUpdatedTime ?? stack?.CreationTime, 'CloudFormation gave no time for the stack');
        results.push(waiting(name, `the CDKToolkit stack is ${status}`, 'AWS: CloudFormation is still working on it', started));
        continue;
      }
      if (status === 'ROLLBACK_COMPLETE') {
        // A stack that failed its creation cannot be updated: it must go first, and only on an explicit yes.
        const yes =
          ctx.options.deleteFailedBootstrap ||
          (ctx.options.interactive &&
            (await ctx.consent(
              `delete-cdktoolkit-${region}`,
              `The CDKToolkit stack in ${region} is ROLLBACK_COMPLETE (its creation failed). Delete it and the staging bucket it left behind, and bootstrap again`,
            )));
        if (!yes) {
          throw new SetupError(
            `CDKToolkit in ${region} is ROLLBACK_COMPLETE: it must be deleted before bootstrapping; answer yes in a terminal or pass --delete-failed-bootstrap`,
          );
        }
        await call('cloudformation:DeleteStack', () =>
          ctx.clients.cloudFormation(region).send(new DeleteStackCommand({ StackName: 'CDKToolkit' })),
        );
        for (let i = 0; i < 120 && (await toolkitStack(ctx, region)); i++) await ctx.deps.sleep(5_000);
        await deleteRetainedStagingBucket(ctx, region);
        await bootstrap(ctx, region);
      } else if (stack) {
        throw new SetupError(`${check.detail}: ${check.fix ?? ''}`);
      } else {
        const applied = await applyPlan(ctx, name, {
          change: `bootstrap CDK in ${region}, CloudFormation's role limited by ${policy.split('/').pop()} within ${boundary} (cdk bootstrap ${target} --cloudformation-execution-policies ${policy} --custom-permissions-boundary ${boundary})`,
          cost: BOOTSTRAP_COST,
          consentId: `bootstrap-${region}`,
          apply: () => bootstrap(ctx, region),
        });
        if (!applied) {
          results.push(waiting(name, 'not bootstrapped (your answer)', 'you: run npm run setup again to bootstrap', fromNow(ctx)));
          continue;
        }
      }
      const again = await checkBootstrap(ctx.clients.cloudFormation, ctx.account, region);
      if (again.status !== 'pass') throw new SetupError(`${name}: still ${again.detail} after cdk bootstrap`);
      results.push(result(name, 'changed', again.detail));
    }
    return results;
  },
};
