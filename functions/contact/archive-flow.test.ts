/**
 * The contact flow with the message archive: every branch of the promise to the visitor ("sent"
 * when the archive or SES took the message, or both), the Idempotency-Key (sequential and
 * concurrent), Content-Language, and what must never be stored or logged.
 */
import { describe, expect, it } from 'vitest';
import { ARCHIVE_ID_MESSAGE_TAG } from '../../contract/archive';
import { CONTACT_MESSAGES } from '../../contract/contact-rules';
import { ARCHIVE_METRICS, CONTACT_METRICS } from '../../contract/metrics';
import { CLAIM_MS } from '../archive/delivery';
import { FakeArchive } from '../archive/fake-store';
import { createMailEventsHandler } from '../archive/mail-events';
import { redeliverPending } from '../archive/redeliver';
import { eventBridgeEvent } from '../archive/ses-event-samples';
import { archiveIdForKey } from '../archive/idempotency';
import { lambdaContext, RecordingLogger, RecordingMetrics } from '../shared/test-support';
import { bodyOf, contactEvent, contactFixture, jsonResponse, sesBehaviour, VALID_BODY, verifier } from './fixtures';
import { IDEMPOTENCY_CONFLICT } from './flow';

const ctx = lambdaContext();
const JSON_TYPE = { 'content-type': 'application/json' };
const KEY = '8e03978e-40d5-43e8-bc93-6894a57f9324';
const withKey = (key = KEY, extra: Record<string, string> = {}) => ({ headers: { ...JSON_TYPE, 'idempotency-key': `"${key}"`, ...extra } });

function only<T>(items: Iterable<T>): T {
  const all = [...items];
  expect(all).toHaveLength(1);
  return all[0]!;
}

/** Nothing the visitor typed appears in a log line or a metric. */
function expectNoVisitorText(f: ReturnType<typeof contactFixture>): void {
  const logged = f.logger.text() + JSON.stringify(f.metrics.counts);
  for (const secret of [VALID_BODY.fullName, VALID_BODY.email, VALID_BODY.message, 'José', 'jose.alvarez']) {
    expect(logged).not.toContain(secret);
  }
}

describe('contact flow with the archive: the answer and what is kept', () => {
  it('archives, mails with the configuration set and the archive-id tag, then marks the message sent', async () => {
    const archive = new FakeArchive();
    const now = Date.UTC(2026, 10, 25, 9, 0, 0);
    const f = contactFixture({ archive, now: () => now, retentionDays: 30, configurationSet: 'portfolio-mail' });
    const result = await f.handler(contactEvent(VALID_BODY, { headers: { ...JSON_TYPE, 'content-language': 'es' } }), ctx);
    expect(result.statusCode).toBe(200);
    const item = only(archive.items.values());
    expect(item).toMatchObject({
      name: VALID_BODY.fullName,
      email: VALID_BODY.email,
      message: VALID_BODY.message,
      language: 'es',
      status: 'sent',
      attempts: 1,
      sesMessageId: 'message-1',
      receivedAt: new Date(now).toISOString(),
      expiresAt: Math.floor(now / 1000) + 30 * 86_400,
    });
    expect(item.claimedUntil).toBeUndefined();
    expect(item.idempotencyHash).toBeUndefined();
    expect(item.id).toMatch(/^[0-9a-f-]{36}$/);
    const mail = only(f.sesCalls);
    expect(mail.ConfigurationSetName).toBe('portfolio-mail');
    expect(mail.Tags).toEqual([{ Name: ARCHIVE_ID_MESSAGE_TAG, Value: item.id }]);
    expect(mail.Message?.Body?.Text?.Data).toContain('Written from the Spanish page (es)');
    expect(archive.calls).toEqual(['put', 'markSent']);
    expect(f.metrics.names()).toEqual([CONTACT_METRICS.sent]);
    expectNoVisitorText(f);
  });

  it.each([
    ['throttled', sesBehaviour.fails('Throttling', 400)],
    ['failing (500)', sesBehaviour.fails('InternalFailure', 500)],
    ['unreachable (connection refused)', () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))],
  ])('SES %s: the message stays pending for the redelivery and the visitor is told it was sent', async (_label, ses) => {
    const archive = new FakeArchive();
    const f = contactFixture({ archive, ses, timeouts: { sesMs: 300 } });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toEqual({ ok: true });
    const item = only(archive.items.values());
    expect(item.status).toBe('pending');
    expect(item.claimedUntil).toBeUndefined(); // released: the next redelivery run may take it
    expect(item.lastError).toMatch(/^(Throttling|InternalFailure|Error: connect ECONNREFUSED)/);
    expect(f.sesCalls).toHaveLength(1);
    expect(f.metrics.names()).toEqual([CONTACT_METRICS.sent]);
    expectNoVisitorText(f);
  });

  it.each([
    ['timing out', sesBehaviour.fails('TimeoutError', 0)],
    ['hanging past its window', sesBehaviour.hangs],
  ])(
    'SES %s (it may have sent it): 200, pending, and the claim is kept so nothing resends it before SES could tell',
    async (_label, ses) => {
      const archive = new FakeArchive();
      const now = Date.UTC(2026, 10, 25, 9, 0, 0);
      const f = contactFixture({ archive, ses, timeouts: { sesMs: 300 }, now: () => now });
      expect((await f.handler(contactEvent(VALID_BODY), ctx)).statusCode).toBe(200);
      const item = only(archive.items.values());
      expect(item).toMatchObject({ status: 'pending', claimedUntil: now + CLAIM_MS });
      expect(item.lastError).toMatch(/^No answer from SES: (TimeoutError|AbortError)/);
      expect(await archive.claim(item.id, now + 1_000, now + 2_000)).toBeUndefined();
    },
  );

  it("SES's answer lost, its Send event arrives: the redelivery never sends it again, exactly one mail", async () => {
    const archive = new FakeArchive();
    const now = Date.UTC(2026, 10, 25, 9, 0, 0);
    const f = contactFixture({ archive, ses: sesBehaviour.fails('TimeoutError', 0), timeouts: { sesMs: 300 }, now: () => now });
    expect((await f.handler(contactEvent(VALID_BODY), ctx)).statusCode).toBe(200);
    const item = only(archive.items.values());
    const events = createMailEventsHandler({
      archive,
      logger: new RecordingLogger(),
      metrics: new RecordingMetrics(),
      archiveTimeoutMs: 500,
    });
    expect(await events(eventBridgeEvent('Send', item.id))).toEqual({ applied: 1, skipped: 0 });
    const resent: unknown[] = [];
    const report = await redeliverPending({
      archive,
      ses: { send: (command) => (resent.push(command.input), Promise.resolve({ MessageId: 'again' })) },
      mail: { ownerEmail: 'owner@example.com', senderEmail: 'site@example.com' },
      now: () => now + CLAIM_MS + 1,
      logger: new RecordingLogger(),
      metrics: new RecordingMetrics(),
      sesTimeoutMs: 500,
      archiveTimeoutMs: 500,
    });
    expect(report).toMatchObject({ pending: 0, sent: 0 });
    expect(f.sesCalls.length + resent.length).toBe(1);
    expect(archive.items.get(item.id)?.status).toBe('sent');
  });

  it.each(['MessageRejected', 'MailFromDomainNotVerifiedException'])(
    'SES refuses for good (%s): kept as failed with the reason, counted, and the visitor is told it was sent',
    async (name) => {
      const archive = new FakeArchive();
      const f = contactFixture({ archive, ses: sesBehaviour.fails(name) });
      const result = await f.handler(contactEvent(VALID_BODY), ctx);
      expect(result.statusCode).toBe(200);
      const item = only(archive.items.values());
      expect(item.status).toBe('failed');
      expect(item.lastError).toContain(name);
      expect(f.metrics.names()).toEqual([ARCHIVE_METRICS.failed, CONTACT_METRICS.sent]);
      expectNoVisitorText(f);
    },
  );

  it('archive unreachable, SES working: mailed, answered 200, counted and logged', async () => {
    const archive = new FakeArchive();
    archive.down = true;
    const f = contactFixture({ archive });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(200);
    expect(f.sesCalls).toHaveLength(1);
    expect(f.metrics.names()).toEqual([ARCHIVE_METRICS.archiveUnavailable, CONTACT_METRICS.sent]);
    expect(f.logger.lines.some((l) => l.message === 'The message archive did not answer' && l.fields.call === 'put')).toBe(true);
    expectNoVisitorText(f);
  });

  it.each([
    ['failing', sesBehaviour.fails('ServiceUnavailable', 503), 503],
    ['refusing', sesBehaviour.fails('MessageRejected'), 502],
  ])('archive unreachable and SES %s: the failure answer, as without the archive', async (_label, ses, status) => {
    const archive = new FakeArchive();
    archive.down = true;
    const f = contactFixture({ archive, ses });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(status);
    expect(bodyOf(result).error).toBe(CONTACT_MESSAGES.sendFailed);
    expect(f.metrics.names()).toEqual([ARCHIVE_METRICS.archiveUnavailable, CONTACT_METRICS.failed]);
  });

  it('an archive that fails only after the mail went out still answers 200 (the mail is there)', async () => {
    const archive = new FakeArchive();
    archive.down = new Set(['markSent']);
    const f = contactFixture({ archive });
    expect((await f.handler(contactEvent(VALID_BODY), ctx)).statusCode).toBe(200);
    expect(f.sesCalls).toHaveLength(1);
  });

  it.each([
    ['a refused captcha', { verify: () => verifier.refuses() }, VALID_BODY, 403],
    ['a broken rule', {}, { ...VALID_BODY, email: 'not-an-address' }, 400],
    ['a body of the wrong shape', {}, { ...VALID_BODY, extra: 'x' }, 400],
  ])('%s stores nothing and mails nothing', async (_label, options, body, status) => {
    const archive = new FakeArchive();
    const f = contactFixture({ archive, ...options });
    expect((await f.handler(contactEvent(body), ctx)).statusCode).toBe(status);
    expect(archive.items.size).toBe(0);
    expect(archive.calls).not.toContain('put');
    expect(f.sesCalls).toHaveLength(0);
  });

  it('ignores a Content-Language that is not one plain language tag', async () => {
    for (const value of ['en-US,es;q=0.5', '<script>', 'x'.repeat(40), 'e']) {
      const archive = new FakeArchive();
      const f = contactFixture({ archive });
      const result = await f.handler(contactEvent(VALID_BODY, { headers: { ...JSON_TYPE, 'content-language': value } }), ctx);
      expect(result.statusCode).toBe(200);
      expect(only(archive.items.values()).language).toBeUndefined();
      expect(only(f.sesCalls).Message?.Body?.Text?.Data).not.toContain('Written from');
    }
  });
});

describe('contact flow: Idempotency-Key', () => {
  it('a repeat of the same message: one stored, one mail, one captcha check, the first answer again', async () => {
    const archive = new FakeArchive();
    const f = contactFixture({ archive });
    const first = await f.handler(contactEvent(VALID_BODY, withKey()), ctx);
    // The visitor solved a new captcha before pressing Send again: the token differs, the message does not.
    const again = await f.handler(contactEvent({ ...VALID_BODY, 'g-recaptcha-response': 'another-token' }, withKey()), ctx);
    expect(first.statusCode).toBe(200);
    expect(again).toEqual(first);
    expect(archive.items.size).toBe(1);
    expect(only(archive.items.keys())).toBe(archiveIdForKey(KEY));
    expect(f.sesCalls).toHaveLength(1);
    expect(f.verifyCalls).toHaveLength(1);
  });

  it('a repeat while the first is still pending (SES down) is not mailed by the repeat either', async () => {
    const archive = new FakeArchive();
    const f = contactFixture({ archive, ses: sesBehaviour.fails('Throttling') });
    await f.handler(contactEvent(VALID_BODY, withKey()), ctx);
    expect((await f.handler(contactEvent(VALID_BODY, withKey()), ctx)).statusCode).toBe(200);
    expect(f.sesCalls).toHaveLength(1); // the redelivery sends it, not the repeat
  });

  it('two requests with one key at the same moment: the conditional put decides, one mail, the same answer', async () => {
    const archive = new FakeArchive();
    const f = contactFixture({ archive });
    const results = await Promise.all(Array.from({ length: 5 }, () => f.handler(contactEvent(VALID_BODY, withKey()), ctx)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body))).toEqual(new Set([JSON.stringify({ ok: true })]));
    expect(archive.items.size).toBe(1);
    expect(f.sesCalls).toHaveLength(1);
    expect(archive.calls.filter((c) => c === 'put')).toHaveLength(5);
  });

  it('the same token twice at the same moment: Google calls the second a duplicate, it still gets the first answer', async () => {
    const archive = new FakeArchive();
    let seen = 0;
    const f = contactFixture({
      archive,
      verify: async () => {
        seen += 1;
        return seen === 1
          ? jsonResponse({ success: true, hostname: 'example.test' })
          : jsonResponse({ success: false, 'error-codes': ['timeout-or-duplicate'] });
      },
    });
    const results = await Promise.all([
      f.handler(contactEvent(VALID_BODY, withKey()), ctx),
      f.handler(contactEvent(VALID_BODY, withKey()), ctx),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(f.sesCalls).toHaveLength(1);
  });

  it('the same key with another message: 422 with a clear error, nothing stored or mailed for it', async () => {
    const archive = new FakeArchive();
    const f = contactFixture({ archive });
    await f.handler(contactEvent(VALID_BODY, withKey()), ctx);
    const other = await f.handler(contactEvent({ ...VALID_BODY, message: 'A different message entirely.' }, withKey()), ctx);
    expect(other.statusCode).toBe(422);
    expect(bodyOf(other)).toEqual({ error: IDEMPOTENCY_CONFLICT });
    expect(only(archive.items.values()).message).toBe(VALID_BODY.message);
    expect(f.sesCalls).toHaveLength(1);
    expect(f.metrics.names()).toEqual([CONTACT_METRICS.sent, CONTACT_METRICS.rejected]);
  });

  it('the same key with another message at the same moment: one wins, the other gets 422', async () => {
    const archive = new FakeArchive();
    const f = contactFixture({ archive });
    const results = await Promise.all([
      f.handler(contactEvent(VALID_BODY, withKey()), ctx),
      f.handler(contactEvent({ ...VALID_BODY, message: 'A different message entirely.' }, withKey()), ctx),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    expect(f.sesCalls).toHaveLength(1);
  });

  it.each([
    ['too long', `"${'a'.repeat(256)}"`],
    ['empty', '""'],
    ['a quote inside', '"abc"def"'],
    ['a backslash', '"abc\\\\def"'],
    ['a control character', '"abc\tdef"'],
    ['non-ASCII', '"clé"'],
  ])('a malformed key (%s) is a 400 that stores and mails nothing', async (_label, value) => {
    const archive = new FakeArchive();
    const f = contactFixture({ archive });
    const result = await f.handler(contactEvent(VALID_BODY, { headers: { ...JSON_TYPE, 'idempotency-key': value } }), ctx);
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result).error).toMatch(/Idempotency-Key/);
    expect(archive.calls).toEqual([]);
    expect(f.sesCalls).toHaveLength(0);
  });

  it('accepts a bare (unquoted) key and a key of exactly 255 characters', async () => {
    for (const value of [KEY, `"${'k'.repeat(255)}"`]) {
      const archive = new FakeArchive();
      const f = contactFixture({ archive });
      expect((await f.handler(contactEvent(VALID_BODY, { headers: { ...JSON_TYPE, 'idempotency-key': value } }), ctx)).statusCode).toBe(
        200,
      );
      expect(only(archive.items.values()).idempotencyHash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('without an archive a key changes nothing: mailed as before', async () => {
    const f = contactFixture();
    expect((await f.handler(contactEvent(VALID_BODY, withKey()), ctx)).statusCode).toBe(200);
    expect(f.sesCalls).toHaveLength(1);
  });
});

describe('contact flow: a duplicate token with nothing archived', () => {
  it('waits a bounded time for a twin request, then answers 403 as for any refused token', async () => {
    const archive = new FakeArchive();
    const f = contactFixture({
      archive,
      now: () => Date.UTC(2026, 10, 25), // a frozen clock must not make the wait endless
      verify: () => verifier.refuses(['timeout-or-duplicate']),
    });
    const started = Date.now();
    const result = await f.handler(contactEvent(VALID_BODY, withKey()), ctx);
    expect(result.statusCode).toBe(403);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(archive.items.size).toBe(0);
  });
});
