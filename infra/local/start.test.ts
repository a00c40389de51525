/**
 * `npm start`'s server process (infra/local/start.ts) as a user runs it: it prints where the site
 * and the mailbox are, serves both, stops cleanly on SIGTERM and SIGINT, and refuses bad settings
 * with a message naming the variable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_ARCHIVE_TABLE } from '../../contract/archive';
import { createDynamoClient } from '../../functions/archive/store';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './archive';
import { NODE_FLOOR, nodeVersionNote } from './env-options';
import { fixtureBuild } from './test-support';

const START = path.join(path.dirname(fileURLToPath(import.meta.url)), 'start.ts');
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
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

  it('names the archive and its data folder, and keeps the data there', async () => {
    const proc = run({ PORT: '0', SES_PORT: '0', CLIENT_DIR: fixture.clientDir });
    try {
      const archive = (await waitFor(proc.output, /Archive:\s+(http:\/\/127\.0\.0\.1:\d+)\s+\(table portfolio-messages, data in (\S+);/));
      expect(archive[2]).toBe(archiveDir);
      const client = createDynamoClient({ endpoint: archive[1], region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
      expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([LOCAL_ARCHIVE_TABLE]);
      client.destroy();
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  });

  it('uses the servers AWS_ENDPOINT_URL_DYNAMODB and AWS_ENDPOINT_URL_SES name, creating the table there', async () => {
    const outside = dynalite({ createTableMs: 0 });
    outside.listen(0, '127.0.0.1');
    await once(outside, 'listening');
    const endpoint = `http://127.0.0.1:${(outside.address() as AddressInfo).port}`;
    const proc = run({
      PORT: '0',
      CLIENT_DIR: fixture.clientDir,
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
      AWS_ENDPOINT_URL_SES: 'http://127.0.0.1:9',
    });
    try {
      await waitFor(proc.output, new RegExp(`Archive:\\s+${endpoint.replace(/[.:/]/g, '\\$&')}\\s+\\(table portfolio-messages, outside server`));
      await waitFor(proc.output, /Mailbox:\s+http:\/\/127\.0\.0\.1:9\s/);
      const client = createDynamoClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
      expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([LOCAL_ARCHIVE_TABLE]);
      client.destroy();
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
      outside.closeAllConnections();
      await new Promise((resolve) => outside.close(resolve));
    }
  });

  it('prints only the addresses, how to stop and, on an old Node, one line about it', async () => {
    const proc = run({ PORT: '0', SES_PORT: '0', CLIENT_DIR: fixture.clientDir });
    try {
      await waitFor(proc.output, /Press Ctrl-C to stop\.\n/);
      const lines = proc.output().trim().split('\n').map((line) => line.trim()).filter(Boolean);
      // "Name:  address" lines, the Node line where it applies, and how to stop: nothing else.
      const oldNode = nodeVersionNote(process.versions.node, {}) !== undefined;
      expect(lines.filter((line) => !/^[A-Z][a-z]+: {2,}\S/.test(line))).toEqual([
        ...(oldNode ? [expect.stringMatching(/^Node .* below this project's floor, .* use Node 22 or 24 LTS\.$/)] : []),
        'Press Ctrl-C to stop.',
      ]);
      expect(lines.slice(0, 3)).toEqual([expect.stringMatching(/^Site: /), expect.stringMatching(/^Mailbox: /), expect.stringMatching(/^Archive: /)]);
      expect(lines.length).toBeLessThanOrEqual(10);
      expect(proc.output()).not.toMatch(/Warning|aws-ses-v2-local/);
    } finally {
      proc.child.kill('SIGKILL');
    }
  });

  it('names the floor in one line on a Node below it, and turns the AWS SDK warning off', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(nodeVersionNote('20.20.2', env)).toBe(
      'Node 20.20.2 is below this project\'s floor, Node 22.12.0 (package.json "engines"): use Node 22 or 24 LTS.',
    );
    expect(env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED).toBe('true');
    expect(nodeVersionNote('22.11.0', {})).toMatch(/below this project's floor, Node 22\.12\.0/);
    expect(nodeVersionNote('22.12.0', {})).toBeUndefined();
    expect(nodeVersionNote('24.1.0', {})).toBeUndefined();
    expect(nodeVersionNote('v26.0.0', {})).toBeUndefined();
  });

  it('keeps the floor it names equal to package.json "engines"', () => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(manifest.engines.node).toBe(`>=${NODE_FLOOR.replace(/\.0$/, '')}`);
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
