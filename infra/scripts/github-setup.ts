/**
 * `npm run github-setup [-- --repo OWNER/NAME] [-- --name-only-subject]`: once per repository, with the
 * owner's own AWS credentials. Deploys the small `<stackName>-GitHub` stack (infra/lib/github-deploy-stack.ts):
 * GitHub's OIDC provider (the account's own when it has one) and the production and preview roles the
 * workflows assume; then prints the repository variables to set. No secret is printed or stored anywhere.
 *  - The repository defaults to the `origin` remote. Its numeric ids (immutable OIDC subjects, the default
 *    for repositories created from 2026-07-15) come from GitHub's public API (GITHUB_TOKEN or GH_TOKEN
 *    for a private repository), or from --owner-id and --repo-id.
 *  - --name-only-subject: an older repository that has not opted in to immutable subjects.
 * Other arguments go to `cdk deploy` (e.g. --require-approval never).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { ConfigError, REPO_ROOT } from '../config/portfolio-config';
import { PREVIEW_LIMIT } from '../config/previews';
import { GITHUB_OIDC, githubSetupStackName, type GitHubRepository, parseRepository } from '../lib/github-deploy-stack';
import { checkedConfig, runCdk } from './cdk-cli';
import { stackOutputs } from './stack-outputs';

export interface SetupArgs {
  repo?: string;
  ownerId?: string;
  repoId?: string;
  nameOnly: boolean;
  rest: string[];
}

export function parseSetupArgs(argv: readonly string[]): SetupArgs {
  const args: SetupArgs = { nameOnly: false, rest: [] };
  const value = (flag: string, i: number) => {
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('-')) throw new Error(`${flag} needs a value`);
    return next;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--repo') args.repo = value(arg, i++);
    else if (arg === '--owner-id') args.ownerId = value(arg, i++);
    else if (arg === '--repo-id') args.repoId = value(arg, i++);
    else if (arg === '--name-only-subject') args.nameOnly = true;
    else args.rest.push(arg);
  }
  return args;
}

/** OWNER/NAME of a GitHub remote URL (https or ssh), or undefined for another host. */
export function repositoryFromRemote(url: string): string | undefined {
  const match = /^(?:https:\/\/(?:[^@/]+@)?github\.com\/|git@github\.com:|ssh:\/\/git@github\.com\/)([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(url.trim());
  return match?.[1];
}

export type FetchLike = (url: string, init?: { headers?: Record<string, string> }) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** The repository as GitHub spells it, with its owner's and its own numeric ids (public API; a token for private ones). */
export async function lookupRepository(
  repo: string,
  fetchFn: FetchLike,
  token?: string,
): Promise<Required<GitHubRepository>> {
  const { owner, name } = parseRepository(repo);
  const headers: Record<string, string> = { Accept: 'application/vnd.github+json', 'User-Agent': 'portfolio-github-setup' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetchFn(`https://api.github.com/repos/${owner}/${name}`, { headers });
  if (!response.ok) {
    throw new Error(
      `GitHub answered ${response.status} for ${owner}/${name}` +
        (response.status === 404 ? ' (a private repository needs GITHUB_TOKEN or GH_TOKEN)' : '') +
        `. Or pass the ids yourself: \`gh api repos/${owner}/${name} --jq '"--owner-id \\(.owner.id) --repo-id \\(.id)"'\`.`,
    );
  }
  const body = (await response.json()) as { id?: unknown; full_name?: unknown; owner?: { id?: unknown } };
  if (typeof body.id !== 'number' || typeof body.owner?.id !== 'number' || typeof body.full_name !== 'string') {
    throw new Error(`GitHub's answer for ${owner}/${name} has no id, owner id or full name`);
  }
  return { ...parseRepository(body.full_name), ids: { owner: body.owner.id, repository: body.id } };
}

/** The repository to trust, from the flags, the remote and (for ids) GitHub. */
export async function resolveRepository(
  args: SetupArgs,
  deps: { remoteUrl: () => string | undefined; fetch: FetchLike; token?: string },
): Promise<GitHubRepository> {
  const remote = deps.remoteUrl();
  const repo = args.repo ?? (remote ? repositoryFromRemote(remote) : undefined);
  if (!repo) throw new Error('Which repository? The origin remote is not on github.com: pass --repo OWNER/NAME.');
  if (args.nameOnly) return parseRepository(repo);
  if (args.ownerId !== undefined || args.repoId !== undefined) {
    const ids = [args.ownerId, args.repoId].map((id) => (id && /^[1-9][0-9]*$/.test(id) ? Number(id) : NaN));
    if (ids.some(Number.isNaN)) throw new Error('--owner-id and --repo-id go together, each GitHub\'s numeric id');
    return { ...parseRepository(repo), ids: { owner: ids[0]!, repository: ids[1]! } };
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
export function providerToImport(existing: ExistingProvider | undefined, setupOutputs: Record<string, string> | undefined): string | undefined {
  if (!existing) return undefined;
  if (setupOutputs?.OidcProviderOwned === 'yes') return undefined;
  return existing.arn;
}

/** The repository variables the workflows read, in the order to set them. */
export function repositoryVariables(account: string, region: string, outputs: Record<string, string>): [string, string][] {
  const production = outputs.ProductionRoleArn;
  const preview = outputs.PreviewRoleArn;
  if (!production || !preview) throw new Error('The setup stack has no ProductionRoleArn or PreviewRoleArn output');
  return [
    ['AWS_ACCOUNT_ID', account],
    ['AWS_REGION', region],
    ['AWS_PRODUCTION_ROLE_ARN', production],
    ['AWS_PREVIEW_ROLE_ARN', preview],
  ];
}

/**
 * What the owner does next: the variables (never secrets) and the production environment's branch rule
 * (GitHub REST API, "REST API endpoints for deployment environments" and "… for deployment branch
 * policies": https://docs.github.com/en/rest/deployments/environments, https://docs.github.com/en/rest/deployments/branch-policies).
 */
export function instructions(repository: GitHubRepository, variables: [string, string][]): string {
  const repo = `${repository.owner}/${repository.name}`;
  return [
    `Set these repository variables (GitHub → ${repo} → Settings → Secrets and variables → Actions → Variables),`,
    'or with the GitHub CLI. They are not secrets: no AWS key is stored anywhere.',
    '',
    ...variables.map(([name, value]) => `  gh variable set ${name} --repo ${repo} --body '${value}'`),
    '',
    `Optional: PREVIEW_LIMIT (open previews at once, default ${PREVIEW_LIMIT.default}, at most ${PREVIEW_LIMIT.max}; 0 turns previews off).`,
    '',
    'Then let only main deploy to the production environment (its role trusts that environment):',
    `  gh api -X PUT repos/${repo}/environments/production -F 'deployment_branch_policy[protected_branches]=false' -F 'deployment_branch_policy[custom_branch_policies]=true'`,
    `  gh api -X POST repos/${repo}/environments/production/deployment-branch-policies -f name=main`,
  ].join('\n');
}

/** The account's GitHub provider, through the AWS CLI (a prerequisite of docs/deploy.md). */
export function existingProvider(account: string, aws: (args: string[]) => { status: number; stdout: string; stderr: string }): ExistingProvider | undefined {
  const arn = `arn:aws:iam::${account}:oidc-provider/${GITHUB_OIDC.host}`;
  const result = aws(['iam', 'get-open-id-connect-provider', '--open-id-connect-provider-arn', arn, '--output', 'json']);
  if (result.status !== 0) {
    if (/NoSuchEntity/.test(result.stderr)) return undefined;
    throw new Error(`aws iam get-open-id-connect-provider failed: ${result.stderr.trim()}`);
  }
  const body = JSON.parse(result.stdout) as { ClientIDList?: string[] };
  return { arn, audiences: body.ClientIDList ?? [] };
}

async function main(): Promise<number> {
  const args = parseSetupArgs(process.argv.slice(2));
  const config = checkedConfig({ forDeploy: false });
  const repository = await resolveRepository(args, {
    remoteUrl: () => {
      const result = spawnSync('git', ['remote', 'get-url', 'origin'], { cwd: REPO_ROOT, encoding: 'utf8' });
      return result.status === 0 ? result.stdout.trim() : undefined;
    },
    fetch: (url, init) => fetch(url, init),
    token: process.env.GITHUB_TOKEN || process.env.GH_TOKEN,
  });
  const { Account: account } = await new STSClient({ region: config.region }).send(new GetCallerIdentityCommand({}));
  if (!account) throw new Error('AWS did not say which account these credentials belong to');
  const aws = (awsArgs: string[]) => {
    const result = spawnSync('aws', awsArgs, { encoding: 'utf8' });
    if (result.error) throw new Error(`the AWS CLI is needed (docs/deploy.md, "Prerequisites"): ${result.error.message}`);
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
    '-c', `github:repository=${repository.owner}/${repository.name}`,
    ...(repository.ids ? ['-c', `github:ownerId=${repository.ids.owner}`, '-c', `github:repositoryId=${repository.ids.repository}`] : []),
    ...(importArn ? ['-c', `github:providerArn=${importArn}`] : []),
  ];
  const status = runCdk(['deploy', stackName, '--app', 'npx tsx infra/bin/github.ts', ...context, ...args.rest], { AWS_REGION: config.region });
  if (status !== 0) return status;
  const outputs = await stackOutputs(stackName, config.region);
  console.log(`\n${instructions(repository, repositoryVariables(account, config.region, outputs ?? {}))}`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (status) => process.exit(status),
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : `npm run github-setup failed: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
