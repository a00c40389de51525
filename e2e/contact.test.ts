import type { Locator, Page, Route } from 'playwright-core';
import { loadEnv } from 'vite';
import { describe, expect, inject, it } from 'vitest';
import { RECAPTCHA_TEST_SITE_KEY } from '../contract/settings';
import { eventually, visit, textOf, type Session } from './support/browser';
import { FAKE_CAPTCHA_LABEL } from './support/fakes';
import { REFUSED_TOKEN, type SiteverifyCall } from '../tools/fake-siteverify';
import { TEXT } from './support/site';
import { useBrowserSessions } from './support/sessions';

const sessions = useBrowserSessions();

interface Form {
  page: Page;
  name: Locator;
  email: Locator;
  message: Locator;
  send: Locator;
  captcha: Locator;
}

/** Opens /contact with the fake reCAPTCHA script and waits for its widget to render. */
async function openContact(viewport: 'phone' | 'desktop' = 'desktop'): Promise<Form> {
  const page = (await sessions.reuse({ viewport })).page;
  await visit(page, '/contact');
  const main = page.getByRole('main');
  const form: Form = {
    page,
    name: main.getByLabel('Full name', { exact: true }),
    email: main.getByLabel('Email', { exact: true }),
    message: main.getByLabel('Message', { exact: true }),
    send: main.getByRole('button', { name: /^(Send|Sending\.\.\.)$/ }),
    captcha: page.getByRole('checkbox', { name: FAKE_CAPTCHA_LABEL }),
  };
  await form.captcha.waitFor({ state: 'visible', timeout: 10_000 });
  return form;
}

async function solveCaptcha(form: Form, token?: string): Promise<void> {
  await form.page.evaluate((t) => {
    (window as unknown as { __fakeRecaptcha: { nextToken: string | null } }).__fakeRecaptcha.nextToken = t;
  }, token ?? null);
  await form.captcha.click();
  await eventually(() => form.send.isEnabled(), Boolean, 'Send enabled once the captcha is solved');
}

async function fill(form: Form, values: { name: string; email: string; message: string }): Promise<void> {
  await form.name.fill(values.name);
  await form.email.fill(values.email);
  await form.message.fill(values.message);
}

function captchaResets(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __fakeRecaptcha: { resets: number } }).__fakeRecaptcha.resets);
}

function contactPosts(s: Session) {
  return s.requests.filter((r) => r.method === 'POST' && new URL(r.url).pathname === '/api/contact');
}

function mainText(page: Page): Promise<string> {
  return textOf(page.getByRole('main'));
}

/** A name only letters: unique per test, so mails in the shared mailbox are told apart. */
function uniqueLastName(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let out = '';
  for (let i = 0; i < 8; i++) out += letters[Math.floor(Math.random() * letters.length)];
  return out.charAt(0).toUpperCase() + out.slice(1);
}

const VALID = {
  name: 'José Álvarez',
  email: 'jose.alvarez@example.com',
  message: 'Hello!\nI would like to talk about a project — café & <b>résumé</b>.',
};

describe('contact form', () => {
  it('renders a compact captcha with the site key, in English, and keeps Send disabled until it is solved', async () => {
    const form = await openContact('phone');
    const widgets = await form.page.evaluate(() =>
      (
        window as unknown as { __fakeRecaptcha: { describe(): { sitekey: string; size: string; hl?: string }[] } }
      ).__fakeRecaptcha.describe(),
    );
    expect(widgets).toHaveLength(1);
    expect(widgets[0]!.size).toBe('compact');
    expect(widgets[0]!.hl, "the page's language, not the browser's").toBe('en');
    // The build's own key, else Google's documented test key (a wrong one makes the real widget refuse).
    const configured = loadEnv('production', process.cwd(), 'VITE_').VITE_RECAPTCHA_SITE_KEY?.trim();
    expect(widgets[0]!.sitekey).toBe(configured || RECAPTCHA_TEST_SITE_KEY);
    await expect(form.send.isDisabled()).resolves.toBe(true);
    await fill(form, VALID);
    await expect(form.send.isDisabled(), 'typing alone does not enable Send').resolves.toBe(true);
    await solveCaptcha(form);
    await expect(form.send.isEnabled()).resolves.toBe(true);
    // An expired captcha disables Send again.
    await form.page.evaluate(() => (window as unknown as { __fakeRecaptcha: { expire(id: number): boolean } }).__fakeRecaptcha.expire(0));
    await eventually(() => form.send.isDisabled(), Boolean, 'Send disabled after the captcha expired');
  });

  it('checks name, email and message in order, with the exact messages, and sends nothing until valid', async () => {
    const form = await openContact();
    const steps: [{ name: string; email: string; message: string }, string][] = [
      [{ name: 'Jose', email: 'bad', message: 'no' }, TEXT.invalidName],
      [{ name: 'Jose Alvarez', email: 'bad', message: 'no' }, TEXT.invalidEmail],
      [{ name: 'Jose Alvarez', email: 'jose@example.toolong', message: 'no' }, TEXT.invalidEmail],
      [{ name: 'Jose Alvarez', email: 'jose@example.com', message: 'abc' }, TEXT.invalidMessage],
    ];
    const all = [TEXT.invalidName, TEXT.invalidEmail, TEXT.invalidMessage, TEXT.missingCaptcha];
    for (const [values, expected] of steps) {
      await fill(form, values);
      if (await form.send.isDisabled()) await solveCaptcha(form);
      await form.send.click();
      await eventually(
        () => mainText(form.page),
        (text) => text.includes(expected),
        `"${expected}"`,
      );
      const text = await mainText(form.page);
      for (const other of all.filter((m) => m !== expected)) expect(text, `only "${expected}" shows`).not.toContain(other);
      // A failed check keeps what was typed.
      await expect(form.name.inputValue()).resolves.toBe(values.name);
      await expect(form.message.inputValue()).resolves.toBe(values.message);
    }
    expect(contactPosts(sessions.current), 'no request while a check fails').toEqual([]);
    // Names of any script and hyphenated names pass the name check.
    for (const name of ["Zoë O'Brien", 'Anne-Marie Dupont']) {
      await fill(form, { name, email: 'bad', message: 'no' });
      if (await form.send.isDisabled()) await solveCaptcha(form);
      await form.send.click();
      await eventually(
        () => mainText(form.page),
        (text) => text.includes(TEXT.invalidEmail),
        `${name} passes the name check`,
      );
    }
  });

  it('clears a message when the visitor types', async () => {
    const form = await openContact();
    await fill(form, { ...VALID, name: 'Jose' });
    await solveCaptcha(form);
    await form.send.click();
    await eventually(
      () => mainText(form.page),
      (text) => text.includes(TEXT.invalidName),
      'name error',
    );
    await form.name.press('End');
    await form.name.type(' Alvarez');
    await eventually(
      () => mainText(form.page),
      (text) => !text.includes(TEXT.invalidName),
      'error cleared by typing',
    );
  });

  it('shows Sending... while held, then success: clears the fields and the captcha; posts exactly the four fields', async () => {
    const form = await openContact();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held: Route | undefined;
    await form.page.route('**/api/contact', async (route) => {
      held = route;
      await released;
      await route.fulfill({ status: 202, contentType: 'text/plain', body: 'not json: the body must not be read' });
    });
    await fill(form, VALID);
    await solveCaptcha(form, 'token-held-123');
    const resetsBefore = await captchaResets(form.page);
    await form.send.click();
    await eventually(() => held !== undefined, Boolean, 'the request reached the network');
    await eventually(
      () => textOf(form.send),
      (t) => t.trim() === TEXT.sending,
      '"Sending..." on the button',
    );
    await expect(form.send.isDisabled(), 'no second submit while sending').resolves.toBe(true);

    const request = held!.request();
    expect(request.headers()['content-type']).toMatch(/application\/json/);
    const body = JSON.parse(request.postData() ?? '') as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['email', 'fullName', 'g-recaptcha-response', 'message']);
    expect(body).toEqual({
      fullName: VALID.name,
      email: VALID.email,
      message: VALID.message,
      'g-recaptcha-response': 'token-held-123',
    });

    release();
    await eventually(
      () => mainText(form.page),
      (text) => text.includes(TEXT.sent),
      `"${TEXT.sent}"`,
    );
    for (const field of [form.name, form.email, form.message]) await expect(field.inputValue()).resolves.toBe('');
    await expect(textOf(form.send)).resolves.toMatch(/^\s*Send\s*$/);
    await expect(form.send.isDisabled(), 'captcha cleared: Send disabled again').resolves.toBe(true);
    expect(await captchaResets(form.page)).toBeGreaterThan(resetsBefore);
    expect(contactPosts(sessions.current)).toHaveLength(1);
    // Typing clears the success message.
    await form.name.type('A');
    await eventually(
      () => mainText(form.page),
      (text) => !text.includes(TEXT.sent),
      'success cleared by typing',
    );
  });

  it.each(['500', 'abort'] as const)('shows the failure message and keeps every field when the request fails (%s)', async (failure) => {
    const form = await openContact();
    sessions.current.allowConsoleError(/status of 500|ERR_FAILED|api\/contact/);
    await form.page.route('**/api/contact', (route) =>
      failure === '500' ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }) : route.abort('failed'),
    );
    const values = { name: "Zoë O'Brien", email: 'zoe+site@example.co', message: 'Line one\n  Line two with  spaces  \n😀' };
    await fill(form, values);
    await solveCaptcha(form);
    const resetsBefore = await captchaResets(form.page);
    await form.send.click();
    await eventually(
      () => mainText(form.page),
      (text) => text.includes(TEXT.sendFailed),
      `"${TEXT.sendFailed}"`,
    );
    expect(await mainText(form.page)).not.toContain(TEXT.sent);
    await expect(form.name.inputValue()).resolves.toBe(values.name);
    await expect(form.email.inputValue()).resolves.toBe(values.email);
    await expect(form.message.inputValue()).resolves.toBe(values.message);
    await expect(textOf(form.send)).resolves.toMatch(/^\s*Send\s*$/);
    expect(await captchaResets(form.page), 'captcha reset on submit').toBeGreaterThan(resetsBefore);
    // Typing clears the failure message.
    await form.message.type('!');
    await eventually(
      () => mainText(form.page),
      (text) => !text.includes(TEXT.sendFailed),
      'failure cleared by typing',
    );
  });
});

interface StoredMail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
}

async function mailsContaining(marker: string): Promise<StoredMail[]> {
  const response = await fetch(`${inject('sesUrl')}/store`);
  expect(response.status).toBe(200);
  const store = (await response.json()) as { emails: StoredMail[] };
  return store.emails.filter((mail) => `${mail.subject}\n${mail.body.text ?? ''}\n${mail.body.html ?? ''}`.includes(marker));
}

async function siteverifyCalls(): Promise<SiteverifyCall[]> {
  return (await (await fetch(inject('siteverifyCallsUrl'))).json()) as SiteverifyCall[];
}

describe('contact form, the real path: local API, fake siteverify, aws-ses-v2-local', () => {
  it('delivers a typed message to the mailbox exactly once, with Reply-To and a subject naming the visitor', async () => {
    const form = await openContact('phone');
    const lastName = uniqueLastName();
    const values = {
      name: `Ada ${lastName}`,
      email: `ada.${lastName.toLowerCase()}@example.org`,
      message: `Hi! Marker ${lastName}: <script>alert(1)</script> & thanks.`,
    };
    await fill(form, values);
    await solveCaptcha(form, `e2e-token-${lastName}`);
    await form.send.click();
    await eventually(
      () => mainText(form.page),
      (text) => text.includes(TEXT.sent),
      `"${TEXT.sent}"`,
      15_000,
    );

    const mails = await eventually(
      () => mailsContaining(lastName),
      (m) => m.length >= 1,
      'the mail in the mailbox',
      10_000,
    );
    // Wait a little longer: a duplicate would show up now.
    await new Promise((resolve) => setTimeout(resolve, 750));
    expect(await mailsContaining(lastName)).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.replyTo).toEqual([values.email]);
    expect(mail.subject).toContain(values.name);
    expect(mail.body.text ?? '').toContain(values.message);
    // Visitor text is escaped in the HTML body.
    expect(mail.body.html ?? '').not.toContain('<script>alert(1)</script>');
    expect(mail.destination.to.length).toBeGreaterThan(0);
    expect(mail.destination.to).not.toContain(values.email);

    // The server verified the page's token with the configured secret, once.
    const calls = (await siteverifyCalls()).filter((c) => c.response === `e2e-token-${lastName}`);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.secret).toBe(inject('recaptchaSecret'));
  });

  it('a retry after a network failure reuses the Idempotency-Key: the message is stored and mailed once', async () => {
    const form = await openContact();
    sessions.current.allowConsoleError(/ERR_FAILED|api\/contact/);
    const lastName = uniqueLastName();
    const values = { name: `Eve ${lastName}`, email: 'eve@example.org', message: `Retry ${lastName}: hello twice?` };
    const keys: (string | undefined)[] = [];
    const languages: (string | undefined)[] = [];
    let first = true;
    // The first request reaches the server (stored and mailed), but its answer is lost on the way back.
    await form.page.route('**/api/contact', async (route) => {
      keys.push(route.request().headers()['idempotency-key']);
      languages.push(route.request().headers()['content-language']);
      if (first) {
        first = false;
        await route.fetch();
        await route.abort('failed');
      } else {
        await route.continue();
      }
    });
    await fill(form, values);
    await solveCaptcha(form, `e2e-token-a-${lastName}`);
    await form.send.click();
    await eventually(
      () => mainText(form.page),
      (text) => text.includes(TEXT.sendFailed),
      `"${TEXT.sendFailed}"`,
      15_000,
    );
    await eventually(
      () => mailsContaining(lastName),
      (m) => m.length === 1,
      'the first request was mailed',
      10_000,
    );
    // The visitor solves the captcha again and presses Send, text untouched.
    await solveCaptcha(form, `e2e-token-b-${lastName}`);
    await form.send.click();
    await eventually(
      () => mainText(form.page),
      (text) => text.includes(TEXT.sent),
      `"${TEXT.sent}"`,
      15_000,
    );
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^"[0-9a-f-]{36}"$/);
    expect(keys[1]).toBe(keys[0]);
    expect(languages).toEqual([await form.page.evaluate(() => document.documentElement.lang), languages[0]]);
    expect(languages[0]).toMatch(/^[a-z]{2}/);
    await new Promise((resolve) => setTimeout(resolve, 750));
    expect(await mailsContaining(lastName)).toHaveLength(1);
  });

  it('sends no mail and shows the failure message when the captcha is refused', async () => {
    const form = await openContact();
    sessions.current.allowConsoleError(/status of 4\d\d/);
    const lastName = uniqueLastName();
    const values = { name: `Bob ${lastName}`, email: 'bob@example.org', message: `Refused ${lastName} message` };
    await fill(form, values);
    await solveCaptcha(form, REFUSED_TOKEN);
    await form.send.click();
    await eventually(
      () => mainText(form.page),
      (text) => text.includes(TEXT.sendFailed),
      `"${TEXT.sendFailed}"`,
      15_000,
    );
    await expect(form.message.inputValue()).resolves.toBe(values.message);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await mailsContaining(lastName)).toEqual([]);
  });
});
