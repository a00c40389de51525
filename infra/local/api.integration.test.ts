/**
 * The contact and events API through the real local server (issue 3): the real handlers, a fake
 * siteverify on 127.0.0.1 and the real aws-ses-v2-local mailbox. Faults: the verifier hangs,
 * fails or talks nonsense, the mailbox is down; each ends in a 5xx within 10 s with no mail, and
 * the server keeps serving.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES } from '../../contract/contact-rules';
import { startFakeSiteverify, type FakeSiteverify, type SiteverifyMode } from './fake-siteverify';
import { fetchMails } from './mailbox';
import { RECAPTCHA_TEST_SECRET, startLocalStack, type LocalStack } from './stack';
import { clearMailbox, fixtureBuild, send, type RawReply } from './test-support';

let stack: LocalStack;
let verifier: FakeSiteverify;
let buildDir: string;

const VALID = {
  fullName: 'Zoë O’Brien',
  email: 'zoe.obrien@example.org',
  message: 'Hello! <b>Bold</b> & "quoted" text\nSecond line.',
  'g-recaptcha-response': 'token-from-the-widget',
};

function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<RawReply> {
  return send(stack.url, {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', 'user-agent': 'integration-test', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const json = (reply: RawReply) => JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>;

beforeAll(async () => {
  verifier = await startFakeSiteverify('pass');
  const fixture = fixtureBuild();
  buildDir = fixture.buildDir;
  stack = await startLocalStack({
    port: 0,
    sesPort: 0,
    clientDir: fixture.clientDir,
    recaptchaVerifyUrl: verifier.url,
    quiet: true,
  });
});

afterAll(async () => {
  await stack?.stop();
  await verifier?.stop();
  rmSync(buildDir, { recursive: true, force: true });
});

beforeEach(async () => {
  verifier.mode = 'pass';
  verifier.calls.length = 0;
  await clearMailbox(stack.sesUrl);
});

describe('POST /api/contact', () => {
  it('mails a valid message exactly once, with the right addresses, subject and bodies', async () => {
    const reply = await postJson('/api/contact', VALID);
    expect(reply.status).toBeGreaterThanOrEqual(200);
    expect(reply.status).toBeLessThan(300);
    expect(reply.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    // A duplicate could only come from a retry after the answer: look again a moment later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const mails = await fetchMails(stack.sesUrl);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.destination.to).toEqual(['owner@example.com']);
    expect(mail.from).toContain('portfolio@example.com');
    expect(mail.replyTo).toEqual([VALID.email]);
    expect(mail.subject).toContain(VALID.fullName);
    expect(mail.body.text).toContain('Hello! <b>Bold</b> & "quoted" text');
    expect(mail.body.text).toContain('Second line.');
    expect(mail.body.html).toContain('&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;quoted&quot;');
    expect(mail.body.html).not.toContain('<b>Bold</b>');

    expect(verifier.calls).toEqual([
      { secret: RECAPTCHA_TEST_SECRET, response: VALID['g-recaptcha-response'], remoteip: '127.0.0.1' },
    ]);
    const call = stack.apiCalls.at(-1)!;
    expect(call).toMatchObject({ method: 'POST', path: '/api/contact', routeKey: 'POST /api/contact', status: reply.status });
  });

  it('sends nothing when siteverify refuses the token', async () => {
    verifier.mode = 'refuse';
    const reply = await postJson('/api/contact', VALID);
    expect([400, 403]).toContain(reply.status);
    expect(json(reply).error).toBe(CONTACT_MESSAGES.missingCaptcha);
    expect(await fetchMails(stack.sesUrl)).toHaveLength(0);
  });

  it.each([
    [{ ...VALID, fullName: 'Madonna' }, CONTACT_MESSAGES.invalidName],
    [{ ...VALID, email: 'zoe@example.museum' }, CONTACT_MESSAGES.invalidEmail],
    [{ ...VALID, message: 'Hi!' }, CONTACT_MESSAGES.invalidMessage],
    [{ ...VALID, 'g-recaptcha-response': '' }, CONTACT_MESSAGES.missingCaptcha],
  ])('answers 400 with the spec’s message and asks no one: %#', async (body, message) => {
    const reply = await postJson('/api/contact', body);
    expect(reply.status).toBe(400);
    expect(json(reply)).toEqual({ error: message });
    expect(verifier.calls).toHaveLength(0);
    expect(await fetchMails(stack.sesUrl)).toHaveLength(0);
  });

  it('passes non-JSON bodies to the handler base64-encoded, as API Gateway does, and gets a 4xx', async () => {
    const reply = await send(stack.url, {
      method: 'POST',
      path: '/api/contact',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.from([0xff, 0xfe, 0x00, 0x01]),
    });
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(await fetchMails(stack.sesUrl)).toHaveLength(0);
  });

  it('answers 413 past the gateway’s body cap without calling the handler', async () => {
    const reply = await postJson('/api/contact', 'x'.repeat(2 * 1024 * 1024));
    expect(reply.status).toBe(413);
    expect(json(reply)).toEqual({ message: 'Request Entity Too Large' });
    expect(verifier.calls).toHaveLength(0);
    // Under the gateway's cap but over the handler's own 32 KB limit: the handler's 413.
    const handlerReply = await postJson('/api/contact', { ...VALID, message: 'y'.repeat(40_000) });
    expect(handlerReply.status).toBe(413);
    expect(json(handlerReply).error).toEqual(expect.any(String));
  });
});

describe('faults: 5xx within 10 s, no mail, and the server keeps serving', () => {
  async function expectRecovered() {
    verifier.mode = 'pass';
    expect((await send(stack.url, { path: '/ok.txt' })).status).toBe(200);
    expect((await postJson('/api/events', { name: 'HOME_EXPLORE_PROJECTS_CLICK' })).status).toBe(204);
    const reply = await postJson('/api/contact', VALID);
    expect(reply.status).toBe(200);
    expect(await fetchMails(stack.sesUrl)).toHaveLength(1);
  }

  it.each<SiteverifyMode>(['hang', 'error', 'not-json'])('siteverify %s', async (mode) => {
    verifier.mode = mode;
    const reply = await postJson('/api/contact', VALID);
    expect(reply.status).toBeGreaterThanOrEqual(500);
    expect(reply.status).toBeLessThan(600);
    expect(reply.ms).toBeLessThan(10_000);
    expect(json(reply)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
    expect(verifier.calls).toHaveLength(1);
    expect(await fetchMails(stack.sesUrl)).toHaveLength(0);
    await expectRecovered();
  });

  it('the mailbox is down', async () => {
    await stack.mailbox.stop();
    try {
      const reply = await postJson('/api/contact', VALID);
      expect(reply.status).toBeGreaterThanOrEqual(500);
      expect(reply.status).toBeLessThan(600);
      expect(reply.ms).toBeLessThan(10_000);
      expect(json(reply)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
    } finally {
      await stack.mailbox.start();
    }
    expect(await fetchMails(stack.sesUrl)).toHaveLength(0);
    await expectRecovered();
  });
});

describe('POST /api/events', () => {
  it('answers 204 to a valid name and records it', async () => {
    const reply = await postJson('/api/events', { name: 'PROJECT_VIEW_HOTEL_BOOKING' });
    expect(reply.status).toBe(204);
    expect(reply.body.length).toBe(0);
    expect(stack.apiCalls.at(-1)).toMatchObject({
      path: '/api/events',
      status: 204,
      body: JSON.stringify({ name: 'PROJECT_VIEW_HOTEL_BOOKING' }),
    });
  });

  it('accepts the text/plain body navigator.sendBeacon sends for a string', async () => {
    const reply = await postJson('/api/events', JSON.stringify({ name: 'BLOGS_CLIENT_BLOGS' }), {
      'content-type': 'text/plain;charset=UTF-8',
    });
    expect(reply.status).toBe(204);
    expect(stack.apiCalls.at(-1)?.body).toBe(JSON.stringify({ name: 'BLOGS_CLIENT_BLOGS' }));
  });

  it.each([{ name: 'lower_case' }, { name: '' }, { name: 'A'.repeat(101) }, [], 'null', '{'])(
    'answers 400 to %j',
    async (body) => {
      const reply = await postJson('/api/events', body);
      expect(reply.status).toBe(400);
    },
  );
});
