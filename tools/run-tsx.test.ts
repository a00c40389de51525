/** The one helper the tests run child processes with: what it collects, how it stops one, which environment a build sees. */
import { describe, expect, it } from 'vitest';
import { plainEnv, runChild } from './run-tsx';

const node = (source: string, timeoutMs?: number) => runChild(process.execPath, ['-e', source], { cwd: process.cwd(), timeoutMs });

describe('runChild', () => {
  it("collects stdout and stderr apart and in the order they came, and the exit code", async () => {
    const run = await node("process.stdout.write('one '); setTimeout(() => { process.stderr.write('two '); setTimeout(() => { process.stdout.write('three'); process.exit(3); }, 300); }, 300);");
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
