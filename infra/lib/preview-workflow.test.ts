/**
 * The preview workflow's own AWS steps (.github/workflows/preview.yml: the upload job's `aws s3 cp`, the
 * teardown's `aws s3 rm`), run as written by bash with the real AWS CLI against the fake AWS, whose role
 * check holds the preview role's policy as the GitHub stack synthesizes it. The only change to the steps
 * is the endpoint (an `aws` on PATH that adds --endpoint-url). A pull request's files land under its own
 * prefix and leave with it; anything else it tries is refused.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type FakeAws, startFakeAws } from '../../tools/fake-aws';
import { previewStatements } from './deploy-fence';
import { basePathOf, previewPath } from '../../contract/preview-path';
import { previewBucketName } from './preview-site';
import { scratchDir } from '../../tools/scratch';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ACCOUNT = '123456789012';
const BUCKET = previewBucketName('Portfolio', ACCOUNT, 'eu-west-1');
const LIVE_BUCKET = 'portfolio-sitebucket397a1860-1a2b3c4d5e6f';

/** The upload step as preview.yml writes it (its env names the size cap). */
function uploadStep(): { run: string; env: { MAX_BYTES: string } } {
  const workflow = parse(readFileSync(path.join(ROOT, '.github/workflows/preview.yml'), 'utf8'));
  return (workflow.jobs.upload.steps as { run: string; env: { MAX_BYTES: string } }[]).find((s) => /aws s3 cp/.test(s.run ?? ''))!;
}

/** The run: script of the step in `job` of preview.yml whose script matches `pattern`. */
function stepScript(job: string, pattern: RegExp): string {
  const workflow = parse(readFileSync(path.join(ROOT, '.github/workflows/preview.yml'), 'utf8'));
  const step = (workflow.jobs[job].steps as { run?: string }[]).find((s) => pattern.test(s.run ?? ''));
  if (!step?.run) throw new Error(`preview.yml jobs.${job} has no step matching ${pattern}`);
  return step.run;
}

let aws: FakeAws;
let work: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const real = spawnSync('bash', ['-c', 'command -v aws'], { encoding: 'utf8' }).stdout.trim();
  expect(real, "the AWS CLI is not installed (.ci/run installs Debian's awscli)").not.toBe('');
  aws = await startFakeAws({
    account: ACCOUNT,
    buckets: { [BUCKET]: ['pr-13/0123456/index.html'], [LIVE_BUCKET]: ['index.html'] },
    policy: previewStatements('aws', ACCOUNT, BUCKET),
  });
  work = scratchDir('preview-workflow-');
  // The build job's artifact, downloaded to site/ as the upload job does.
  for (const file of ['index.html', 'home/index.html', 'projects/3/index.html', 'assets/entry-AbC123.js', 'robots.txt']) {
    mkdirSync(path.dirname(path.join(work, 'site', file)), { recursive: true });
    writeFileSync(path.join(work, 'site', file), `<!-- ${file} -->`);
  }
  const bin = path.join(work, 'bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'aws'), `#!/bin/sh\nexec '${real}' --endpoint-url '${aws.url}' "$@"\n`);
  chmodSync(path.join(bin, 'aws'), 0o755);
  env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: work,
    AWS_ACCESS_KEY_ID: 'ASIAFAKEPREVIEWROLE',
    AWS_SECRET_ACCESS_KEY: 'fake',
    AWS_SESSION_TOKEN: 'fake',
    AWS_DEFAULT_REGION: 'eu-west-1',
    AWS_REGION: 'eu-west-1',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_MAX_ATTEMPTS: '1',
    BUCKET,
  };
}, 30_000);

afterAll(async () => {
  await aws?.stop();
});

/** Runs a step's script (asynchronously: the fake AWS answers from this same process); stdout carries ::error:: lines. */
function run(script: string, extra: Record<string, string> = {}): Promise<{ status: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-c', script], {
      cwd: work,
      env: { ...env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr, stdout }));
  });
}

describe("a pull request's preview steps against the fake AWS, with the preview role's policy", () => {
  it('the upload puts every file under pr-N/<short sha>/ and nowhere else', async () => {
    const result = await run(stepScript('upload', /aws s3 cp/), {
      PREVIEW_PATH: 'pr-12/abc1234',
      PR: '12',
      MAX_BYTES: uploadStep().env.MAX_BYTES,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect([...aws.state.buckets[BUCKET]!].sort()).toEqual([
      'pr-12/abc1234/assets/entry-AbC123.js',
      'pr-12/abc1234/home/index.html',
      'pr-12/abc1234/index.html',
      'pr-12/abc1234/projects/3/index.html',
      'pr-12/abc1234/robots.txt',
      'pr-13/0123456/index.html',
    ]);
    expect(aws.state.buckets[LIVE_BUCKET]).toEqual(['index.html']);
  }, 120_000);

  it.each([
    ['a file outside pr-*', 'aws s3 cp site/index.html "s3://$BUCKET/index.html"'],
    ['the live bucket', `aws s3 cp site/index.html s3://${LIVE_BUCKET}/index.html`],
    ['a delete in the live bucket', `aws s3 rm s3://${LIVE_BUCKET}/index.html`],
    ['a listing of the whole bucket', 'aws s3 ls "s3://$BUCKET/"'],
    ['the live stack', 'aws cloudformation describe-stacks --stack-name Portfolio'],
    ['a parameter', 'aws ssm get-parameter --name /portfolio/recaptcha-secret'],
  ])(
    'refuses %s',
    async (_what, script) => {
      const result = await run(script);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toMatch(/AccessDenied|not authorized/);
      expect(aws.state.buckets[LIVE_BUCKET]).toEqual(['index.html']);
      expect(aws.state.buckets[BUCKET]).not.toContain('index.html');
    },
    60_000,
  );

  it.each([
    ["another pull request's prefix", 'pr-13/0123456', '12'],
    ['a prefix outside pr-*', 'assets/abc1234', '12'],
    ['a path that climbs out', 'pr-12/../index.html', '12'],
  ])(
    'the upload refuses %s before any AWS call',
    async (_what, previewPath, pr) => {
      const result = await run(stepScript('upload', /aws s3 cp/), {
        PREVIEW_PATH: previewPath,
        PR: pr,
        MAX_BYTES: uploadStep().env.MAX_BYTES,
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toContain("is not this pull request's own prefix");
      expect(aws.state.buckets[BUCKET]).not.toContain('pr-13/0123456/home/index.html');
    },
    60_000,
  );

  it("the upload refuses a site over its size cap, and the cap is the workflow's own (50 MiB)", async () => {
    const max = uploadStep().env.MAX_BYTES;
    expect(Number(max)).toBe(50 * 1024 * 1024);
    const big = path.join(work, 'site', 'videos', 'huge.mp4');
    mkdirSync(path.dirname(big), { recursive: true });
    // A sparse file: its size counts (du -b), no disk is used.
    expect(spawnSync('truncate', ['-s', String(Number(max) + 1), big]).status).toBe(0);
    try {
      const result = await run(stepScript('upload', /aws s3 cp/), { PREVIEW_PATH: 'pr-14/abc1234', PR: '14', MAX_BYTES: max });
      expect(result.status).toBe(1);
      expect(result.stdout).toContain(`over the preview's ${max}: nothing uploaded`);
      expect(aws.state.buckets[BUCKET]!.some((key) => key.startsWith('pr-14/'))).toBe(false);
    } finally {
      rmSync(path.join(work, 'site', 'videos'), { recursive: true, force: true });
    }
  }, 60_000);

  it('closing the pull request deletes its prefix, and only its own', async () => {
    const result = await run(stepScript('teardown', /aws s3 rm/), { PR: '12' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(aws.state.buckets[BUCKET]).toEqual(['pr-13/0123456/index.html']);
  }, 120_000);
});

describe("the preview workflow's build", () => {
  const workflow = () => parse(readFileSync(path.join(ROOT, '.github/workflows/preview.yml'), 'utf8'));

  it("builds the site for the path it uploads to: the path step's output, which the build's own check accepts", () => {
    const steps = workflow().jobs.build.steps as { id?: string; run?: string; env?: Record<string, string> }[];
    const build = steps.find((step) => step.run === 'npm run build')!;
    expect(build.env?.PREVIEW_PATH).toBe('${{ steps.path.outputs.path }}');
    const pathStep = steps.find((step) => step.id === 'path')!;
    const outputFile = path.join(scratchDir('preview-path-'), 'output');
    const ran = spawnSync('bash', ['-e', '-c', pathStep.run!], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, PR: '12', HEAD_SHA: 'abc1234def5678abc1234def5678abc1234def56', GITHUB_OUTPUT: outputFile },
    });
    expect(ran.status, ran.stderr).toBe(0);
    const output = readFileSync(outputFile, 'utf8').trim();
    expect(output).toBe(`path=${previewPath(12, 'abc1234def5678abc1234def5678abc1234def56')}`);
    expect(basePathOf(output.slice('path='.length))).toBe('/pr-12/abc1234');
    expect(() => basePathOf('pr-12/../../x')).toThrow(/PREVIEW_PATH must be pr-N/);
  });
});
