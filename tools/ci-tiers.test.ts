/**
 * CI's tiers: .ci/changes decides from a change's files which jobs of ci.yml run, and
 * .ci/commit-subjects refuses long subjects in a pushed range. Both run here in a throwaway git
 * repository, as the plan job runs them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { scratchDir } from './scratch';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHANGES = path.join(ROOT, '.ci/changes');
const SUBJECTS = path.join(ROOT, '.ci/commit-subjects');

const repo = scratchDir('ci-tiers-');
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
git('init', '-q', '-b', 'main');
git('config', 'user.email', 'ci@example.com');
git('config', 'user.name', 'CI');

/** Commits the files (each with new content) and returns the commit id. */
function commit(subject: string, files: string[]): string {
  for (const file of files) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), `${subject}\n${Math.random()}\n`);
  }
  git('add', '-A');
  git('commit', '-q', '-m', subject);
  return git('rev-parse', 'HEAD');
}

function tiers(event: string, base: string, head: string): Record<string, string> {
  const output = execFileSync('bash', [CHANGES, event, base, head], { cwd: repo, encoding: 'utf8' });
  return Object.fromEntries(
    output
      .trim()
      .split('\n')
      .map((line) => line.split('=') as [string, string]),
  );
}

const start = commit('Start', ['README.md', 'web/app/root.tsx', 'infra/lib/stack.ts']);

describe('.ci/changes', () => {
  it('runs only the documentation tests for a pull request that changes documentation alone', () => {
    const head = commit('Docs', ['README.md', 'docs/deploy.md', 'docs/screenshots/home.png']);
    expect(tiers('pull_request', start, head)).toEqual({ code: 'false', docs: 'true', engines: 'false' });
  });

  it('runs Chromium but not the other engines for a change the visitor flows do not reach', () => {
    const base = git('rev-parse', 'HEAD');
    const head = commit('Stack', ['infra/lib/stack.ts', 'docs/deploy.md']);
    expect(tiers('pull_request', base, head)).toEqual({ code: 'true', docs: 'true', engines: 'false' });
  });

  it.each([['web/app/root.tsx'], ['e2e/engines/flows.ts'], ['package-lock.json'], ['infra/local/cdn.ts'], ['.ci/run']])(
    'runs every engine for a pull request that changes %s',
    (file) => {
      const base = git('rev-parse', 'HEAD');
      const head = commit(`Change ${file}`, [file]);
      expect(tiers('pull_request', base, head)).toEqual({ code: 'true', docs: 'false', engines: 'true' });
    },
  );

  it('runs every tier for a push, even of documentation alone (only a full run lets a deploy through)', () => {
    const base = git('rev-parse', 'HEAD');
    const head = commit('Docs again', ['docs/testing.md']);
    expect(tiers('push', base, head)).toEqual({ code: 'true', docs: 'true', engines: 'true' });
  });

  it('counts every file as changed when the base cannot be read (a new branch, a shallow clone)', () => {
    expect(tiers('pull_request', '0000000000000000000000000000000000000000', 'HEAD')).toEqual({
      code: 'true',
      docs: 'true',
      engines: 'true',
    });
  });
});

describe('.ci/commit-subjects', () => {
  const check = (range: string) => spawnSync('bash', [SUBJECTS, range], { cwd: repo, encoding: 'utf8' });

  it('passes subjects of 72 characters, counted in characters, not bytes', () => {
    const base = git('rev-parse', 'HEAD');
    commit('x'.repeat(72), ['a.ts']);
    commit(`Übersetzung ${'é'.repeat(60)}`, ['b.ts']);
    const result = check(`${base}..HEAD`);
    expect(result.status, result.stderr).toBe(0);
  });

  it('refuses a subject of 73 characters and names the commit', () => {
    const base = git('rev-parse', 'HEAD');
    const long = commit(`A subject that goes on ${'and on '.repeat(7)}x`.padEnd(73, 'x'), ['c.ts']);
    const result = check(`${base}..HEAD`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(long.slice(0, 12));
    expect(result.stderr).toContain('73 characters (at most 72)');
  });
});

describe('ci.yml', () => {
  const workflow = parse(readFileSync(path.join(ROOT, '.github/workflows/ci.yml'), 'utf8'));
  type Job = {
    needs?: string | string[];
    if?: string;
    steps: { uses?: string; with?: Record<string, unknown>; run?: string; env?: Record<string, string> }[];
  };
  const jobs = workflow.jobs as Record<string, Job>;
  const job = (id: string): Job => {
    const found = jobs[id];
    if (!found) throw new Error(`ci.yml has no job ${id}`);
    return found;
  };

  it('cancels the run a newer push to the same pull request or branch supersedes', () => {
    expect(workflow.concurrency).toEqual({
      group: expect.stringContaining('github.event.pull_request.number || github.ref'),
      'cancel-in-progress': true,
    });
  });

  it('caches npm downloads by the lock file in every job that installs', () => {
    for (const [id, job] of Object.entries(jobs)) {
      if (!job.steps.some((step) => step.run?.includes('.ci/run'))) continue;
      const node = job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
      expect(node?.with?.cache, id).toBe('npm');
    }
  });

  it('makes the test build once and hands it to every browser job', () => {
    expect(job('build').steps.some((step) => step.run === '.ci/run build')).toBe(true);
    for (const id of ['chromium', 'engines']) {
      expect(job(id).needs).toContain('build');
      expect(job(id).steps.some((step) => step.uses?.startsWith('actions/download-artifact@'))).toBe(true);
      expect(job(id).steps.find((step) => step.run?.includes('.ci/run'))?.env?.CI_TEST_BUILD).toBe('prebuilt');
    }
  });

  it('runs Firefox and WebKit only where the plan asks for them', () => {
    expect(job('engines').if).toContain("needs.plan.outputs.engines == 'true'");
    expect(job('chromium').if).not.toContain('engines');
  });
});
