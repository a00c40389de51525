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
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_ARCHIVE_TABLE } from '../../contract/archive';
import { createDynamoClient } from '../../functions/archive/store';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './archive';
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
