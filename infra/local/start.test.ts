/**
 * `npm start`'s server process (infra/local/start.ts) as a user runs it: it prints where the site
 * and the mailbox are, serves both, stops cleanly on SIGTERM and SIGINT, and refuses bad settings
 * with a message naming the variable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureBuild } from './test-support';

const START = path.join(path.dirname(fileURLToPath(import.meta.url)), 'start.ts');
const fixture = fixtureBuild();
const archiveDir = mkdtempSync(path.join(os.tmpdir(), 'start-archive-'));
afterAll(() => {
  rmSync(fixture.buildDir, { recursive: true, force: true });
  rmSync(archiveDir, { recursive: true, force: true });
});

function run(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', START], {
    env: { ...process.env, ARCHIVE_PORT: '0', ARCHIVE_DIR: archiveDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(read: () => string, pattern: RegExp, ms = 20_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const match = pattern.exec(read());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`no ${pattern} in output:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('npm start (infra/local/start.ts)', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('serves site and mailbox, then stops on %s', async (signal) => {
    const proc = run({ PORT: '0', SES_PORT: '0', CLIENT_DIR: fixture.clientDir });
    try {
      const site = (await waitFor(proc.output, /Site:\s+(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
      const mailbox = (await waitFor(proc.output, /Mailbox:\s+(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
      expect((await fetch(`${site}/ok.txt`)).status).toBe(200);
      expect(await (await fetch(`${mailbox}/store`)).json()).toEqual({ templates: {}, emails: [] });
      proc.child.kill(signal);
      expect(await proc.exited).toBe(0);
      await expect(fetch(`${site}/ok.txt`)).rejects.toThrow();
      await expect(fetch(`${mailbox}/store`)).rejects.toThrow();
    } finally {
      proc.child.kill('SIGKILL');
    }
  });

  it('refuses a bad PORT, naming it', async () => {
    const proc = run({ PORT: 'eighty', SES_PORT: '0', CLIENT_DIR: fixture.clientDir });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toContain('PORT must be a port number');
  });

  it('says to run the build when there is none', async () => {
    const proc = run({ PORT: '0', SES_PORT: '0', CLIENT_DIR: path.join(fixture.buildDir, 'nowhere', 'client') });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/run `npm run build` first/);
  });
});
