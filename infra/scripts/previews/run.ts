/**
 * The pull-request previews' bookkeeping, run by .github/workflows/preview.yml and preview-sweep.yml
 * (docs/deploy.md, "Deploy from GitHub"). `tsx infra/scripts/previews/cli.ts <command>`:
 *   gate --pr N       may pull request N deploy its preview? Yes when its stack exists or fewer than
 *                     PREVIEW_LIMIT previews are open; else a comment on the pull request says why.
 *                     Writes allowed=true|false to $GITHUB_OUTPUT.
 *   site-url [--pr N] the site's (or the preview's) address, from cdk.out/outputs.json (the deploy writes it)
 *   comment --pr N --url URL --sha SHA   the sticky comment: the preview's address for this commit
 *   teardown --pr N   waits for a deploy in progress, `npm run destroy -- --stage pr-N --force`, comment
 *   sweep             tears down every preview whose pull request is closed
 * AWS through the credentials the workflow assumed; GitHub through GITHUB_TOKEN and GITHUB_REPOSITORY.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { REPO_ROOT } from '../../config/portfolio-config';
import { PREVIEW_LIMIT, PREVIEW_STAGE_PATTERN, previewLimit, previewStage } from '../../config/previews';
import { awsClient } from '../kit/aws';
import { checkedConfig, runNpmScript } from '../kit/cdk';
import { CommandError, UsageError } from '../kit/command';
import { siteUrlFromOutputsFile } from '../kit/stack-outputs';

export const USAGE = 'Usage: tsx infra/scripts/previews/cli.ts gate --pr N | site-url [--pr N] | comment --pr N --url URL --sha SHA | teardown --pr N | sweep';

/** The hidden line that makes one comment per pull request "sticky": found and edited, never duplicated. */
export const COMMENT_MARKER = '<!-- portfolio-preview -->';

export interface OpenPreview {
  pr: number;
  stackName: string;
  status: string;
}

/** Preview stacks (`<stackName>-pr-N`) that exist, in pull-request order. */
export function openPreviews(stacks: readonly { StackName?: string; StackStatus?: string }[], stackName: string): OpenPreview[] {
  return stacks
    .flatMap((stack) => {
      const name = stack.StackName ?? '';
      if (!name.startsWith(`${stackName}-`) || stack.StackStatus === 'DELETE_COMPLETE') return [];
      const match = PREVIEW_STAGE_PATTERN.exec(name.slice(stackName.length + 1));
      return match ? [{ pr: Number(match[1]), stackName: name, status: stack.StackStatus ?? '' }] : [];
    })
    .sort((a, b) => a.pr - b.pr);
}

export type Gate = { allowed: true } | { allowed: false; reason: string };

/** A pull request whose preview exists may always update it; a new one only below the limit. */
export function gate(pr: number, open: readonly OpenPreview[], limit: number): Gate {
  if (limit === 0) return { allowed: false, reason: 'Previews are off (the repository variable PREVIEW_LIMIT is 0).' };
  if (open.some((p) => p.pr === pr)) return { allowed: true };
  if (open.length < limit) return { allowed: true };
  const list = open.map((p) => `#${p.pr}`).join(', ');
  return {
    allowed: false,
    reason:
      `No preview for this pull request: ${open.length} previews are open (${list}) and the limit is ${limit}. ` +
      `Close one of those pull requests (its preview is removed) and push again, or raise the repository variable ` +
      `PREVIEW_LIMIT (at most ${PREVIEW_LIMIT.max}).`,
  };
}

/** The sticky comment's text for each moment of a preview. */
export function commentBody(
  event: { kind: 'deployed'; url: string; sha: string } | { kind: 'refused'; reason: string } | { kind: 'removed'; stage: string },
): string {
  const lines = [COMMENT_MARKER];
  if (event.kind === 'deployed') {
    lines.push(
      `**Preview:** ${event.url}`,
      '',
      `Built from ${event.sha.slice(0, 7)} and checked by \`npm run smoke\`; messages sent from its contact page reach ` +
        'the owner like the live site\'s. Removed when this pull request closes.',
    );
  } else if (event.kind === 'refused') {
    lines.push(`**Preview:** none. ${event.reason}`);
  } else {
    lines.push(`**Preview:** removed (stage ${event.stage} and its stack are gone).`);
  }
  return lines.join('\n');
}

export interface GitHubApi {
  request(method: 'GET' | 'POST' | 'PATCH', route: string, body?: unknown): Promise<unknown>;
}

/** GitHub's REST API with the workflow's token (GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_TOKEN). */
export function githubFromEnv(env: NodeJS.ProcessEnv = process.env, fetchFn: typeof fetch = fetch): GitHubApi {
  const token = env.GITHUB_TOKEN;
  const repository = env.GITHUB_REPOSITORY;
  if (!token || !repository) throw new CommandError('GITHUB_TOKEN and GITHUB_REPOSITORY must be set (the workflow sets them)');
  const base = `${env.GITHUB_API_URL ?? 'https://api.github.com'}/repos/${repository}`;
  return {
    async request(method, route, body) {
      const response = await fetchFn(`${base}${route}`, {
        method,
        headers: {
          Accept: 'application/vnd.github+json',
          Authorization: `Bearer ${token}`,
          'X-GitHub-Api-Version': '2022-11-28',
          ...(body ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!response.ok) {
        throw Object.assign(new Error(`GitHub answered ${response.status} to ${method} ${route}: ${await response.text()}`), {
          status: response.status,
        });
      }
      return response.json();
    },
  };
}

/** Edits the pull request's marked comment, or posts it when there is none. */
export async function upsertComment(github: GitHubApi, pr: number, body: string): Promise<'created' | 'updated'> {
  for (let page = 1; ; page++) {
    const comments = (await github.request('GET', `/issues/${pr}/comments?per_page=100&page=${page}`)) as {
      id: number;
      body?: string;
      user?: { login?: string };
    }[];
    // The workflow's own comment (GITHUB_TOKEN posts as github-actions[bot]), never someone's quote of it.
    const mine = comments.find((c) => c.user?.login === 'github-actions[bot]' && c.body?.startsWith(COMMENT_MARKER));
    if (mine) {
      await github.request('PATCH', `/issues/comments/${mine.id}`, { body });
      return 'updated';
    }
    if (comments.length < 100) break;
  }
  await github.request('POST', `/issues/${pr}/comments`, { body });
  return 'created';
}

/** Every stack of the region (DescribeStacks without a name lists them, page by page). */
export async function allStacks(client: CloudFormationClient): Promise<Stack[]> {
  const stacks: Stack[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new DescribeStacksCommand({ NextToken: token }));
    stacks.push(...(page.Stacks ?? []));
    token = page.NextToken;
  } while (token);
  return stacks;
}

/** Waits while a stack is mid-operation (a deploy still running when its pull request closed). */
export async function waitUntilSettled(
  describe: () => Promise<string | undefined>,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  { everyMs = 15_000, maxMs = 45 * 60_000 } = {},
): Promise<string | undefined> {
  for (let waited = 0; ; waited += everyMs) {
    const status = await describe();
    if (!status || !status.endsWith('_IN_PROGRESS')) return status;
    if (waited >= maxMs) throw new Error(`the stack is still ${status} after ${maxMs / 60_000} minutes`);
    await sleep(everyMs);
  }
}

/**
 * The previews whose pull request is closed, or gone (404): what the sweep removes. Any other answer
 * keeps the preview, so a GitHub outage never removes an open pull request's preview.
 */
export async function closedPreviews(open: readonly OpenPreview[], github: GitHubApi): Promise<OpenPreview[]> {
  const closed: OpenPreview[] = [];
  for (const preview of open) {
    let state: string | undefined;
    try {
      state = ((await github.request('GET', `/pulls/${preview.pr}`)) as { state?: string }).state;
    } catch (error) {
      if ((error as { status?: number }).status !== 404) {
        console.error(`Pull request #${preview.pr}: ${(error as Error).message}; its preview stays.`);
        continue;
      }
      state = 'gone';
    }
    if (state !== 'open') closed.push(preview);
  }
  return closed;
}

function argValue(argv: readonly string[], flag: string): string {
  const i = argv.indexOf(flag);
  const value = i >= 0 ? argv[i + 1] : undefined;
  if (!value) throw new UsageError(`${flag} is missing`);
  return value;
}

function prArg(argv: readonly string[]): number {
  const value = argValue(argv, '--pr');
  if (!/^[1-9][0-9]*$/.test(value)) throw new UsageError(`--pr is "${value}": a pull request number`);
  return Number(value);
}

/** One of the preview commands, by its first argument. */
export async function previewsCommand(argv: readonly string[]): Promise<number> {
  const [command] = argv;
  // A wrong command is the caller's mistake, told before cdk.json or AWS is read.
  if (!['gate', 'site-url', 'comment', 'teardown', 'sweep'].includes(command ?? '')) {
    throw new UsageError(`unknown command "${command ?? ''}": gate, site-url, comment, teardown or sweep`);
  }
  const config = checkedConfig({ forDeploy: false });
  const cloudformation = () => awsClient(CloudFormationClient, { region: config.region });
  const output = (line: string) => {
    if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `${line}\n`);
    console.log(line);
  };
  const teardown = async (pr: number) => {
    const stage = previewStage(pr);
    const client = cloudformation();
    const stackName = `${config.stackName}-${stage}`;
    const status = await waitUntilSettled(async () => (await allStacks(client)).find((s) => s.StackName === stackName)?.StackStatus);
    const code = status && status !== 'DELETE_COMPLETE' ? runNpmScript('destroy', ['--stage', stage, '--force']) : 0;
    if (code === 0) await upsertComment(githubFromEnv(), pr, commentBody({ kind: 'removed', stage }));
    return code;
  };

  switch (command) {
    case 'gate': {
      const pr = prArg(argv);
      const decision = gate(pr, openPreviews(await allStacks(cloudformation()), config.stackName), previewLimit(process.env.PREVIEW_LIMIT));
      if (!decision.allowed) await upsertComment(githubFromEnv(), pr, commentBody({ kind: 'refused', reason: decision.reason }));
      output(`allowed=${decision.allowed}`);
      return 0;
    }
    case 'site-url': {
      const stackName = argv.includes('--pr') ? `${config.stackName}-${previewStage(prArg(argv))}` : config.stackName;
      const url = siteUrlFromOutputsFile(path.join(REPO_ROOT, 'cdk.out', 'outputs.json'), stackName);
      if (!url) throw new CommandError(`cdk.out/outputs.json has no SiteUrl for ${stackName}`);
      output(`url=${url}`);
      return 0;
    }
    case 'comment': {
      const pr = prArg(argv);
      await upsertComment(githubFromEnv(), pr, commentBody({ kind: 'deployed', url: argValue(argv, '--url'), sha: argValue(argv, '--sha') }));
      return 0;
    }
    case 'teardown':
      return teardown(prArg(argv));
    case 'sweep': {
      const closed = await closedPreviews(openPreviews(await allStacks(cloudformation()), config.stackName), githubFromEnv());
      let failed = 0;
      for (const preview of closed) {
        console.error(`Pull request #${preview.pr} is closed: removing ${preview.stackName}.`);
        if ((await teardown(preview.pr)) !== 0) failed++;
      }
      console.error(`Sweep: ${closed.length} closed preview(s) found, ${failed} could not be removed.`);
      return failed === 0 ? 0 : 1;
    }
    default:
      throw new Error(`no case for the command ${command}`);
  }
}
