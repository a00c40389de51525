/**
 * A first run offline: `LOCAL_CAPTCHA=fake npm start` (scripts/start.ts, as its own process, on the
 * build under test) in a browser that reaches nothing but this machine. The banner said Google could
 * not be reached; the contact page gets the fake captcha, the form sends, and the mail arrives.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fetchMails } from '../infra/local/mailbox';
import { FAKE_CAPTCHA_LABEL } from './support/fakes';
import { eventually, launchBrowser } from './support/browser';
import { TEXT } from './support/site';
import { scratchDir } from '../tools/scratch';

const START = path.join(import.meta.dirname, '..', 'scripts', 'start.ts');
const archiveDir = scratchDir('offline-start-');
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

let browser: Browser;
let output = '';
const child = spawn(process.execPath, ['--import', 'tsx', START], {
  env: {
    ...process.env,
    PORT: '0',
    SES_PORT: '0',
    ARCHIVE_PORT: '0',
    ARCHIVE_DIR: path.join(archiveDir, 'archive'),
    CLIENT_DIR: inject('clientDir'),
    LOCAL_CAPTCHA: 'fake',
    // As offline: nothing answers the check.
    CAPTCHA_CHECK_URL: 'http://127.0.0.1:9/recaptcha/api.js',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));

beforeAll(async () => {
  browser = await launchBrowser();
  await eventually(
    () => output,
    (text) => text.includes('Press Ctrl-C') || text.includes('failed'),
    'npm start to serve',
    60_000,
  );
});

afterAll(async () => {
  await browser?.close();
  child.kill('SIGTERM');
  if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
});

describe('LOCAL_CAPTCHA=fake npm start, offline', () => {
  it('the form sends through the fake captcha and the mail arrives in the mailbox', async () => {
    const site = /Site:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    const mailbox = /Mailbox:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    expect(site, output).toBeDefined();
    const context = await browser.newContext();
    const outside: string[] = [];
    // Offline: any request leaving this machine fails, as without a network.
    await context.route(
      (url) => !LOOPBACK.has(url.hostname),
      (route) => (outside.push(route.request().url()), route.abort('internetdisconnected')),
    );
    try {
      const page = await context.newPage();
      await page.goto(`${site}/contact`);
      const main = page.getByRole('main');
      await main.getByLabel('Full name', { exact: true }).fill('Jane Offline');
      await main.getByLabel('Email', { exact: true }).fill('maria@example.com');
      await main.getByLabel('Message', { exact: true }).fill('Written on a train, with no network.');
      const captcha = page.getByRole('checkbox', { name: FAKE_CAPTCHA_LABEL });
      await captcha.waitFor({ state: 'visible', timeout: 15_000 });
      await captcha.click();
      const send = main.getByRole('button', { name: 'Send', exact: true });
      await eventually(() => send.isEnabled(), Boolean, 'Send enabled once the fake captcha is ticked');
      await send.click();
      await eventually(
        () => main.innerText(),
        (text) => text.includes(TEXT.sent),
        `"${TEXT.sent}"`,
        15_000,
      );
      const mails = await fetchMails(mailbox!);
      expect(mails.map((mail) => mail.subject)).toEqual(['Portfolio contact from Jane Offline']);
      expect(mails[0]!.body.text).toContain('Written on a train, with no network.');
      // Nothing was fetched from Google: the fake api.js came from the stack.
      expect(outside.filter((url) => url.includes('recaptcha'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
