/**
 * `npm run github-setup [-- --repo OWNER/NAME] [-- --name-only-subject]`: once per repository, with the
 * owner's own AWS credentials. Deploys the small `<stackName>-GitHub` stack (infra/lib/github-deploy-stack.ts):
 * GitHub's OIDC provider (the account's own when it has one) and the production and preview roles the
 * workflows assume; then prints the repository variables to set. No secret is printed or stored anywhere.
 *  - The repository defaults to the `origin` remote. Which subject its tokens carry (with its numeric ids,
 *    or its names only) is read from GitHub (lookupRepository; GITHUB_TOKEN or GH_TOKEN for a private
 *    repository or one created before 2026-07-15), or given: --owner-id and --repo-id, or
 *    --name-only-subject.
 * Then the repository's own fence (protections.ts): the environment whose reviewer approves each
 * rollback, and a ruleset against tags named like branches; set with the token when it may administer
 * the repository, else printed as `gh api` calls to run.
 * Other arguments go to `cdk deploy` (e.g. --require-approval never).
 */
import { spawnSync } from 'node:child_process';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { REPO_ROOT } from '../../config/portfolio-config';
import { GITHUB_OIDC, githubSetupStackName, type GitHubRepository, parseRepository, subjectPrefix } from '../../lib/deploy-fence';
import { GITHUB_STACK_OUTPUT_KEYS, STACK_OUTPUT_KEYS } from '../../shared/stack-output-keys';
import { awsClient } from '../kit/aws';
import { checkedConfig, runCdk } from '../kit/cdk';
import { CommandError } from '../kit/command';
import { parseFlags } from '../kit/flags';
import { stackOutputs } from '../kit/stack-outputs';
import { applyProtections, type GitHubCall, protectionCommands, ROLLBACK_ENVIRONMENT } from './protections';

export const USAGE =
  'Usage: npm run github-setup [-- --repo OWNER/NAME] [-- --owner-id ID --repo-id ID | --name-only-subject] [-- cdk deploy options]';

export interface SetupArgs {
  repo?: string;
  ownerId?: string;
  repoId?: string;
  nameOnly: boolean;
  rest: string[];
}

const GITHUB_SETUP_FLAGS = {
  repo: { type: 'string' },
  'owner-id': { type: 'string' },
  'repo-id': { type: 'string' },
  'name-only-subject': { type: 'boolean' },
} as const;

/** The command's own flags; every other argument goes to `cdk deploy`. */
export function parseGithubSetupArgs(argv: readonly string[]): SetupArgs {
  const { values, rest } = parseFlags(argv, GITHUB_SETUP_FLAGS, { passThrough: true });
  return {
    repo: values.repo as string | undefined,
    ownerId: values['owner-id'] as string | undefined,
    repoId: values['repo-id'] as string | undefined,
    nameOnly: values['name-only-subject'] === true,
    rest,
  };
}

/** OWNER/NAME of a GitHub remote URL (https or ssh), or undefined for another host. */
export function repositoryFromRemote(url: string): string | undefined {
  const match = /^(?:https:\/\/(?:[^@/]+@)?github\.com\/|git@github\.com:|ssh:\/\/git@github\.com\/)([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(
    url.trim(),
  );
  return match?.[1];
}

export type FetchLike = (
  url: string,
  init?: { headers?: Record<string, string> },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** What GitHub says about the repository that changes what the owner must do (printed by instructions). */
export interface RepositoryFacts {
  readonly private: boolean;
  readonly fork: boolean;
}

/**
 * Repositories created from this day on carry the immutable subject without opting in (GitHub Docs,
 * "OpenID Connect reference", Immutable subject claims: https://docs.github.com/en/actions/reference/security/oidc).
 */
export const IMMUTABLE_SUBJECT_DEFAULT_FROM = '2026-07-15T00:00:00Z';

/**
 * The repository as GitHub spells it, with the subject form its OIDC tokens carry, read from GitHub:
 * the repository (`GET /repos/{owner}/{repo}`: ids, creation date, private, fork) and its OIDC subject
 * settings (`GET /repos/{owner}/{repo}/actions/oidc/customization/sub`, REST API endpoints for GitHub
 * Actions OIDC: https://docs.github.com/en/rest/actions/oidc): `sub_claim_prefix` when GitHub gives it,
 * else `use_immutable_subject`, else the creation date. A customized subject (use_default false) is
 * refused: the roles trust GitHub's default form. configure-aws-credentials fails with "Not authorized to
 * perform sts:AssumeRoleWithWebIdentity" on the wrong form (its README, at the pinned v6.2.3).
 */
export async function lookupRepository(
  repo: string,
  fetchFn: FetchLike,
  token?: string,
): Promise<{ repository: GitHubRepository; facts: RepositoryFacts }> {
  const { owner, name } = parseRepository(repo);
  const headers: Record<string, string> = { Accept: 'application/vnd.github+json', 'User-Agent': 'portfolio-github-setup' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetchFn(`https://api.github.com/repos/${owner}/${name}`, { headers });
  if (!response.ok) {
    throw new CommandError(
      `GitHub answered ${response.status} for ${owner}/${name}` +
        (response.status === 404 ? ' (a private repository needs GITHUB_TOKEN or GH_TOKEN)' : '') +
        `. Or pass the ids yourself: \`gh api repos/${owner}/${name} --jq '"--owner-id \\(.owner.id) --repo-id \\(.id)"'\`.`,
    );
  }
  const body = (await response.json()) as {
    id?: unknown;
    full_name?: unknown;
    owner?: { id?: unknown };
    created_at?: unknown;
    private?: unknown;
    fork?: unknown;
  };
  if (typeof body.id !== 'number' || typeof body.owner?.id !== 'number' || typeof body.full_name !== 'string') {
    throw new CommandError(`GitHub's answer for ${owner}/${name} has no id, owner id or full name`);
  }
  const spelled = parseRepository(body.full_name);
  const facts = { private: body.private === true, fork: body.fork === true };
  const withIds = { ...spelled, ids: { owner: body.owner.id, repository: body.id } };
  const settings = await fetchFn(`https://api.github.com/repos/${owner}/${name}/actions/oidc/customization/sub`, { headers });
  if (settings.ok) {
    const oidc = (await settings.json()) as {
      use_default?: unknown;
      include_claim_keys?: unknown;
      use_immutable_subject?: unknown;
      sub_claim_prefix?: unknown;
    };
    const keys = Array.isArray(oidc.include_claim_keys) ? oidc.include_claim_keys.map(String) : [];
    if (oidc.use_default === false && keys.length > 0 && keys.join(',') !== 'repo,context') {
      throw new CommandError(
        `${body.full_name} customizes its OIDC subject (${keys.join(', ')}); the roles trust GitHub's default form. ` +
          `Go back to it: gh api -X PUT repos/${body.full_name}/actions/oidc/customization/sub -F use_default=true`,
      );
    }
    if (typeof oidc.sub_claim_prefix === 'string' && oidc.sub_claim_prefix !== '') {
      if (oidc.sub_claim_prefix === subjectPrefix(withIds)) return { repository: withIds, facts };
      if (oidc.sub_claim_prefix === subjectPrefix(spelled)) return { repository: spelled, facts };
      throw new CommandError(
        `GitHub gives ${body.full_name} the subject prefix "${oidc.sub_claim_prefix}", which is neither form this setup knows`,
      );
    }
    if (oidc.use_immutable_subject === true) return { repository: withIds, facts };
    if (oidc.use_immutable_subject === false) return { repository: spelled, facts };
  }
  if (typeof body.created_at === 'string' && body.created_at >= IMMUTABLE_SUBJECT_DEFAULT_FROM) return { repository: withIds, facts };
  throw new CommandError(
    `Cannot tell which subject ${body.full_name}'s tokens carry (GitHub answered ${settings.status} for its OIDC settings, ` +
      'which need a token with the repo scope): set GITHUB_TOKEN or GH_TOKEN, or pass --name-only-subject (not opted in to immutable subjects) ' +
      `or --owner-id ${body.owner.id} --repo-id ${body.id} (opted in).`,
  );
}

/** The repository to trust, from the flags, the remote and GitHub (its ids and subject form). */
export async function resolveRepository(
  args: SetupArgs,
  deps: { remoteUrl: () => string | undefined; fetch: FetchLike; token?: string },
): Promise<{ repository: GitHubRepository; facts?: RepositoryFacts }> {
  const remote = deps.remoteUrl();
  const repo = args.repo ?? (remote ? repositoryFromRemote(remote) : undefined);
  if (!repo) throw new CommandError('Which repository? The origin remote is not on github.com: pass --repo OWNER/NAME.');
  if (args.nameOnly) return { repository: parseRepository(repo) };
  if (args.ownerId !== undefined || args.repoId !== undefined) {
    const ids = [args.ownerId, args.repoId].map((id) => (id && /^[1-9][0-9]*$/.test(id) ? Number(id) : NaN));
    if (ids.some(Number.isNaN)) throw new CommandError("--owner-id and --repo-id go together, each GitHub's numeric id");
    return { repository: { ...parseRepository(repo), ids: { owner: ids[0]!, repository: ids[1]! } } };
  }
  return lookupRepository(repo, deps.fetch, deps.token);
}

export interface ExistingProvider {
  arn: string;
  audiences: string[];
}

/**
 * Which provider the stack should hold: undefined to create one (none in the account, or the one this
 * stack created last time, which importing would delete), or the account's to import.
 */
export function providerToImport(
  existing: ExistingProvider | undefined,
  setupOutputs: Record<string, string> | undefined,
): string | undefined {
  if (!existing) return undefined;
  if (setupOutputs?.[GITHUB_STACK_OUTPUT_KEYS.providerOwned] === 'yes') return undefined;
  return existing.arn;
}

/**
 * The repository variables the workflows read, in the order to set them. SITE_URL (the address the
 * deploy's build job bakes into the site, which holds no AWS token to look it up) and PREVIEW_URL come
 * from the live stack's outputs, so they exist once it is deployed.
 */
export function repositoryVariables(
  account: string,
  region: string,
  outputs: Record<string, string>,
  siteOutputs: Record<string, string> | undefined,
): [string, string][] {
  const production = outputs[GITHUB_STACK_OUTPUT_KEYS.productionRole];
  const preview = outputs[GITHUB_STACK_OUTPUT_KEYS.previewRole];
  const bucket = outputs[GITHUB_STACK_OUTPUT_KEYS.previewBucket];
  if (!production || !preview || !bucket)
    throw new CommandError('The setup stack has no ProductionRoleArn, PreviewRoleArn or PreviewBucketName output');
  const site = siteOutputs?.[STACK_OUTPUT_KEYS.siteUrl];
  const previews = siteOutputs?.[STACK_OUTPUT_KEYS.previewUrl];
  return [
    ['AWS_ACCOUNT_ID', account],
    ['AWS_REGION', region],
    ['AWS_PRODUCTION_ROLE_ARN', production],
    ['AWS_PREVIEW_ROLE_ARN', preview],
    ['AWS_PREVIEW_BUCKET', bucket],
    ...(site ? [['SITE_URL', site] as [string, string]] : []),
    ...(previews ? [['PREVIEW_URL', previews] as [string, string]] : []),
  ];
}

/**
 * What the owner does next: the variables (never secrets), and what GitHub's own rules ask of this
 * repository. Workflows do not run in a fork until GitHub Actions are enabled in its Actions tab (GitHub
 * Docs, "Events that trigger workflows", pull_request, workflows in forked repositories:
 * https://docs.github.com/en/actions/reference/workflows-and-actions/events-that-trigger-workflows#pull_request).
 * A private repository may send fork pull requests write tokens, and a fork's pull request carries the
 * same `pull_request` subject the preview role trusts (GitHub Docs, "Approving workflow runs from private
 * forks", the policy "Send write tokens to workflows from pull requests":
 * https://docs.github.com/en/actions/managing-workflow-runs/approving-workflow-runs-from-private-forks).
 */
export function instructions(repository: GitHubRepository, variables: [string, string][], facts?: RepositoryFacts): string {
  const repo = `${repository.owner}/${repository.name}`;
  const lines = [
    `Set these repository variables (GitHub → ${repo} → Settings → Secrets and variables → Actions → Variables),`,
    'or with the GitHub CLI. They are not secrets: no AWS key is stored anywhere.',
    '',
    ...variables.map(([name, value]) => `  gh variable set ${name} --repo ${repo} --body '${value}'`),
    '',
    ...(variables.some(([name]) => name === 'SITE_URL')
      ? []
      : [
          'The live stack is not deployed yet: deploy it once (npm run deploy), then run npm run github-setup again for SITE_URL and PREVIEW_URL.',
          '',
        ]),
    "Production deploys only from main (its role trusts main's own subject); previews are files only, from this repository's pull requests.",
  ];
  if (facts?.fork) {
    lines.push(`This repository is a fork: GitHub runs none of its workflows until you enable Actions (${repo} → Actions).`);
  }
  if (facts?.private) {
    lines.push(
      `Private repository: keep "Send write tokens to workflows from pull requests" off for forks (${repo} → Settings → Actions → General):`,
      "with it on, a fork's pull request could take the preview role (which writes preview files only).",
    );
  }
  return lines.join('\n');
}

/** The account's GitHub provider, through the AWS CLI (a prerequisite of docs/deploy.md). */
export function existingProvider(
  account: string,
  aws: (args: string[]) => { status: number; stdout: string; stderr: string },
): ExistingProvider | undefined {
  const arn = `arn:aws:iam::${account}:oidc-provider/${GITHUB_OIDC.host}`;
  const result = aws(['iam', 'get-open-id-connect-provider', '--open-id-connect-provider-arn', arn, '--output', 'json']);
  if (result.status !== 0) {
    if (/NoSuchEntity/.test(result.stderr)) return undefined;
    throw new CommandError(`aws iam get-open-id-connect-provider failed: ${result.stderr.trim()}`);
  }
  const body = JSON.parse(result.stdout) as { ClientIDList?: string[] };
  return { arn, audiences: body.ClientIDList ?? [] };
}

/** `npm run github-setup`: the stack, then the repository variables to set. */
export async function githubSetupCommand(argv: readonly string[]): Promise<number> {
  const args = parseGithubSetupArgs(argv);
  const config = checkedConfig({ forDeploy: false });
  const token = process.env.GITHUB_TOKEN || process.env.GH_TOKEN;
  const { repository, facts } = await resolveRepository(args, {
    remoteUrl: () => {
      const result = spawnSync('git', ['remote', 'get-url', 'origin'], { cwd: REPO_ROOT, encoding: 'utf8' });
      return result.status === 0 ? result.stdout.trim() : undefined;
    },
    fetch: (url, init) => fetch(url, init),
    token,
  });
  const { Account: account } = await awsClient(STSClient, { region: config.region }).send(new GetCallerIdentityCommand({}));
  if (!account) throw new CommandError('AWS did not say which account these credentials belong to');
  const aws = (awsArgs: string[]) => {
    const result = spawnSync('aws', awsArgs, { encoding: 'utf8' });
    if (result.error) throw new CommandError(`the AWS CLI is needed (docs/deploy.md, "Prerequisites"): ${result.error.message}`);
    return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
  };
  const stackName = githubSetupStackName(config.stackName);
  const provider = existingProvider(account, aws);
  const importArn = providerToImport(provider, await stackOutputs(stackName, config.region));
  if (provider && !provider.audiences.includes(GITHUB_OIDC.audience)) {
    console.error(
      `The account's GitHub provider does not accept the audience ${GITHUB_OIDC.audience}: ` +
        `aws iam add-client-id-to-open-id-connect-provider --open-id-connect-provider-arn ${provider.arn} --client-id ${GITHUB_OIDC.audience}`,
    );
    return 1;
  }
  console.error(
    `Trusting ${repository.owner}/${repository.name}` +
      (repository.ids ? ` (immutable subjects, ids ${repository.ids.owner}/${repository.ids.repository})` : ' (name-only subjects)') +
      `; ${importArn ? `the account's provider ${importArn}` : 'a new GitHub OIDC provider'}.`,
  );
  const context = [
    '-c',
    `github:repository=${repository.owner}/${repository.name}`,
    ...(repository.ids ? ['-c', `github:ownerId=${repository.ids.owner}`, '-c', `github:repositoryId=${repository.ids.repository}`] : []),
    ...(importArn ? ['-c', `github:providerArn=${importArn}`] : []),
  ];
  const status = runCdk(['deploy', stackName, '--app', 'npx tsx infra/bin/github.ts', ...context, ...args.rest], {
    AWS_REGION: config.region,
  });
  if (status !== 0) return status;
  const outputs = await stackOutputs(stackName, config.region);
  const siteOutputs = await stackOutputs(config.stackName, config.region);
  console.log(`\n${instructions(repository, repositoryVariables(account, config.region, outputs ?? {}, siteOutputs), facts)}`);
  console.log(`\n${await protectionReport(repository, token ? githubCall(token) : undefined)}`);
  return 0;
}

/** GitHub's REST API with the owner's token (never printed). */
function githubCall(token: string): GitHubCall {
  return async ({ method, path, body }) => {
    const response = await fetch(`https://api.github.com/${path}`, {
      method,
      headers: { Accept: 'application/vnd.github+json', Authorization: `Bearer ${token}`, 'User-Agent': 'portfolio-github-setup' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json().catch(() => undefined) };
  };
}

/** Sets the repository's fence when it can; says what is left to run otherwise. */
export async function protectionReport(repository: GitHubRepository, call: GitHubCall | undefined): Promise<string> {
  const failed = call ? await applyProtections(repository, call) : ['everything (no GITHUB_TOKEN or GH_TOKEN)'];
  if (failed.length === 0) {
    return `Set on ${repository.owner}/${repository.name}: the environment ${ROLLBACK_ENVIRONMENT} (you approve each rollback) and the ruleset against tags named like branches.`;
  }
  return [
    `Not set on ${repository.owner}/${repository.name}: ${failed.join('; ')}. Until the environment is, Rollback refuses to run.`,
    'Run these as an administrator of the repository (GitHub Free offers required reviewers and rulesets to public repositories only):',
    '',
    protectionCommands(repository),
  ].join('\n');
}
