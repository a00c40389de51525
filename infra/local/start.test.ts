/**
 * `npm start`'s server process (infra/local/start.ts) as a user runs it: it prints where the site
 * and the mailbox are, serves both, stops cleanly on SIGTERM and SIGINT, and refuses bad settings
 * with a message naming the variable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeVersionNote } from './env-options';
import { fixtureBuild } from './test-support';

const START = path.join(path.dirname(fileURLToPath(import.meta.url)), 'start.ts');
const fixture = fixtureBuild();
afterAll(() => rmSync(fixture.buildDir, { recursive: true, force: true }));

function run(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', START], {
    env: { ...process.env, ...env },
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

  it('prints only the addresses, how to stop and, on an old Node, one line about it', async () => {
    const proc = run({ PORT: '0', SES_PORT: '0', CLIENT_DIR: fixture.clientDir });
    try {
      await waitFor(proc.output, /Press Ctrl-C to stop\.\n/);
      const lines = proc.output().trim().split('\n').map((line) => line.trim()).filter(Boolean);
      // "Name:  address" lines, the Node line where it applies, and how to stop: nothing else.
      const oldNode = Number(process.versions.node.split('.')[0]) < 22;
      expect(lines.filter((line) => !/^[A-Z][a-z]+: {2,}\S/.test(line))).toEqual([
        ...(oldNode ? [expect.stringMatching(/^Node .* use Node 22 or 24\.$/)] : []),
        'Press Ctrl-C to stop.',
      ]);
      expect(lines.slice(0, 2)).toEqual([expect.stringMatching(/^Site: /), expect.stringMatching(/^Mailbox: /)]);
      expect(lines.length).toBeLessThanOrEqual(10);
      expect(proc.output()).not.toMatch(/Warning|aws-ses-v2-local/);
    } finally {
      proc.child.kill('SIGKILL');
    }
  });

  it('says in one line that a Node without security fixes should be replaced, and turns the AWS SDK warning off', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(nodeVersionNote('20.20.2', env)).toBe(
      'Node 20.20.2 no longer gets security fixes, and the AWS SDK will need Node 22 from 2027: use Node 22 or 24.',
    );
    expect(env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED).toBe('true');
    expect(nodeVersionNote('22.12.0', {})).toBeUndefined();
    expect(nodeVersionNote('24.1.0', {})).toBeUndefined();
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
