/** The one helper the tests run child processes with: what it collects, how it stops one, which environment a build sees. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, plainEnv, runChild } from './run-tsx';
import { scratchDir } from './scratch';

const node = (source: string, timeoutMs?: number) => runChild(process.execPath, ['-e', source], { cwd: process.cwd(), timeoutMs });

describe('runChild', () => {
  it('collects stdout and stderr apart and in the order they came, and the exit code', async () => {
    const run = await node(
      "process.stdout.write('one '); setTimeout(() => { process.stderr.write('two '); setTimeout(() => { process.stdout.write('three'); process.exit(3); }, 300); }, 300);",
    );
    expect(run).toEqual({ status: 3, stdout: 'one three', stderr: 'two ', output: 'one two three' });
  });

  it('stops a child at its time limit and says so, with status null', async () => {
    const run = await node("console.log('started'); setInterval(() => {}, 1000);", 500);
    expect(run.status).toBeNull();
    expect(run.stdout).toBe('started\n');
    expect(run.stderr).toMatch(/was stopped after 0\.5 s$/);
  });

  it('reports a command that cannot start instead of throwing', async () => {
    const run = await runChild('/nonexistent/command', [], { cwd: process.cwd() });
    expect(run.status).toBeNull();
    expect(run.stderr).toMatch(/did not start: .*ENOENT/);
  });
});

describe('plainEnv', () => {
  it("leaves out the test runner's variables and lays the extra ones over the rest", () => {
    const saved = { ...process.env };
    Object.assign(process.env, { NODE_ENV: 'test', VITEST_POOL_ID: '1', VITE_GA_MEASUREMENT_ID: 'G-X', KEEP_ME: 'yes' });
    try {
      const env = plainEnv({ TMPDIR: '/copy' });
      expect(env).not.toHaveProperty('NODE_ENV');
      expect(env).not.toHaveProperty('VITEST_POOL_ID');
      expect(env).not.toHaveProperty('VITE_GA_MEASUREMENT_ID');
      expect(env).toMatchObject({ KEEP_ME: 'yes', TMPDIR: '/copy' });
    } finally {
      process.env = saved;
    }
  });
});

describe('buildProject', () => {
  it('gives the build a short temporary folder of its own, gone when it ends, however deep the copy is', async () => {
    const root = scratchDir('deep-copy-');
    // As deep as a shared fixture build's folder: a socket under it would pass the 108-byte limit.
    const dir = path.join(root, 'fixtures-e8bd53f954215c0e-6e45bd07005c.partial-PCLnz3', 'one-more-level-of-folders');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'copy', private: true, scripts: { build: 'node -e "console.log(process.env.TMPDIR)"' } }),
    );
    const run = await buildProject(dir);
    expect(run.status, run.output).toBe(0);
    const temp = run.stdout.trim().split('\n').at(-1)!;
    expect(temp.startsWith(tmpdir())).toBe(true);
    expect(`${temp}/tsx-0/4194304.pipe`.length).toBeLessThan(108);
    expect(existsSync(temp)).toBe(false);
  });
});
