/**
 * The steps that decide what reaches production, run as written by bash against a real git history and
 * a fake `gh` (GitHub's answers as JSON files): deploy.yml's gate, rollback.yml's approval and its
 * choice of commit.
 * The history holds what a writer without access to main can push: a branch, a commit on it and a tag
 * named origin/main (or main) on that commit. Each trick is replayed and seen refused; what main
 * deployed before is still redeployed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { scratchDir } from '../../tools/scratch';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REPOSITORY = 'owner/portfolio';

/** The run: script of the step in `job` of a workflow whose script matches `pattern`. */
function stepScript(workflow: string, job: string, pattern: RegExp): string {
  const doc = parse(readFileSync(path.join(ROOT, '.github/workflows', workflow), 'utf8'));
  const step = (doc.jobs[job].steps as { run?: string }[]).find((s) => pattern.test(s.run ?? ''));
  if (!step?.run) throw new Error(`${workflow} jobs.${job} has no step matching ${pattern}`);
  return step.run;
}

let work: string;
const sha: Record<'deployed' | 'head' | 'attacker', string> = { deployed: '', head: '', attacker: '' };

const git = (cwd: string, ...args: string[]) => {
  const result = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
};

/**
 * origin: main with a deployed commit and a newer head; a branch with the attacker's commit, and tags
 * named origin/main and main on it. A clone of it as actions/checkout with fetch-depth: 0 leaves the
 * runner's copy: every branch as refs/remotes/origin/*, every tag.
 */
beforeAll(() => {
  work = scratchDir('production-workflows-');
  const author = path.join(work, 'author');
  mkdirSync(author);
  git(author, 'init', '-q', '-b', 'main');
  const commit = (message: string) => {
    writeFileSync(path.join(author, 'file.txt'), message);
    git(author, 'add', 'file.txt');
    git(author, 'commit', '-q', '-m', message);
    return git(author, 'rev-parse', 'HEAD');
  };
  sha.deployed = commit('deployed before');
  sha.head = commit('main today');
  git(author, 'checkout', '-q', '-b', 'feature');
  sha.attacker = commit('attacker: not on main');
  git(author, 'tag', 'origin/main');
  git(author, 'tag', 'main');
  git(author, 'checkout', '-q', 'main');
  git(work, 'clone', '-q', '--bare', author, 'origin.git');
  git(work, 'clone', '-q', path.join(work, 'origin.git'), 'runner');
});

/** GitHub's answers: api path (with its query) → JSON; a path not listed answers 404. */
type Answers = Record<string, unknown>;

/** A `gh` that answers `gh api PATH [--jq EXPR]` from the answers, as the real one prints them. */
function fakeGh(answers: Answers): string {
  const dir = mkdtempSync(path.join(work, 'gh-'));
  const index: Record<string, string> = {};
  Object.entries(answers).forEach(([apiPath, body], i) => {
    writeFileSync(path.join(dir, `${i}.json`), JSON.stringify(body));
    index[apiPath] = path.join(dir, `${i}.json`);
  });
  writeFileSync(path.join(dir, 'index.json'), JSON.stringify(index));
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(
    path.join(bin, 'gh'),
    `#!/bin/bash
[ "$1" = api ] || { echo "fake gh: only gh api" >&2; exit 2; }
file="$(jq -r --arg p "$2" '.[$p] // empty' '${dir}/index.json')"
[ -n "$file" ] || { echo "gh: Not Found (HTTP 404) $2" >&2; exit 1; }
if [ "$3" = --jq ]; then jq -r "$4" "$file"; else cat "$file"; fi
`,
  );
  chmodSync(path.join(bin, 'gh'), 0o755);
  return bin;
}

interface Ran {
  status: number | null;
  output: string;
  /** What the step wrote to $GITHUB_OUTPUT. */
  outputs: string;
  /** The runner copy's HEAD after the step. */
  head: string;
}

/** Runs a step's script in a fresh copy of the runner's clone, as Actions runs it (bash -e). */
function runStep(script: string, answers: Answers, env: Record<string, string>): Promise<Ran> {
  const cwd = mkdtempSync(path.join(work, 'job-'));
  git(work, 'clone', '-q', path.join(work, 'origin.git'), cwd);
  const outputFile = path.join(cwd, '..', `${path.basename(cwd)}.output`);
  writeFileSync(outputFile, '');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-c', script], {
      cwd,
      env: {
        PATH: `${fakeGh(answers)}:${process.env.PATH}`,
        HOME: work,
        GITHUB_REPOSITORY: REPOSITORY,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: path.join(cwd, '..', `${path.basename(cwd)}.summary`),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({ status, output, outputs: readFileSync(outputFile, 'utf8'), head: git(cwd, 'rev-parse', 'HEAD') }),
    );
  });
}

describe('the deploy gate', () => {
  let script: string;
  beforeAll(() => {
    script = stepScript('deploy.yml', 'gate', /GITHUB_OUTPUT/);
  });
  // A tag named main makes commits/main ambiguous; the branch's own ref is not.
  const answers = () => ({
    [`repos/${REPOSITORY}/git/ref/heads/main`]: { ref: 'refs/heads/main', object: { sha: sha.head, type: 'commit' } },
    [`repos/${REPOSITORY}/commits/main`]: { sha: sha.attacker },
  });

  it('does not deploy the commit of a tag named main, whose CI run says head_branch main', async () => {
    const ran = await runStep(script, answers(), { GH_TOKEN: 'fake', REPOSITORY, TESTED: sha.attacker });
    expect(ran.status).toBe(0);
    expect(ran.outputs).toContain('current=false');
  });

  it('deploys the head of the branch main', async () => {
    const ran = await runStep(script, answers(), { GH_TOKEN: 'fake', REPOSITORY, TESTED: sha.head });
    expect(ran.outputs).toContain('current=true');
  });

  it('deploys nothing when GitHub does not answer', async () => {
    const ran = await runStep(script, {}, { GH_TOKEN: 'fake', REPOSITORY, TESTED: sha.head });
    expect(ran.status).not.toBe(0);
    expect(ran.outputs).not.toContain('current=true');
  });
});

describe("the rollback's approval", () => {
  let script: string;
  beforeAll(() => {
    script = stepScript('rollback.yml', 'approve', /required_reviewers/);
  });
  const environment = (rules: unknown[]) => ({
    [`repos/${REPOSITORY}/environments/production-rollback`]: { name: 'production-rollback', protection_rules: rules },
  });
  const approve = (answers: Answers) => runStep(script, answers, { GH_TOKEN: 'fake', REPOSITORY });

  it('goes on when the environment has a required reviewer (who approved before the job started)', async () => {
    const ran = await approve(environment([{ type: 'required_reviewers', reviewers: [{ type: 'User', reviewer: { login: 'jane' } }] }]));
    expect(ran.status).toBe(0);
  });

  it.each([
    ['an environment GitHub made on first use (no rules)', environment([])],
    ['one with a wait timer only', environment([{ type: 'wait_timer', wait_timer: 5 }])],
    ['one with no reviewer left', environment([{ type: 'required_reviewers', reviewers: [] }])],
    ['no environment at all (GitHub answers 404)', {}],
  ])('refuses %s', async (_what, answers) => {
    const ran = await approve(answers);
    expect(ran.status).not.toBe(0);
  });
});

describe("the rollback's choice of commit", () => {
  let script: string;
  beforeAll(() => {
    script = stepScript('rollback.yml', 'build', /merge-base/);
  });

  /** A Deploy run as GitHub lists it; its deploy job passed unless said otherwise. */
  const deployRun = (id: number, headSha: string, over: Record<string, unknown> = {}, deployJob = 'success'): Answers => ({
    [`repos/${REPOSITORY}/actions/runs/${id}`]: {
      id,
      path: '.github/workflows/deploy.yml',
      event: 'workflow_run',
      head_branch: 'main',
      head_sha: headSha,
      conclusion: 'success',
      head_repository: { full_name: REPOSITORY },
      ...over,
    },
    [`repos/${REPOSITORY}/actions/runs/${id}/jobs`]: {
      jobs: [
        { name: 'gate', conclusion: 'success' },
        { name: 'deploy', conclusion: deployJob },
      ],
    },
  });
  const listed = (headSha: string, ...ids: number[]): Answers => ({
    [`repos/${REPOSITORY}/actions/workflows/deploy.yml/runs?head_sha=${headSha}&status=success&per_page=100`]: {
      workflow_runs: ids.map((id) => ({ id })),
    },
  });
  const rollback = (answers: Answers, inputs: { COMMIT?: string; RUN_ID?: string }) =>
    runStep(script, answers, { GH_TOKEN: 'fake', COMMIT: inputs.COMMIT ?? '', RUN_ID: inputs.RUN_ID ?? '' });

  it('replays the tag trick: the old check passes it, this one refuses it', async () => {
    const runner = path.join(work, 'runner');
    // What the old step asked: a tag named origin/main stands for the branch.
    expect(spawnSync('git', ['merge-base', '--is-ancestor', sha.attacker, 'origin/main'], { cwd: runner }).status).toBe(0);
    // Even were GitHub to list a Deploy run for that commit, it is not main's.
    const ran = await rollback({ ...listed(sha.attacker, 7), ...deployRun(7, sha.attacker) }, { COMMIT: sha.attacker });
    expect(ran.status).toBe(1);
    expect(ran.output).toContain(`${sha.attacker} is not a commit of main`);
    expect(ran.head).toBe(sha.head);
  });

  it.each([
    ['a name (a tag named origin/main)', 'origin/main'],
    ['a branch name', 'main'],
    ['a short id', () => sha.deployed.slice(0, 12)],
    ['upper-case hex', () => sha.deployed.toUpperCase()],
  ])('refuses %s, asking for a full commit id', async (_what, commit) => {
    const ran = await rollback(listed(sha.deployed, 5), { COMMIT: typeof commit === 'function' ? commit() : commit });
    expect(ran.status).toBe(1);
    expect(ran.output).toContain('full 40-character commit id');
  });

  it('refuses a commit of main that no Deploy run deployed', async () => {
    const ran = await rollback(listed(sha.deployed), { COMMIT: sha.deployed });
    expect(ran.status).toBe(1);
    expect(ran.output).toContain('was never deployed by a Deploy run');
  });

  it('refuses a commit whose Deploy run stopped at the gate (its deploy job skipped)', async () => {
    const ran = await rollback({ ...listed(sha.deployed, 5), ...deployRun(5, sha.deployed, {}, 'skipped') }, { COMMIT: sha.deployed });
    expect(ran.status).toBe(1);
    expect(ran.output).toContain('was never deployed');
  });

  it('redeploys a commit of main a Deploy run deployed, checked out as it was', async () => {
    const ran = await rollback({ ...listed(sha.deployed, 5), ...deployRun(5, sha.deployed) }, { COMMIT: sha.deployed });
    expect(ran.output).toContain('Redeploying');
    expect(ran.status).toBe(0);
    expect(ran.head).toBe(sha.deployed);
  });

  it.each([
    ["another workflow's run", { path: '.github/workflows/ci.yml' }],
    ['a run for another branch', { head_branch: 'feature' }],
    ['a run for a fork', { head_repository: { full_name: 'stranger/portfolio' } }],
    ['a failed run', { conclusion: 'failure' }],
  ])('refuses a run id of %s', async (_what, over) => {
    const ran = await rollback(deployRun(9, sha.deployed, over), { RUN_ID: '9' });
    expect(ran.status).toBe(1);
    expect(ran.output).toContain('is not a Deploy run that deployed main');
  });

  it('takes a Deploy run whose path names its ref, as GitHub\'s own example has it (".github/workflows/deploy.yml@main")', async () => {
    const ran = await rollback(deployRun(6, sha.deployed, { path: '.github/workflows/deploy.yml@main' }), { RUN_ID: '6' });
    expect(ran.status).toBe(0);
    expect(ran.head).toBe(sha.deployed);
    const other = await rollback(deployRun(8, sha.deployed, { path: '.github/workflows/deploy.yml.evil@main' }), { RUN_ID: '8' });
    expect(other.status).toBe(1);
  });

  it("takes a Deploy run's id, and still refuses its commit when it is not main's", async () => {
    const good = await rollback(deployRun(5, sha.deployed), { RUN_ID: '5' });
    expect(good.status).toBe(0);
    expect(good.head).toBe(sha.deployed);
    const bad = await rollback(deployRun(7, sha.attacker), { RUN_ID: '7' });
    expect(bad.status).toBe(1);
    expect(bad.output).toContain('is not a commit of main');
  });

  it('refuses a run id that is not a number, both inputs, or neither', async () => {
    expect((await rollback({}, { RUN_ID: '5 --paginate' })).output).toContain("run-id is the number at the end of a Deploy run's URL");
    expect((await rollback({}, { RUN_ID: '5', COMMIT: sha.deployed })).output).toContain('not both');
    expect((await rollback({}, {})).output).toContain('Give a commit of main or an earlier Deploy run id');
  });
});
