/**
 * `npm start`'s server process (scripts/start.ts) as a user runs it: it prints where the site
 * and the mailbox are, serves both, stops cleanly on SIGTERM and SIGINT, and refuses bad settings
 * with a message naming the variable. It says when Google's captcha cannot be reached and how to work
 * offline (LOCAL_CAPTCHA=fake), and keeps a second stack off its archive folder. The captcha check
 * only ever meets local servers here (CAPTCHA_CHECK_URL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ARCHIVE_TABLE } from '../contract/archive';
import { createDynamoClient } from '../functions/archive/store';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../infra/local/archive';
import { PAGE_SCRIPT_PATH } from '../infra/local/cdn';
import { NODE_FLOOR, nodeVersionNote } from '../infra/local/env-options';
import { fetchMails } from '../infra/local/mailbox';
import { fixtureBuild } from '../infra/local/test-support';
import { SPA_FALLBACK_FILE } from '../infra/shared/build-output';
import { runningFileFor } from '../infra/shared/running-stack';
import { CAPTCHA_CHECK_MS, localCaptchaFromEnv, reachable } from './start';
import { scratchDir } from '../tools/scratch';

const START = path.join(path.dirname(fileURLToPath(import.meta.url)), 'start.ts');
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = fixtureBuild({
  [SPA_FALLBACK_FILE]: '<!DOCTYPE html><html><head><title>Fallback</title></head><body><h1>Not found</h1></body></html>',
  'contact/index.html': '<!DOCTYPE html><html><head><title>Contact</title></head><body><form></form></body></html>',
});
/** Nothing listens on port 9 (discard) here: the check fails at once, as offline. */
const UNREACHABLE = 'http://127.0.0.1:9/recaptcha/api.js';
const archiveDir = scratchDir('start-archive-');

function run(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', START], {
    env: { ...process.env, ARCHIVE_PORT: '0', ARCHIVE_DIR: archiveDir, CAPTCHA_CHECK_URL: UNREACHABLE, LOCAL_CAPTCHA: '', ...env },
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

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/recaptcha/api.js`;
}
const closeServer = (server: Server) => (server.closeAllConnections(), new Promise((resolve) => server.close(resolve)));

describe('npm start (scripts/start.ts)', () => {
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
      await waitFor(
        proc.output,
        new RegExp(`Archive:\\s+${endpoint.replace(/[.:/]/g, '\\$&')}\\s+\\(table portfolio-messages, outside server`),
      );
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

  it('names the port the archive listens on and the file npm run messages finds it in; the file goes on exit', async () => {
    const proc = run({ PORT: '0', SES_PORT: '0', CLIENT_DIR: fixture.clientDir });
    try {
      const hint = await waitFor(
        proc.output,
        /Archive:\s+http:\/\/127\.0\.0\.1:(\d+)\s.*list it with npm run messages -- --local, which finds port (\d+) in (\S+)\)/,
      );
      expect(hint[2]).toBe(hint[1]);
      expect(path.resolve(hint[3]!)).toBe(runningFileFor(archiveDir));
      expect(JSON.parse(readFileSync(runningFileFor(archiveDir), 'utf8'))).toMatchObject({
        pid: proc.child.pid,
        archive: `http://127.0.0.1:${hint[1]}`,
      });
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
    expect(existsSync(runningFileFor(archiveDir))).toBe(false);
  });

  it('Google reachable: no offline line', async () => {
    const google = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end());
    const url = await listening(google);
    const proc = run({ PORT: '0', SES_PORT: '0', CLIENT_DIR: fixture.clientDir, CAPTCHA_CHECK_URL: url });
    try {
      await waitFor(proc.output, /Press Ctrl-C to stop\./);
      expect(proc.output()).toMatch(/Captcha: {2}Google siteverify with Google's public test secret\n/);
      expect(proc.output()).not.toContain('Offline:');
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
      await closeServer(google);
    }
  });

  it('the check gives up after CAPTCHA_CHECK_MS when nothing answers, and never throws', async () => {
    const silent = createServer(() => undefined); // accepts, never answers
    const url = await listening(silent);
    try {
      const started = Date.now();
      expect(await reachable(url, 300)).toBe(false);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(await reachable('not a url', 300)).toBe(false);
      expect(CAPTCHA_CHECK_MS).toBeLessThanOrEqual(2_000);
    } finally {
      await closeServer(silent);
    }
  });

  it('LOCAL_CAPTCHA=fake: every page loads the fake api.js, a POST with any token is sent and the mail arrives', async () => {
    const proc = run({ PORT: '0', SES_PORT: '0', CLIENT_DIR: fixture.clientDir, LOCAL_CAPTCHA: 'fake' });
    try {
      const site = (await waitFor(proc.output, /Site:\s+(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
      const mailbox = (await waitFor(proc.output, /Mailbox:\s+(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
      await waitFor(proc.output, /Press Ctrl-C to stop\./);
      expect(proc.output()).toMatch(/Captcha: {2}local fake \(LOCAL_CAPTCHA=fake\)/);
      expect(proc.output()).not.toContain('Offline:');
      const page = await fetch(`${site}/contact`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`<head><script src="${PAGE_SCRIPT_PATH}"></script><title>Contact</title>`);
      const script = await fetch(`${site}${PAGE_SCRIPT_PATH}`);
      expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(await script.text()).toContain('window.grecaptcha');
      const notFound = await fetch(`${site}/nowhere`);
      expect(notFound.status).toBe(404);
      expect(await notFound.text()).toContain(PAGE_SCRIPT_PATH); // the 404 page may lead to /contact too
      const sent = await fetch(`${site}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          fullName: 'Jane Doe',
          email: 'jane@example.com',
          message: 'Hello from a train.',
          'g-recaptcha-response': 'any',
        }),
      });
      expect(sent.status).toBe(200);
      const mails = await fetchMails(mailbox);
      expect(mails.map((mail) => mail.subject)).toEqual(['Portfolio contact from Jane Doe']);
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  });

  // These read what one stack started as is prints and serves, and change nothing in it: one start serves
  // them all (a start loads the stack's programs, over a CPU second), stopped before the next test starts
  // another on the same archive folder.
  describe('one stack started as is', () => {
    let plain: ReturnType<typeof run>;
    beforeAll(async () => {
      plain = run({ PORT: '0', SES_PORT: '0', CLIENT_DIR: fixture.clientDir });
      await waitFor(plain.output, /Press Ctrl-C to stop\.\n/);
    });
    afterAll(async () => {
      plain.child.kill('SIGTERM');
      await plain.exited;
    });

    it('prints only the addresses, how to stop and, on an old Node, one line about it', () => {
      const lines = plain
        .output()
        .trim()
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      // "Name:  address" lines, the Node line where it applies, and how to stop: nothing else.
      const oldNode = nodeVersionNote(process.versions.node, {}) !== undefined;
      expect(lines.filter((line) => !/^[A-Z][a-z]+: {2,}\S/.test(line))).toEqual([
        ...(oldNode ? [expect.stringMatching(/^Node .* below this project's floor, .* use Node 22 or 24 LTS\.$/)] : []),
        'Press Ctrl-C to stop.',
      ]);
      expect(lines.slice(0, 3)).toEqual([
        expect.stringMatching(/^Site: /),
        expect.stringMatching(/^Mailbox: /),
        expect.stringMatching(/^Archive: /),
      ]);
      expect(lines.length).toBeLessThanOrEqual(10);
      expect(plain.output()).not.toMatch(/Warning|aws-ses-v2-local/);
    });

    it('names the archive and its data folder, and keeps the data there', async () => {
      const archive = await waitFor(plain.output, /Archive:\s+(http:\/\/127\.0\.0\.1:\d+)\s+\(table portfolio-messages, data in (\S+);/);
      expect(archive[2]).toBe(archiveDir);
      const client = createDynamoClient({ endpoint: archive[1], region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
      expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([LOCAL_ARCHIVE_TABLE]);
      client.destroy();
    });

    it('Google unreachable: the banner says so and names the offline switch', () => {
      expect(plain.output()).toMatch(
        /Offline: {2}Google's captcha cannot be reached, so the contact form cannot send: LOCAL_CAPTCHA=fake npm start uses a local fake captcha\n/,
      );
    });

    it("without the switch no page loads a script of the stack's own", async () => {
      const site = (await waitFor(plain.output, /Site:\s+(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
      expect(await (await fetch(`${site}/contact`)).text()).not.toContain(PAGE_SCRIPT_PATH);
      expect((await fetch(`${site}${PAGE_SCRIPT_PATH}`)).status).toBe(404);
    });

    it('a second stack on the same archive folder: one line naming the first, and the first keeps running', async () => {
      const site = (await waitFor(plain.output, /Site:\s+(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
      const second = run({ PORT: '0', SES_PORT: '0', CLIENT_DIR: fixture.clientDir });
      expect(await second.exited).toBe(1);
      const lines = second
        .output()
        .trim()
        .split('\n')
        .filter((line) => !/^\(node|Warning|versions|will require|To continue|and security|More information|\(Use|^$/.test(line.trim()));
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^npm start failed: The archive folder .* is in use by another local stack \\(process ${plain.child.pid}, .*\\): stop it first, or set ARCHIVE_DIR to another folder\\.$`,
          ),
        ),
      ]);
      expect(second.output()).not.toMatch(/Database is closed| {4}at /);
      expect((await fetch(`${site}/ok.txt`)).status).toBe(200);
    });
  });

  it('refuses a LOCAL_CAPTCHA it does not know, and LOCAL_CAPTCHA=fake with RECAPTCHA_VERIFY_URL, naming them', () => {
    expect(localCaptchaFromEnv({})).toBe('google');
    expect(localCaptchaFromEnv({ LOCAL_CAPTCHA: ' fake ' })).toBe('fake');
    expect(() => localCaptchaFromEnv({ LOCAL_CAPTCHA: 'offline' })).toThrow(
      'LOCAL_CAPTCHA must be "fake" (or unset for Google\'s captcha), got "offline"',
    );
    expect(() => localCaptchaFromEnv({ LOCAL_CAPTCHA: 'fake', RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:1/' })).toThrow(
      /unset RECAPTCHA_VERIFY_URL/,
    );
  });
});
