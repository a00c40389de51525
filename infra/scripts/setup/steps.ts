/**
 * The steps of `npm run setup`, one per doctor check and in the doctor's order. Each step asks the
 * doctor's own check (doctor/checks.ts) first, so the two never disagree; when it fails, the step shows
 * what it will change and what that costs, asks, applies, and checks again. Nothing is remembered
 * between runs: every run starts from cdk.json and the account, so running it again is the resume.
 */
import { DescribeCertificateCommand, RequestCertificateCommand } from '@aws-sdk/client-acm';
import { DeleteStackCommand, DescribeStacksCommand, paginateListStackResources, type StackResourceSummary } from '@aws-sdk/client-cloudformation';
import {
  ChangeResourceRecordSetsCommand,
  CreateHostedZoneCommand,
  GetHostedZoneCommand,
  ListHostedZonesByNameCommand,
  ListResourceRecordSetsCommand,
} from '@aws-sdk/client-route-53';
import { UpdateDomainNameserversCommand } from '@aws-sdk/client-route-53-domains';
import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetAccountCommand,
  GetEmailIdentityCommand,
  PutAccountDetailsCommand,
} from '@aws-sdk/client-sesv2';
import { paginateListSubscriptionsByTopic, type Subscription, SubscribeCommand } from '@aws-sdk/client-sns';
import { PutParameterCommand } from '@aws-sdk/client-ssm';
import { bootstrapNames } from '../../lib/github-deploy-stack';
import { emptyAndDeleteBucket } from '../destroy/bucket';
import { errorName, errorText, isStackMissing } from '../kit/aws';
import { stackOutputs } from '../kit/stack-outputs';
import { STACK_OUTPUT_KEYS } from '../../shared/stack-output-keys';
import { ensureExecutionPolicy, executionPolicyArn, executionPolicyState, partitionOf } from './execution-policy';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type DomainConfig,
  deployReadinessProblems,
  isEmail,
  isRoute53Domain,
  RECAPTCHA_TEST_SITE_KEY,
  REPO_ROOT,
} from '../../config/portfolio-config';
import { RECAPTCHA_SITE_KEY_PATTERN } from '../../../contract/settings';
import { AWS_REGION_PATTERN } from '../../config/patterns';
import {
  checkBootstrap,
  checkCertificate,
  checkCredentials,
  checkDelegation,
  checkHostedZone,
  checkOwner,
  checkRecaptchaParameter,
  checkSender,
  checkSesRegion,
  stackRegions,
} from '../doctor/checks';
import type { CheckResult } from '../report';
import { portfolioBlockHas } from './cdk-json';
import { SetupError, type SetupContext, type StepResult } from './context';

export interface Step {
  id: string;
  run(ctx: SetupContext): Promise<StepResult[]>;
}

const isAddress = (identity: string) => identity.includes('@');
const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/** An AWS refusal as one line naming the IAM action that was missing. */
export function awsFailure(action: string, error: unknown): SetupError {
  if (/AccessDenied|UnauthorizedOperation|not authorized/i.test(errorText(error))) {
    return new SetupError(`${action}: access denied; let these credentials call ${action}, then run npm run setup again`);
  }
  return new SetupError(`${action} failed (${errorText(error)})`);
}
async function call<T>(action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw awsFailure(action, error);
  }
}

const result = (step: string, outcome: StepResult['outcome'], detail: string, waitingOn?: string): StepResult => ({
  step,
  outcome,
  detail,
  ...(waitingOn ? { waitingOn } : {}),
});

/** Since when a wait lasts: a date the account gives, or plainly why none is known. */
type Since = Pick<StepResult, 'since' | 'sinceUnknown'>;
const sinceDate = (date: Date | undefined, unknown: string): Since =>
  date instanceof Date && !Number.isNaN(date.getTime()) ? { since: date.toISOString() } : { sinceUnknown: unknown };
/** A wait that starts with this run (a change just made, or the owner's "not now"). */
const fromNow = (ctx: SetupContext): Since => ({ since: new Date(ctx.deps.now()).toISOString() });
const waiting = (step: string, detail: string, waitingOn: string, since: Since): StepResult => ({ ...result(step, 'waiting', detail, waitingOn), ...since });

/** The change a failed check calls for: shown with its cost, asked, applied, then the check runs again. */
interface Plan {
  change: string;
  cost: string;
  consentId: string;
  apply: () => Promise<unknown>;
  optional?: boolean;
}

async function applyPlan(ctx: SetupContext, step: string, plan: Plan): Promise<boolean> {
  ctx.print(`${step}: ${plan.change}\n  cost: ${plan.cost}`);
  if (!(await ctx.consent(plan.consentId, `${plan.change}?`, { optional: plan.optional }))) return false;
  await plan.apply();
  return true;
}

/* ── 1. credentials ─────────────────────────────────────────────────────── */

export const credentialsStep: Step = {
  id: 'credentials',
  async run(ctx) {
    const credentials = await checkCredentials(ctx.clients.sts);
    if (!credentials.ok) {
      const { detail, fix } = credentials.result;
      throw new SetupError(`${detail.replace(/`?npm run doctor`? again/, 'npm run setup again')}${fix ? ` ${fix.replace('npm run doctor', 'npm run setup')}` : ''}`);
    }
    ctx.account = credentials.account;
    ctx.arn = credentials.result.detail.replace(/^account \d+ as /, '');
    if (ctx.options.expectAccount && ctx.options.expectAccount !== ctx.account) {
      throw new SetupError(
        `account ${ctx.account} is not the expected ${ctx.options.expectAccount} (--expect-account): switch credentials (e.g. export AWS_PROFILE=NAME) and run again`,
      );
    }
    return [result('AWS credentials', 'ready', credentials.result.detail)];
  },
};

/* ── 2. the owner's addresses (the doctor's Configuration row) ─────────── */

const mailAnswer = (value: string) =>
  !isEmail(value)
    ? `"${value}" is not an e-mail address`
    : /(^|[.@])(example\.(com|org|net)|[a-z0-9-]+\.(example|test|invalid|localhost))$/i.test(value)
      ? `"${value}" is an example address; give your real one`
      : undefined;

export const addressesStep: Step = {
  id: 'addresses',
  async run(ctx) {
    const problems = deployReadinessProblems(ctx.config).filter((p) => /^portfolio\.(ownerEmail|senderEmail):/.test(p));
    if (problems.length === 0) return [result('Addresses', 'ready', `owner ${ctx.config.ownerEmail}, sender ${ctx.config.senderEmail}`)];
    const changes: Record<string, unknown> = {};
    if (problems.some((p) => p.startsWith('portfolio.ownerEmail'))) {
      changes.ownerEmail = await ctx.ask('owner-email', { message: 'Your address (receives the contact messages and the alarms)', validate: mailAnswer });
    }
    if (problems.some((p) => p.startsWith('portfolio.senderEmail'))) {
      changes.senderEmail = await ctx.ask('sender-email', {
        message: 'The From address of the contact mails (an address or domain you control)',
        validate: mailAnswer,
      });
      // An old senderIdentity belonged to the example address.
      changes.senderIdentity = undefined;
    }
    await ctx.writeConfig(changes);
    return [result('Addresses', 'changed', `owner ${ctx.config.ownerEmail}, sender ${ctx.config.senderEmail} (cdk.json)`)];
  },
};

/* ── 3. region ──────────────────────────────────────────────────────────── */

/**
 * Regions offered first, each listed as an SES API endpoint in AWS General Reference, "Amazon Simple
 * Email Service endpoints and quotas" (https://docs.aws.amazon.com/general/latest/gr/ses.html), which
 * lists more: "another region" takes any name, and the account itself is then asked whether SES answers
 * there (the list is a shortcut, never the judge).
 */
export const SES_REGIONS = ['us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'af-south-1', 'ap-south-1', 'ap-south-2', 'ap-southeast-3', 'ap-northeast-3', 'eu-west-1'] as const;
const OTHER_REGION = 'other';

export const regionStep: Step = {
  id: 'region',
  async run(ctx) {
    let check = await checkSesRegion(ctx.clients.sesv2, ctx.config.region);
    if (check.account) return [result('SES in region', 'ready', check.result.detail)];
    if (!/not offered/.test(check.result.detail)) throw new SetupError(`${check.result.detail}: ${check.result.fix}`);
    ctx.print(`SES in region: ${check.result.detail}`);
    let region: string = await ctx.choose(
      {
        id: 'region',
        message: `SES is not offered in ${ctx.config.region}; the stack's region`,
        options: [...SES_REGIONS.map((r) => ({ value: r, label: r })), { value: OTHER_REGION, label: 'another region (type its name)' }],
      },
      'region',
    );
    if (region === OTHER_REGION) {
      region = (
        await ctx.deps.prompter.text({
          id: 'region-other',
          message: 'The region (e.g. eu-central-1); setup then asks AWS whether SES answers there',
          validate: (v) => (AWS_REGION_PATTERN.test(v.trim()) ? undefined : `"${v}" is not a region name such as eu-central-1`),
        })
      ).trim();
    }
    check = await checkSesRegion(ctx.deps.clients(region).sesv2, region);
    if (!check.account) throw new SetupError(`region ${region}: ${check.result.detail}; pick one of ${SES_REGIONS.join(', ')} or another SES region`);
    await ctx.writeConfig({ region });
    return [result('SES in region', 'changed', `region ${region} (cdk.json): ${check.result.detail}`)];
  },
};

/* ── 4. CDK bootstrap ───────────────────────────────────────────────────── */

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

const BOOTSTRAP_COST = "CDK's bootstrap stack: an S3 bucket and an ECR repository for deploy assets, IAM roles, an SSM parameter; only stored assets are billed";

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
 * cdk bootstrap with the scoped execution policy in place of AdministratorAccess (created or brought up
 * to date first: the template takes existing policy ARNs).
 */
async function bootstrap(ctx: SetupContext, region: string): Promise<void> {
  const target = `aws://${ctx.account}/${region}`;
  const { arn } = await call('iam:CreatePolicyVersion', () => ensureExecutionPolicy(ctx.clients.iam, fenceScope(ctx, region)));
  const status = ctx.deps.runCdk(['bootstrap', target, '--cloudformation-execution-policies', arn]);
  if (status !== 0) throw new SetupError(`cdk bootstrap ${target} failed (exit ${status}); its output above says why`);
}

/**
 * The execution policies the bootstrap stack was given (its CloudFormationExecutionPolicies parameter;
 * empty: the template's default, AdministratorAccess).
 */
function executionPoliciesOf(stack: { Parameters?: { ParameterKey?: string; ParameterValue?: string }[] } | undefined): string {
  return stack?.Parameters?.find((p) => p.ParameterKey === 'CloudFormationExecutionPolicies')?.ParameterValue ?? '';
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
      const policies = executionPoliciesOf(stack);
      if (check.status === 'pass') {
        if (version < pinned || policies !== policy) {
          const why = [
            ...(version < pinned ? [`from version ${version} to ${pinned}`] : []),
            ...(policies !== policy ? [`its CloudFormation execution role from ${policies || 'AdministratorAccess'} to ${policy.split('/').pop()} (no table items, secret, role chains or deploy roles)`] : []),
          ];
          const applied = await applyPlan(ctx, name, {
            change: `update the bootstrap stack in ${region}: ${why.join('; ')} (cdk bootstrap ${target} --cloudformation-execution-policies ${policy})`,
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
        // The bootstrap names the policy; what the policy says follows cdk.json (the stack, the live secret).
        const state = await call('iam:GetPolicyVersion', () => executionPolicyState(ctx.clients.iam, fenceScope(ctx, region)));
        if (state !== 'current') {
          const applied = await applyPlan(ctx, name, {
            change: `${state === 'missing' ? 'create' : 'bring up to date'} ${policy.split('/').pop()}, CloudFormation's execution policy (what cdk.json names now)`,
            cost: 'nothing (IAM is free)',
            consentId: `execution-policy-${region}`,
            apply: async () => void (await call('iam:CreatePolicyVersion', () => ensureExecutionPolicy(ctx.clients.iam, fenceScope(ctx, region)))),
          });
          if (applied) {
            results.push(result(name, 'changed', `${check.detail}; ${policy.split('/').pop()} up to date`));
            continue;
          }
        }
        results.push(result(name, 'ready', `${check.detail}; CloudFormation's role limited by ${policy.split('/').pop()}`));
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
        const yes = ctx.options.deleteFailedBootstrap || (ctx.options.interactive && (await ctx.consent(`delete-cdktoolkit-${region}`, `The CDKToolkit stack in ${region} is ROLLBACK_COMPLETE (its creation failed). Delete it and the staging bucket it left behind, and bootstrap again`)));
        if (!yes) {
          throw new SetupError(
            `CDKToolkit in ${region} is ROLLBACK_COMPLETE: it must be deleted before bootstrapping; answer yes in a terminal or pass --delete-failed-bootstrap`,
          );
        }
        await call('cloudformation:DeleteStack', () => ctx.clients.cloudFormation(region).send(new DeleteStackCommand({ StackName: 'CDKToolkit' })));
        for (let i = 0; i < 120 && (await toolkitStack(ctx, region)); i++) await ctx.deps.sleep(5_000);
        await deleteRetainedStagingBucket(ctx, region);
        await bootstrap(ctx, region);
      } else if (stack) {
        throw new SetupError(`${check.detail}: ${check.fix ?? ''}`);
      } else {
        const applied = await applyPlan(ctx, name, {
          change: `bootstrap CDK in ${region}, CloudFormation's role limited by ${policy.split('/').pop()} (cdk bootstrap ${target} --cloudformation-execution-policies ${policy})`,
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

/* ── 5–6. SES identities ────────────────────────────────────────────────── */

/**
 * The three Easy DKIM records of a domain: `token._domainkey.DOMAIN CNAME token.<SigningHostedZone>`, the
 * zone SES gives the identity (SES API Reference v2, DkimAttributes SigningHostedZone:
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_DkimAttributes.html). It is not the same
 * everywhere: some regions sign from their own DKIM domain, e.g. af-south-1, ap-south-2, ap-southeast-3
 * and ap-northeast-3 (AWS General Reference, "Amazon Simple Email Service endpoints and quotas", Easy
 * DKIM domains: https://docs.aws.amazon.com/general/latest/gr/ses.html). Only an answer without the
 * field falls back to dkim.amazonses.com (SES API Reference, VerifyDomainDkim:
 * https://docs.aws.amazon.com/ses/latest/APIReference/API_VerifyDomainDkim.html).
 */
export function dkimRecords(domain: string, tokens: string[], signingZone = 'dkim.amazonses.com'): { name: string; value: string }[] {
  const zone = bare(signingZone);
  return tokens.map((token) => ({ name: `${token}._domainkey.${domain}`, value: `${token}.${zone}` }));
}

/** The public hosted zone in this account that holds `name` (longest suffix first), if any. */
export async function zoneFor(ctx: SetupContext, name: string): Promise<{ id: string; name: string } | undefined> {
  const labels = bare(name).split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const suffix = labels.slice(i).join('.');
    const answer = await call('route53:ListHostedZonesByName', () =>
      ctx.clients.route53.send(new ListHostedZonesByNameCommand({ DNSName: suffix, MaxItems: 10 })),
    );
    const zone = (answer.HostedZones ?? []).find((z) => bare(z.Name ?? '') === suffix && z.Config?.PrivateZone !== true);
    if (zone) return { id: (zone.Id ?? '').replace('/hostedzone/', ''), name: suffix };
  }
  return undefined;
}

/**
 * SES mails an address a link that is valid for 24 hours; after that the identity is FAILED and must be
 * created again. Source: SES API Reference, GetIdentityVerificationAttributes ("If the link is not clicked
 * within 24 hours, the verification status changes to Failed"):
 * https://docs.aws.amazon.com/ses/latest/APIReference/API_GetIdentityVerificationAttributes.html
 */
const LINK_HOURS = 24;
/**
 * SES looks for the DKIM records for up to 72 hours. Source: SES API Reference, VerifyDomainDkim
 * ("This detection process might take up to 72 hours"):
 * https://docs.aws.amazon.com/ses/latest/APIReference/API_VerifyDomainDkim.html
 */
const DKIM_HOURS = 72;

/**
 * The tag setup puts on an identity it creates, holding when (ISO 8601): SES keeps no creation date for
 * an identity, but CreateEmailIdentity takes Tags and GetEmailIdentity returns them (SES API Reference v2,
 * CreateEmailIdentity "Tags" and GetEmailIdentity "Tags"):
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_CreateEmailIdentity.html
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_GetEmailIdentity.html
 */
export const CREATED_TAG = 'portfolio:setup-created-at';

async function identityState(ctx: SetupContext, identity: string) {
  try {
    const r = await ctx.clients.sesv2.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
    const tagged = r.Tags?.find((t) => t.Key === CREATED_TAG)?.Value;
    return {
      found: true,
      status: r.VerificationStatus ?? 'PENDING',
      dkim: r.DkimAttributes?.Status ?? 'NOT_STARTED',
      tokens: r.DkimAttributes?.Tokens ?? [],
      signingZone: r.DkimAttributes?.SigningHostedZone,
      createdAt: tagged ? new Date(tagged) : undefined,
      // "[Easy DKIM] The last time a key pair was generated for this identity" (SES API Reference v2,
      // DkimAttributes LastKeyGenerationTimestamp): https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_DkimAttributes.html
      dkimKeyAt: r.DkimAttributes?.LastKeyGenerationTimestamp,
    };
  } catch (error) {
    if (errorName(error) === 'NotFoundException') return { found: false, status: 'NOT_FOUND', dkim: 'NOT_STARTED', tokens: [] as string[], signingZone: undefined, createdAt: undefined, dkimKeyAt: undefined };
    throw awsFailure('ses:GetEmailIdentity', error);
  }
}

/** Domain identities whose DKIM records this run wrote into a zone (so the domain step does not write them twice). */
const dkimWritten = new WeakMap<SetupContext, Set<string>>();

/** The records not yet in the zone with that value (read first, so a re-run while SES looks writes nothing). */
async function missingRecords(ctx: SetupContext, zoneId: string, records: { name: string; value: string }[]) {
  const missing = [];
  for (const r of records) {
    const answer = await call('route53:ListResourceRecordSets', () =>
      ctx.clients.route53.send(new ListResourceRecordSetsCommand({ HostedZoneId: zoneId, StartRecordName: r.name, StartRecordType: 'CNAME', MaxItems: 1 })),
    );
    const found = answer.ResourceRecordSets?.[0];
    const same = found && bare(found.Name ?? '') === bare(r.name) && found.Type === 'CNAME' && (found.ResourceRecords ?? []).some((v) => bare(v.Value ?? '') === bare(r.value));
    if (!same) missing.push(r);
  }
  return missing;
}

/** Writes (after a yes) the DKIM CNAMEs the zone lacks; false when the owner said no. */
async function writeDkimRecords(
  ctx: SetupContext,
  step: string,
  identity: string,
  zone: { id: string; name: string },
  records: { name: string; value: string }[],
): Promise<boolean> {
  const missing = await missingRecords(ctx, zone.id, records);
  const applied =
    missing.length === 0 ||
    (await applyPlan(ctx, step, {
      change: `write ${missing.length} DKIM CNAME record${missing.length > 1 ? 's' : ''} of ${identity} into the Route 53 zone ${zone.name}`,
      cost: 'nothing beyond the hosted zone (docs/deploy.md, "What it costs a month")',
      consentId: `dkim-records-${identity}`,
      apply: () =>
        call('route53:ChangeResourceRecordSets', () =>
          ctx.clients.route53.send(
            new ChangeResourceRecordSetsCommand({
              HostedZoneId: zone.id,
              ChangeBatch: {
                Comment: `SES DKIM for ${identity} (npm run setup)`,
                Changes: missing.map((r) => ({
                  Action: 'UPSERT' as const,
                  ResourceRecordSet: { Name: r.name, Type: 'CNAME' as const, TTL: 1800, ResourceRecords: [{ Value: r.value }] },
                })),
              },
            }),
          ),
        ),
    }));
  if (applied) dkimWritten.set(ctx, new Set([...(dkimWritten.get(ctx) ?? []), identity]));
  return applied;
}

const inZone = (name: string, zone: string) => name === zone || name.endsWith(`.${zone}`);

/**
 * The Route 53 zone the domain step sets up later in this run that will hold `identity`, when there is
 * none yet: the configured domain's zone, or the one --domain/--hosted-zone-name (or their variables) name.
 */
function zoneToCome(ctx: SetupContext, identity: string): string | undefined {
  const configured = isRoute53Domain(ctx.config.domain) ? ctx.config.domain.hostedZoneName : undefined;
  const wanted = ctx.options.answers.domain ?? ctx.options.env.SETUP_DOMAIN;
  const named = ctx.options.answers['hosted-zone-name'] ?? ctx.options.env.SETUP_HOSTED_ZONE_NAME;
  const zone = configured ?? (wanted && !ctx.options.externalDns && named ? bare(named) : undefined);
  return zone && inZone(bare(identity), zone) ? zone : undefined;
}

/** After the domain step made or found the zone: the DKIM records of a domain sender inside it, unless written already. */
async function dkimIntoNewZone(ctx: SetupContext, zone: { id: string; name: string }): Promise<StepResult[]> {
  const identity = ctx.config.senderIdentity;
  if (isAddress(identity) || !inZone(bare(identity), zone.name) || dkimWritten.get(ctx)?.has(identity)) return [];
  const state = await identityState(ctx, identity);
  if (!state.found || state.dkim === 'SUCCESS' || state.dkim === 'FAILED' || state.tokens.length === 0) return [];
  if (!(await writeDkimRecords(ctx, 'SES sender', identity, zone, dkimRecords(identity, state.tokens, state.signingZone)))) {
    return [result('SES sender', 'waiting', `${identity}: DKIM records not written (your answer)`, 'you: run npm run setup again to write them')];
  }
  return [result('SES sender', 'changed', `${identity}: DKIM records in the zone ${zone.name} (SES checks them, up to ${DKIM_HOURS} h)`)];
}

/**
 * Why a FAILED identity is deleted and created again: SES does not look again by itself. A domain's
 * FAILED DKIM status means SES "was unable to detect the DNS records within 72 hours" and an address's
 * that the mail "was not acknowledged within 24 hours" (SES Developer Guide, "Managing identities in
 * Amazon SES", status Failure): https://docs.aws.amazon.com/ses/latest/dg/managing-identities.html; when DKIM is
 * revoked "you must restart the DKIM set-up procedure from the beginning" (SES Developer Guide,
 * "Troubleshooting DKIM problems"): https://docs.aws.amazon.com/ses/latest/dg/troubleshoot-dkim.html.
 * SES API v2 has no retry call: CreateEmailIdentity "Starts the process of verifying an email identity"
 * (and gives a domain a new set of DKIM tokens), DeleteEmailIdentity removes one:
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_CreateEmailIdentity.html
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_DeleteEmailIdentity.html
 * Delete then create is safe to interrupt: a run that finds no identity creates it.
 */
function restartText(identity: string): { why: string; change: string } {
  return isAddress(identity)
    ? {
        why: `${identity}: the link in SES's mail was not clicked within ${LINK_HOURS} h (FAILED) and SES sends no other by itself; deleting and re-creating the identity sends a new one`,
        change: `re-create the SES identity ${identity} (delete, create; AWS mails it a new link, valid ${LINK_HOURS} h)`,
      }
    : {
        why: `${identity}: SES did not find its DKIM records within ${DKIM_HOURS} h (FAILED) and does not look again by itself; deleting and re-creating the identity restarts the check, with three new DKIM records`,
        change: `restart the DKIM verification of ${identity} (delete and re-create the SES domain identity; new DKIM tokens, new CNAME records)`,
      };
}

/** Creates (or, after a failed verification, re-creates) an identity; a domain's DKIM records go into its zone when it is here. */
async function ensureIdentity(ctx: SetupContext, step: string, identity: string): Promise<StepResult> {
  let state = await identityState(ctx, identity);
  const failed = state.found && (isAddress(identity) ? state.status === 'FAILED' : state.dkim === 'FAILED');
  if (!state.found || failed) {
    const restart = failed ? restartText(identity) : undefined;
    if (restart) ctx.print(`${step}: ${restart.why}`);
    const applied = await applyPlan(ctx, step, {
      change:
        restart?.change ??
        (isAddress(identity)
          ? `create the SES identity ${identity} (AWS mails it a link, valid ${LINK_HOURS} h)`
          : `create the SES domain identity ${identity} (three DKIM CNAME records to publish)`),
      cost: 'nothing for the identity; SES bills per mail sent (docs/deploy.md, "What it costs a month")',
      consentId: failed ? (isAddress(identity) ? `recreate-identity-${identity}` : `restart-dkim-${identity}`) : `create-identity-${identity}`,
      apply: async () => {
        if (failed) {
          await call('ses:DeleteEmailIdentity', async () => {
            try {
              await ctx.clients.sesv2.send(new DeleteEmailIdentityCommand({ EmailIdentity: identity }));
            } catch (error) {
              if (errorName(error) !== 'NotFoundException') throw error;
            }
          });
        }
        await call('ses:CreateEmailIdentity', () =>
          ctx.clients.sesv2.send(
            new CreateEmailIdentityCommand({ EmailIdentity: identity, Tags: [{ Key: CREATED_TAG, Value: new Date(ctx.deps.now()).toISOString() }] }),
          ),
        );
      },
    });
    if (!applied) {
      return failed
        ? waiting(step, `${identity}: verification FAILED, not restarted (your answer)`, 'you: run npm run setup again and answer yes to restart it', fromNow(ctx))
        : waiting(step, `${identity} is not an SES identity (your answer)`, 'you: run npm run setup again to create it', fromNow(ctx));
    }
    state = await identityState(ctx, identity);
  }
  const notOurs = 'the identity was not created by npm run setup, and SES keeps no creation date';
  if (isAddress(identity)) {
    if (state.status === 'SUCCESS') return result(step, 'changed', `${identity} verified`);
    return waiting(
      step,
      `${identity}: verification mail sent`,
      `you: click the link in the mail to ${identity} within ${LINK_HOURS} h, then run npm run setup again`,
      sinceDate(state.createdAt, notOurs),
    );
  }
  const dkimSince = sinceDate(state.dkimKeyAt ?? state.createdAt, notOurs);
  const records = dkimRecords(identity, state.tokens, state.signingZone);
  const listing = records.map((r) => `${r.name} CNAME ${r.value}`).join('; ');
  if (state.dkim === 'SUCCESS') return result(step, 'changed', `${identity} verified (DKIM)`);
  const zone = await zoneFor(ctx, identity);
  if (zone && records.length > 0) {
    if (!(await writeDkimRecords(ctx, step, identity, zone, records))) {
      return waiting(step, `${identity}: DKIM records not written (your answer)`, 'you: run npm run setup again to write them', dkimSince);
    }
    return waiting(step, `${identity}: DKIM records in the zone ${zone.name}`, `AWS: SES checks them (up to ${DKIM_HOURS} h)`, dkimSince);
  }
  const coming = zoneToCome(ctx, identity);
  if (coming && records.length > 0) {
    // The domain step below creates (or finds) that zone in this run and writes the records there.
    return waiting(
      step,
      `${identity}: DKIM records go into the Route 53 zone ${coming} (set up below)`,
      `AWS: SES checks them once they are there (up to ${DKIM_HOURS} h)`,
      dkimSince,
    );
  }
  return waiting(step, `${identity}: DKIM ${state.dkim}`, `you: publish at your DNS host ${listing} (SES looks for up to ${DKIM_HOURS} h)`, dkimSince);
}

export const senderStep: Step = {
  id: 'sender',
  async run(ctx) {
    const check = await guarded(() => checkSender(ctx.clients.sesv2, ctx.config));
    if (check.status === 'pass') return [result('SES sender', 'ready', check.detail)];
    const domainVerified = /but its domain (\S+) is verified/.exec(check.detail)?.[1];
    if (domainVerified) {
      await ctx.writeConfig({ senderIdentity: domainVerified });
      return [result('SES sender', 'changed', `sending as ${ctx.config.senderEmail} through the verified domain ${domainVerified} (cdk.json)`)];
    }
    return [await ensureIdentity(ctx, 'SES sender', ctx.config.senderIdentity)];
  },
};

async function guarded(run: () => Promise<CheckResult>): Promise<CheckResult> {
  try {
    return await run();
  } catch (error) {
    throw awsFailure('ses:GetEmailIdentity', error);
  }
}

async function sesAccount(ctx: SetupContext) {
  return call('ses:GetAccount', () => ctx.clients.sesv2.send(new GetAccountCommand({})));
}

export const ownerStep: Step = {
  id: 'owner',
  async run(ctx) {
    const sandbox = (await sesAccount(ctx)).ProductionAccessEnabled !== true;
    const check = await guarded(() => checkOwner(ctx.clients.sesv2, ctx.config, sandbox));
    if (check.status === 'pass') return [result('SES owner', 'ready', check.detail)];
    return [await ensureIdentity(ctx, 'SES owner', ctx.config.ownerEmail)];
  },
};

/* ── 7. production access (opt-in) ──────────────────────────────────────── */

/**
 * What AWS asks of a production access request, answered for this site. The SESv2 model marks
 * PutAccountDetails' UseCaseDescription "optional and deprecated", so the reviewer may never read it
 * there: it is still sent, the owner's address is added as a contact for the review
 * (AdditionalContactEmailAddresses), and setup prints the text to give AWS when the review asks.
 */
export function useCaseText(siteUrl: string, owner: string): string {
  return [
    `How often and what: the contact form of the personal portfolio ${siteUrl} mails its owner (${owner}) one message per visitor submission, a few a month; no marketing, no lists.`,
    'Recipients: only the site owner\'s own address; visitors are never mailed, so no list is kept or bought.',
    'Bounces and complaints: SES delivery, bounce and complaint events go to the site\'s archive and alarms; a failed mail is retried from the archive, never resent to a bouncing address.',
    'Unsubscribe: not applicable, the only recipient is the owner.',
  ].join('\n');
}

/**
 * What production access changes, shown before the question. The sandbox, per region: mail only to
 * verified addresses, at most 200 messages in 24 hours and 1 a second; production access lifts the
 * recipient limit; "The AWS Support team provides an initial response to your request within 24 hours",
 * and the details cannot be edited until the review is complete. Source: SES Developer Guide, "Request
 * production access (Moving out of the Amazon SES sandbox)":
 * https://docs.aws.amazon.com/ses/latest/dg/request-production-access.html
 */
export const PRODUCTION_ACCESS_NOTE = [
  'SES production access (optional): in the sandbox SES mails only verified addresses (at most 200 a day, 1 a second), which',
  'is enough here: the site mails only you. Production access lets SES mail any address. AWS reviews the request (a',
  'case in the Support Center; a first answer within about a day) and it cannot be edited while the review runs.',
].join('\n  ');

/** The review's state has no date: ReviewDetails holds only Status and CaseId (SES API Reference v2, ReviewDetails). */
const REVIEW_NO_DATE = 'SES keeps no date for the request (its review has a status and a case id only); the Support Center case shows it';

export const productionAccessStep: Step = {
  id: 'production-access',
  async run(ctx) {
    const account = await sesAccount(ctx);
    if (account.SendingEnabled === false) {
      throw new SetupError(`SES sending is paused for this account in ${ctx.config.region}: SES console → Account dashboard says why`);
    }
    if (account.ProductionAccessEnabled === true) return [result('SES sending', 'ready', 'production access')];
    const review = account.Details?.ReviewDetails;
    const caseId = review?.CaseId ? ` (case ${review.CaseId})` : '';
    // Review statuses: SES API Reference, ReviewDetails: https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_ReviewDetails.html
    if (review?.Status === 'PENDING') {
      return [
        waiting('SES sending', `sandbox; production access review PENDING${caseId}, not asked again`, 'AWS: the review (a first answer within about a day)', {
          sinceUnknown: REVIEW_NO_DATE,
        }),
      ];
    }
    if (review?.Status === 'DENIED') {
      return [result('SES sending', 'ready', `sandbox; production access DENIED${caseId}: the sandbox still mails the verified owner (answer the case in the Support Center)`)];
    }
    // The owner's answer: the flag, else cdk.json's sesProductionAccess; asked once in a terminal, and a "no" is kept there.
    let wanted = ctx.options.requestProductionAccess || ctx.config.sesProductionAccess === true;
    let consented = false;
    if (!wanted && ctx.config.sesProductionAccess === undefined && ctx.options.interactive) {
      ctx.print(`  ${PRODUCTION_ACCESS_NOTE}`);
      // Opt-in: Enter alone keeps the sandbox.
      wanted = await ctx.consent('request-production-access', `Ask AWS for SES production access in ${ctx.config.region} (cost: nothing; SES bills per mail sent)`, { initial: false });
      await ctx.writeConfig({ sesProductionAccess: wanted });
      consented = wanted;
    }
    if (!wanted) {
      const hint = 'optional: npm run setup -- --request-production-access';
      const why = ctx.config.sesProductionAccess === false ? `your answer in cdk.json, "sesProductionAccess": false; ${hint}` : hint;
      return [result('SES sending', 'ready', `sandbox: enough for this site, which only mails the verified owner (${why})`)];
    }
    const websiteUrl =
      ctx.options.answers['website-url'] ?? ctx.options.env.SETUP_WEBSITE_URL ?? (ctx.config.siteUrl || undefined) ??
      (await ctx.ask('website-url', { message: "The site's https:// address (AWS reviews it)" }));
    if (!/^https:\/\/[^\s/]+/.test(websiteUrl)) throw new SetupError(`WebsiteURL ${websiteUrl}: must start with https:// (pass --website-url https://…)`);
    const request = () =>
      call('ses:PutAccountDetails', () =>
        ctx.clients.sesv2.send(
          new PutAccountDetailsCommand({
            // Fields: SES API Reference v2, PutAccountDetails (MailType and WebsiteURL required):
            // https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_PutAccountDetails.html
            MailType: 'TRANSACTIONAL',
            WebsiteURL: websiteUrl,
            ContactLanguage: 'EN',
            // Deprecated in the SESv2 model (still accepted); see useCaseText.
            UseCaseDescription: useCaseText(websiteUrl, ctx.config.ownerEmail),
            AdditionalContactEmailAddresses: [ctx.config.ownerEmail],
            ProductionAccessEnabled: true,
          }),
        ),
      );
    const change = `ask AWS for SES production access in ${ctx.config.region} (TRANSACTIONAL mail, ${websiteUrl})`;
    let applied = consented;
    if (consented) {
      ctx.print(`SES sending: ${change}`);
      await request();
    } else {
      applied = await applyPlan(ctx, 'SES sending', { change, cost: 'nothing; SES bills per mail sent', consentId: 'production-access', apply: request });
    }
    if (!applied) return [result('SES sending', 'ready', 'sandbox (production access not requested: your answer)')];
    ctx.print(
      `SES sending: AWS may not read the use case sent with the request; if the review asks (mail to ${ctx.config.ownerEmail}, ` +
        `or the case in the Support Center), answer with:\n${useCaseText(websiteUrl, ctx.config.ownerEmail).replace(/^/gm, '    ')}`,
    );
    return [waiting('SES sending', 'production access requested', 'AWS: the review (its answer comes by mail and in the Support Center)', fromNow(ctx))];
  },
};

/* ── 8. reCAPTCHA ───────────────────────────────────────────────────────── */

/** Where the owner registers the site for a v2 key pair (docs/deploy.md, Prerequisites). */
export const RECAPTCHA_ADMIN_URL = 'https://www.google.com/recaptcha/admin';

async function readSecret(ctx: SetupContext): Promise<string> {
  let secret: string | undefined;
  // Google's test key needs nothing here: the stack stores its public test secret in a parameter of its
  // own (the doctor's check passes), so the live parameter is never overwritten with it.
  if (ctx.options.recaptchaSecretStdin) secret = (await ctx.deps.readStdin()).replace(/\r?\n$/, '');
  else if (ctx.options.env.RECAPTCHA_SECRET !== undefined) secret = ctx.options.env.RECAPTCHA_SECRET;
  else if (ctx.options.interactive) {
    secret = await ctx.deps.prompter.secret({
      id: 'recaptcha-secret',
      message: 'The reCAPTCHA secret key (hidden; stored only in SSM)',
      validate: (v) => (v.trim() === '' ? 'the secret is empty' : undefined),
    });
  } else throw new SetupError('reCAPTCHA secret: no answer without a terminal; set RECAPTCHA_SECRET or pass --recaptcha-secret-stdin');
  if (secret.trim() === '' || secret !== secret.trim()) {
    throw new SetupError('reCAPTCHA secret: empty or with spaces around it; copy the secret key from the reCAPTCHA admin console again');
  }
  return secret;
}

export const recaptchaStep: Step = {
  id: 'recaptcha',
  async run(ctx) {
    const results: StepResult[] = [];
    let keyChanged = false;
    if (ctx.config.recaptchaSiteKey === RECAPTCHA_TEST_SITE_KEY && !ctx.options.trial) {
      const domains = ctx.config.domain ? ctx.config.domain.domainName : ctx.config.siteUrl ? new URL(ctx.config.siteUrl).host : 'your CloudFront domain (the first deploy prints it; add it then)';
      ctx.print(`reCAPTCHA: register the site at ${RECAPTCHA_ADMIN_URL} (v2 "I'm not a robot"), domains: ${domains}`);
      const key = await ctx.ask('recaptcha-site-key', {
        message: 'The reCAPTCHA site key',
        validate: (v) =>
          v === RECAPTCHA_TEST_SITE_KEY
            ? "Google's public test key: the captcha would accept everyone; use your own key, or npm run setup -- --trial"
            : RECAPTCHA_SITE_KEY_PATTERN.test(v)
              ? undefined
              : `"${v}" is not a reCAPTCHA site key (20-100 letters, digits, - or _)`,
      });
      await ctx.writeConfig({ recaptchaSiteKey: key });
      keyChanged = true;
      results.push(result('reCAPTCHA site key', 'changed', 'your own key (cdk.json)'));
    } else {
      results.push(result('reCAPTCHA site key', 'ready', ctx.config.recaptchaSiteKey === RECAPTCHA_TEST_SITE_KEY ? "Google's test key (trial)" : 'your own key'));
    }
    const name = ctx.config.recaptchaSecretParameter;
    const check = await checkRecaptchaParameter(ctx.clients.ssm, ctx.config);
    if (check.status === 'pass' && !keyChanged) {
      results.push(result('reCAPTCHA secret', 'ready', check.detail));
      return results;
    }
    if (check.status !== 'pass' && !/^no SSM parameter/.test(check.detail)) {
      // A String parameter: deleting the owner's parameter is theirs to do.
      throw new SetupError(`${check.detail}: ${check.fix ?? ''}`);
    }
    const overwrite = check.status === 'pass';
    const secret = await readSecret(ctx);
    const applied = await applyPlan(ctx, 'reCAPTCHA secret', {
      change: `${overwrite ? 'overwrite' : 'create'} the SecureString ${name} in ${ctx.config.region} with the site key's secret`,
      cost: 'nothing (standard parameter, AWS-managed key)',
      consentId: overwrite ? 'overwrite-recaptcha-secret' : 'put-recaptcha-secret',
      apply: () =>
        call('ssm:PutParameter', () =>
          ctx.clients.ssm.send(new PutParameterCommand({ Name: name, Type: 'SecureString', Value: secret, Overwrite: overwrite })),
        ),
    });
    if (!applied) {
      results.push(waiting('reCAPTCHA secret', `${name} not written (your answer)`, 'you: run npm run setup again', fromNow(ctx)));
      return results;
    }
    const again = await checkRecaptchaParameter(ctx.clients.ssm, ctx.config);
    if (again.status !== 'pass') throw new SetupError(`reCAPTCHA secret: still ${again.detail}`);
    results.push(result('reCAPTCHA secret', 'changed', `${name} stored (SecureString; the value is not shown)`));
    return results;
  },
};

/* ── 9. domain: hosted zone and delegation ──────────────────────────────── */

const HOST = /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * The CallerReference setup gives a zone it creates ends in the creation time (ms): Route 53 keeps no
 * creation date, but returns "The value that you specified for CallerReference when you created the
 * hosted zone" (Route 53 API Reference, HostedZone): https://docs.aws.amazon.com/Route53/latest/APIReference/API_HostedZone.html
 */
const ZONE_REFERENCE = 'portfolio-setup-';

/** When setup created the zone, from its CallerReference; unknown for a zone made another way. */
async function zoneCreated(ctx: SetupContext, zoneId: string): Promise<Since> {
  const unknown = 'the zone was not created by npm run setup, and Route 53 keeps no creation date';
  try {
    const zone = await ctx.clients.route53.send(new GetHostedZoneCommand({ Id: zoneId }));
    const reference = zone.HostedZone?.CallerReference ?? '';
    const ms = reference.startsWith(ZONE_REFERENCE) ? Number(/-(\d{13})$/.exec(reference)?.[1]) : NaN;
    return sinceDate(Number.isFinite(ms) ? new Date(ms) : undefined, unknown);
  } catch (error) {
    if (errorName(error) === 'NoSuchHostedZone') return { sinceUnknown: 'the zone is gone' };
    throw awsFailure('route53:GetHostedZone', error);
  }
}

async function findOrCreateZone(ctx: SetupContext, zoneName: string): Promise<string> {
  const existing = await zoneFor(ctx, zoneName);
  if (existing?.name === zoneName) return existing.id;
  const applied = await applyPlan(ctx, 'Hosted zone', {
    change: `create the public Route 53 hosted zone ${zoneName}`,
    cost: 'a hosted zone is billed monthly (docs/deploy.md, "What it costs a month")',
    consentId: 'create-hosted-zone',
    apply: async () => {
      // Looked up again just before creating, so a retry never makes a second zone.
      if ((await zoneFor(ctx, zoneName))?.name === zoneName) return;
      await call('route53:CreateHostedZone', () =>
        ctx.clients.route53.send(new CreateHostedZoneCommand({ Name: zoneName, CallerReference: `${ZONE_REFERENCE}${zoneName}-${ctx.deps.now()}` })),
      );
    },
  });
  if (!applied) throw new SetupError(`hosted zone ${zoneName}: not created (your answer); run npm run setup again, or drop --domain`);
  const zone = await zoneFor(ctx, zoneName);
  if (!zone) throw new SetupError(`hosted zone ${zoneName}: created but not found by name; run npm run setup again`);
  return zone.id;
}

/**
 * The token that makes a repeated request (a retry after Ctrl-C) return the same certificate: ACM treats
 * calls with one token within an hour as one request. Source: ACM API Reference, RequestCertificate,
 * IdempotencyToken (as in the AWS SDK for Kotlin reference, "Idempotency tokens time out after one hour"):
 * https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/acm/aws.sdk.kotlin.services.acm.model/-request-certificate-request/idempotency-token.html
 * Letters and digits only, at most 32: a conservative form (the token's own limits were not looked up).
 */
export const idempotencyToken = (domainName: string) => `portfolio${domainName.replace(/[^a-z0-9]/g, '')}`.slice(0, 32);

async function requestCertificate(ctx: SetupContext, domainName: string): Promise<string> {
  let arn = '';
  const applied = await applyPlan(ctx, 'Certificate', {
    change: `request a public certificate for ${domainName} in us-east-1 (validated by a DNS record you publish at your DNS host)`,
    cost: 'nothing (public ACM certificates used by CloudFront are free; docs/deploy.md, "What it costs a month")',
    consentId: 'request-certificate',
    apply: async () => {
      const answer = await call('acm:RequestCertificate', () =>
        ctx.clients.acm.send(new RequestCertificateCommand({ DomainName: domainName, ValidationMethod: 'DNS', IdempotencyToken: idempotencyToken(domainName) })),
      );
      arn = answer.CertificateArn ?? '';
    },
  });
  if (!applied || !arn) throw new SetupError(`certificate for ${domainName}: not requested (your answer); run npm run setup again, or drop --domain`);
  return arn;
}

/** External DNS: wait for the certificate, then (after a deploy) show the record that points the name at CloudFront. */
async function externalDns(ctx: SetupContext, domain: DomainConfig): Promise<StepResult[]> {
  const arn = domain.certificateArn!;
  const check = await checkCertificate(ctx.clients.acm, arn);
  if (check.status !== 'pass') {
    const described = await call('acm:DescribeCertificate', () => ctx.clients.acm.send(new DescribeCertificateCommand({ CertificateArn: arn })));
    const status = described.Certificate?.Status ?? 'UNKNOWN';
    if (status !== 'PENDING_VALIDATION') throw new SetupError(`${check.detail}: ${check.fix ?? ''}`);
    const record = described.Certificate?.DomainValidationOptions?.[0]?.ResourceRecord;
    // ACM adds the validation record to the description a few seconds after the request.
    const what = record ? `publish ${record.Name} ${record.Type} ${record.Value}` : 'run npm run setup again in a minute for the record to publish';
    // CertificateDetail.CreatedAt, "The time at which the certificate was requested" (ACM API Reference):
    // https://docs.aws.amazon.com/acm/latest/APIReference/API_CertificateDetail.html
    const requested = sinceDate(described.Certificate?.CreatedAt, 'ACM gave no request time');
    return [waiting('Certificate', check.detail, `you: at your DNS host, ${what} (ACM then issues it)`, requested)];
  }
  const results = [result('Certificate', 'ready', check.detail)];
  const outputs = await (async () => {
    try {
      return await stackOutputs(ctx.config.stackName, ctx.config.region, ctx.clients.cloudFormation(ctx.config.region));
    } catch (error) {
      throw awsFailure('cloudformation:DescribeStacks', error);
    }
  })();
  const target = outputs?.[STACK_OUTPUT_KEYS.distributionDomain];
  results.push(
    target
      ? result('Site record', 'ready', `at your DNS host: ${domain.domainName} CNAME ${target} (the site answers there once it is published)`)
      : result('Site record', 'skipped', `after the first deploy: then publish ${domain.domainName} CNAME <the distribution's domain>, which npm run setup prints`),
  );
  return results;
}

/** What is wrong with a typed host name (a zone apex cannot be served from another DNS host), else undefined. */
export function domainQuestionProblem(value: string, external: boolean): string | undefined {
  const v = value.trim().toLowerCase().replace(/\.$/, '');
  if (!HOST.test(v)) return `"${value}" is not a host name such as www.your.domain`;
  if (external && v.split('.').length < 3) return `"${v}" is a zone apex: another DNS host cannot point it at CloudFront (a CNAME cannot sit at the apex); use www.${v}`;
  return undefined;
}

/**
 * The owner's choice of a domain, in a terminal: none, a Route 53 zone in this account (found, or created
 * billed monthly), or DNS at another host (setup requests the certificate; a zone apex cannot be used).
 */
async function askDomain(ctx: SetupContext): Promise<{ name: string; external: boolean } | undefined> {
  const kind = await ctx.deps.prompter.select({
    id: 'domain-dns',
    message: 'Serve the site on a domain of yours?',
    options: [
      { value: 'none', label: 'No: on its CloudFront address (you can add a domain later)' },
      { value: 'route53', label: 'Yes, its DNS in Route 53 in this account (setup finds the zone or creates one, billed monthly)' },
      { value: 'external', label: 'Yes, its DNS at another host (setup requests the certificate; you publish two records there)' },
    ],
  });
  if (kind === 'none') return undefined;
  const external = kind === 'external';
  const name = await ctx.ask('domain', {
    message: external ? 'The site\'s host name, not the bare domain (e.g. www.your.domain)' : 'The site\'s host name (e.g. www.your.domain, or your.domain itself)',
    validate: (value) => domainQuestionProblem(value, external),
  });
  return { name: name.toLowerCase().replace(/\.$/, ''), external };
}

export const domainStep: Step = {
  id: 'domain',
  async run(ctx) {
    let wanted = (ctx.options.answers.domain ?? ctx.options.env.SETUP_DOMAIN ?? '').trim().toLowerCase().replace(/\.$/, '');
    if (wanted && !HOST.test(wanted)) throw new SetupError(`--domain ${wanted}: not a host name such as www.example.dev`);
    let external = ctx.options.externalDns;
    // Asked once, in a terminal, while cdk.json has no "domain" key; "domain": null keeps the answer "none".
    if (!wanted && ctx.options.interactive && !portfolioBlockHas('domain')) {
      const answer = await askDomain(ctx);
      if (!answer) {
        await ctx.writeConfig({ domain: null });
        return [result('Domain', 'changed', 'none: the site is served on its CloudFront address (cdk.json: "domain": null; npm run setup -- --domain www.your.domain adds one later)')];
      }
      ({ name: wanted, external } = answer);
    }
    const results: StepResult[] = [];
    if (wanted && wanted !== ctx.config.domain?.domainName) {
      if (external) {
        if (wanted.split('.').length < 3) {
          throw new SetupError(
            `--domain ${wanted} --external-dns: a zone apex cannot point at CloudFront from another DNS host (a CNAME cannot sit at the apex); use www.${wanted}, or a Route 53 zone (drop --external-dns)`,
          );
        }
        const certificateArn = await requestCertificate(ctx, wanted);
        await ctx.writeConfig({ domain: { domainName: wanted, certificateArn } });
        results.push(result('Certificate', 'changed', `requested for ${wanted} (cdk.json: certificateArn)`));
      } else {
        const found = await zoneFor(ctx, wanted);
        const zoneName = found?.name ?? (await ctx.ask('hosted-zone-name', {
          message: `The Route 53 zone to create for ${wanted} (the domain you registered)`,
          validate: (v) => (wanted === v || wanted.endsWith(`.${v}`) ? undefined : `"${wanted}" is not inside the zone "${v}"`),
          initial: wanted.split('.').length > 2 ? wanted.split('.').slice(1).join('.') : wanted,
        }));
        const id = found?.id ?? (await findOrCreateZone(ctx, zoneName));
        await ctx.writeConfig({ domain: { domainName: wanted, hostedZoneId: id, hostedZoneName: zoneName } });
        results.push(result('Hosted zone', 'changed', `${wanted} in the zone ${zoneName} (${id}) (cdk.json)`));
      }
    }
    const domain = ctx.config.domain;
    if (!domain) return [result('Domain', 'skipped', 'none: the site is served on its CloudFront address (npm run setup -- --domain www.your.domain adds one)')];
    // Just requested: its state (the validation record to publish) is the row to show.
    if (!isRoute53Domain(domain)) return externalDns(ctx, domain);
    let zone = await checkHostedZone(ctx.clients.route53, domain);
    if (!zone.nameServers) {
      // A private, foreign or missing zone: the public zone of that name in this account, or a new one.
      ctx.print(`Hosted zone: ${zone.result.detail}`);
      const id = await findOrCreateZone(ctx, domain.hostedZoneName);
      await ctx.writeConfig({ domain: { ...domain, hostedZoneId: id } });
      zone = await checkHostedZone(ctx.clients.route53, { ...domain, hostedZoneId: id });
      if (!zone.nameServers) throw new SetupError(`hosted zone: ${zone.result.detail}`);
      results.push(result('Hosted zone', 'changed', zone.result.detail));
    } else if (results.length === 0) results.push(result('Hosted zone', 'ready', zone.result.detail));
    if (results.some((r) => r.step === 'Hosted zone' && r.outcome === 'changed') && isRoute53Domain(ctx.config.domain)) {
      results.push(...(await dkimIntoNewZone(ctx, { id: ctx.config.domain.hostedZoneId, name: ctx.config.domain.hostedZoneName })));
    }
    const delegation = await checkDelegation(ctx.clients, domain, zone.nameServers);
    if (delegation.status === 'pass') {
      results.push(result('Name servers', 'ready', delegation.detail));
      return results;
    }
    const zoneName = domain.hostedZoneName;
    if (/Route 53 Domains/.test(delegation.detail)) {
      const applied = await applyPlan(ctx, 'Name servers', {
        change: `point ${zoneName} (registered with Route 53 Domains) at the zone's name servers ${zone.nameServers.join(', ')}`,
        cost: 'nothing',
        consentId: 'update-name-servers',
        apply: () =>
          call('route53domains:UpdateDomainNameservers', () =>
            ctx.clients.route53Domains.send(
              new UpdateDomainNameserversCommand({ DomainName: zoneName, Nameservers: zone.nameServers!.map((Name) => ({ Name })) }),
            ),
          ),
      });
      results.push(
        applied
          ? waiting('Name servers', `${zoneName}: name servers updated`, 'DNS: the change spreads (up to 48 h)', fromNow(ctx))
          : waiting('Name servers', delegation.detail, 'you: run npm run setup again to update them', fromNow(ctx)),
      );
      return results;
    }
    results.push(
      waiting(
        'Name servers',
        delegation.detail,
        `you: at your registrar, set the name servers of ${zoneName} to ${zone.nameServers.join(', ')}`,
        // The zone in use now: a private or foreign one in cdk.json was just replaced by this account's public one.
        await zoneCreated(ctx, isRoute53Domain(ctx.config.domain) ? ctx.config.domain.hostedZoneId : domain.hostedZoneId),
      ),
    );
    return results;
  },
};

/* ── 10. alarm mail (after a deploy) ────────────────────────────────────── */

/**
 * SNS drops an e-mail subscription nobody confirmed after 48 hours. Source: AWS What's New, 2023-05-10,
 * "Amazon SNS now supports automatic deletion of unconfirmed subscriptions after 48 hours":
 * https://aws.amazon.com/about-aws/whats-new/2023/05/amazon-sns-automatic-deletion-unconfirmed-subscriptions/
 */
const SNS_CONFIRM_HOURS = 48;

export const alarmStep: Step = {
  id: 'alarm',
  async run(ctx) {
    const cfn = ctx.clients.cloudFormation(ctx.config.region);
    // Both lists come in pages (NextToken): the topic and the owner's subscription may be on any of them.
    const resources: StackResourceSummary[] = [];
    try {
      for await (const page of paginateListStackResources({ client: cfn }, { StackName: ctx.config.stackName })) resources.push(...(page.StackResourceSummaries ?? []));
    } catch (error) {
      if (isStackMissing(error)) {
        return [result('Alarm mail', 'skipped', `after the first deploy (no stack ${ctx.config.stackName} yet)`)];
      }
      throw awsFailure('cloudformation:ListStackResources', error);
    }
    const topic = resources.find((r) => r.ResourceType === 'AWS::SNS::Topic')?.PhysicalResourceId;
    if (!topic) return [result('Alarm mail', 'skipped', `the stack ${ctx.config.stackName} has no alarm topic yet`)];
    const owner = ctx.config.ownerEmail.toLowerCase();
    const subscriptions = await call('sns:ListSubscriptionsByTopic', async () => {
      const all: Subscription[] = [];
      for await (const page of paginateListSubscriptionsByTopic({ client: ctx.clients.sns }, { TopicArn: topic })) all.push(...(page.Subscriptions ?? []));
      return all;
    });
    const mine = subscriptions.find((s) => s.Protocol === 'email' && (s.Endpoint ?? '').toLowerCase() === owner);
    if (mine && mine.SubscriptionArn !== 'PendingConfirmation') return [result('Alarm mail', 'ready', `${owner} receives the alarms`)];
    const pending = `you: confirm the "AWS Notification - Subscription Confirmation" mail to ${owner} (SNS drops it after ${SNS_CONFIRM_HOURS} h)`;
    if (mine) {
      return [waiting('Alarm mail', `${owner}: subscription not confirmed yet`, pending, { sinceUnknown: 'SNS lists a pending subscription without its date' })];
    }
    const applied = await applyPlan(ctx, 'Alarm mail', {
      change: `subscribe ${owner} to the alarm topic again (an unconfirmed subscription is dropped after ${SNS_CONFIRM_HOURS} h)`,
      cost: 'nothing (SNS e-mail)',
      consentId: 'subscribe-alarms',
      apply: () =>
        call('sns:Subscribe', () => ctx.clients.sns.send(new SubscribeCommand({ TopicArn: topic, Protocol: 'email', Endpoint: ctx.config.ownerEmail }))).then(() => undefined),
    });
    if (!applied) return [waiting('Alarm mail', `${owner} is not subscribed (your answer)`, 'you: run npm run setup again', fromNow(ctx))];
    return [waiting('Alarm mail', `${owner}: subscribed, confirmation mail sent`, pending, fromNow(ctx))];
  },
};

/** In the doctor's order. */
export const STEPS: Step[] = [
  credentialsStep,
  addressesStep,
  regionStep,
  bootstrapStep,
  senderStep,
  ownerStep,
  productionAccessStep,
  recaptchaStep,
  domainStep,
  alarmStep,
];
