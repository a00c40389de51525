/**
 * The contact form under a metered captcha: the origin check, the per-address limit, the token's
 * shape and the monthly budget all answer before siteverify is asked; Google's answers about quota
 * or keys are the owner's problem (503, no mail), never a refused captcha.
 */
import { describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '../../contract/api-headers';
import { CONTACT_MESSAGES } from '../../contract/contact-rules';
import { CONTACT_ADDRESS_LIMITS } from '../../contract/limits';
import { lambdaContext, RecordingLogger, RecordingMetrics } from '../shared/test-support';
import { buildContactDeps } from './clients';
import { loadContactConfig } from './config';
import { bodyOf, contactEvent, contactFixture, jsonResponse, NOW, VALID_BODY } from './fixtures';
import { budgetMonth, memoryCounters, takeAddressSlot, takeBudgetSlot } from './limits';
import { verifyCaptcha } from './recaptcha';
import { ipv6Prefix64, limitAddress } from './request';

const ctx = lambdaContext();
const ORIGIN = '0b6f3c2e-9a41-11ef-b864-0242ac120002';
const SHORT = CONTACT_ADDRESS_LIMITS[0];
const DAY = CONTACT_ADDRESS_LIMITS[1];

describe('takeAddressSlot', () => {
  it('lets an address make the window maximum, then answers with the seconds to the window end', async () => {
    const store = memoryCounters();
    const start = Date.UTC(2026, 10, 22, 5, 30, 0); // on a 10-minute boundary
    for (let i = 0; i < SHORT.maxRequests; i++) expect(await takeAddressSlot(store, '198.51.100.1', 'k', start + i * 1000)).toEqual({ ok: true });
    expect(await takeAddressSlot(store, '198.51.100.1', 'k', start + 60_000)).toEqual({ ok: false, retryAfterSeconds: SHORT.windowSeconds - 60 });
    // Another address is untouched.
    expect(await takeAddressSlot(store, '198.51.100.2', 'k', start + 60_000)).toEqual({ ok: true });
    // The next window opens again.
    expect(await takeAddressSlot(store, '198.51.100.1', 'k', start + SHORT.windowSeconds * 1000)).toEqual({ ok: true });
  });

  it('the daily window caps what an address gets across many short windows; a full window writes nothing more', async () => {
    const store = memoryCounters();
    const day = Date.UTC(2026, 10, 22);
    let passed = 0;
    for (let window = 0; window < 10; window++) {
      for (let i = 0; i < SHORT.maxRequests + 3; i++) {
        if ((await takeAddressSlot(store, '198.51.100.9', 'k', day + window * SHORT.windowSeconds * 1000 + i)).ok) passed++;
      }
    }
    expect(passed).toBe(DAY.maxRequests);
    const daily = [...store.items.entries()].find(([id]) => id.startsWith(`limit#${DAY.windowSeconds}#`));
    expect(daily?.[1].count).toBe(DAY.maxRequests);
  });

  it('stores a keyed hash, never the address, and the item expires when its window ends', async () => {
    const store = memoryCounters();
    await takeAddressSlot(store, '198.51.100.1', 'key-a', NOW);
    await takeAddressSlot(store, '198.51.100.1', 'key-b', NOW);
    const ids = [...store.items.keys()];
    expect(ids.join()).not.toContain('198.51.100.1');
    expect(new Set(ids).size).toBe(4); // two windows × two keys
    for (const [id, item] of store.items) {
      const [, windowSeconds, , start] = id.split('#');
      expect(item.expiresAt).toBe(Number(start) + Number(windowSeconds));
    }
  });
});

describe('takeBudgetSlot', () => {
  it('counts per UTC month, warns from the warning share on, refuses past the budget until the month turns', async () => {
    const store = memoryCounters();
    const nov = Date.UTC(2026, 10, 30, 23, 59, 0);
    const verdicts = [];
    for (let i = 0; i < 6; i++) verdicts.push(await takeBudgetSlot(store, 5, nov));
    expect(verdicts.map((v) => v.ok)).toEqual([true, true, true, true, true, false]);
    expect(verdicts.map((v) => v.ok && v.warn)).toEqual([false, false, false, true, true, false]);
    expect(await takeBudgetSlot(store, 5, Date.UTC(2026, 11, 1, 0, 0, 1))).toMatchObject({ ok: true, used: 1 });
    expect(budgetMonth(nov)).toBe('2026-11');
    expect(store.items.get('siteverify#2026-11')?.expiresAt).toBe(Date.UTC(2027, 0, 1) / 1000);
  });
});

describe('limitAddress', () => {
  const event = (sourceIp: string, viewer?: string) =>
    contactEvent(VALID_BODY, { sourceIp, headers: { 'content-type': 'application/json', ...(viewer ? { 'cloudfront-viewer-address': viewer } : {}) } });

  it("uses CloudFront's viewer address only when the request came through CloudFront, else the connection's", () => {
    expect(limitAddress(event('130.176.1.1', '198.51.100.7:443'), true)).toBe('198.51.100.7');
    expect(limitAddress(event('130.176.1.1', '198.51.100.7:443'), false)).toBe('130.176.1.1');
    expect(limitAddress(event('::ffff:127.0.0.1'), false)).toBe('127.0.0.1');
  });

  it('counts IPv6 addresses by their /64', () => {
    expect(limitAddress(event('1.1.1.1', '[2001:db8:0:1::5]:443'), true)).toBe('2001:db8:0:1::/64');
    expect(ipv6Prefix64('2001:db8:0:1:ffff:1:2:3')).toBe(ipv6Prefix64('2001:0db8:0000:0001::9'));
    expect(ipv6Prefix64('::1')).toBe('0:0:0:0::/64');
  });
});

describe('contact handler: guards before siteverify', () => {
  it('refuses a request without CloudFront’s origin header before anything else (403), and takes the right one', async () => {
    const f = contactFixture({ originSecret: ORIGIN });
    const attempts: Record<string, string>[] = [
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json', [ORIGIN_VERIFY_HEADER]: `${ORIGIN}x` },
    ];
    for (const headers of attempts) {
      const result = await f.handler(contactEvent(VALID_BODY, { headers }), ctx);
      expect(result.statusCode).toBe(403);
    }
    // Even a malformed body gets the origin answer: nothing about it is read first.
    expect((await f.handler(contactEvent('{', {}), ctx)).statusCode).toBe(403);
    expect(f.verifyCalls).toHaveLength(0);
    const ok = await f.handler(contactEvent(VALID_BODY, { headers: { 'content-type': 'application/json', [ORIGIN_VERIFY_HEADER]: ORIGIN } }), ctx);
    expect(ok.statusCode).toBe(200);
  });

  it('refuses tokens no reCAPTCHA widget issues (400, the captcha message) without asking Google', async () => {
    const f = contactFixture();
    for (const token of ['', 'a b', 'tok=en', '<x>', 'a'.repeat(4001)]) {
      const result = await f.handler(contactEvent({ ...VALID_BODY, 'g-recaptcha-response': token }), ctx);
      expect(result.statusCode, token).toBe(400);
      expect(bodyOf(result)).toEqual({ error: CONTACT_MESSAGES.missingCaptcha });
    }
    expect(f.verifyCalls).toHaveLength(0);
  });

  it('answers 429 with Retry-After once an address is over its share, with no siteverify call; other addresses still send', async () => {
    const counters = memoryCounters();
    const f = contactFixture({ guards: { counters, hashKey: 'k', monthlyBudget: 1000 }, now: () => NOW });
    const statuses = [];
    for (let i = 0; i < SHORT.maxRequests + 3; i++) statuses.push((await f.handler(contactEvent(VALID_BODY, { sourceIp: '198.51.100.1' }), ctx)).statusCode);
    expect(statuses).toEqual([...Array<number>(SHORT.maxRequests).fill(200), 429, 429, 429]);
    expect(f.verifyCalls).toHaveLength(SHORT.maxRequests);
    const limited = await f.handler(contactEvent(VALID_BODY, { sourceIp: '198.51.100.1' }), ctx);
    expect(bodyOf(limited)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
    expect(Number(limited.headers?.['retry-after'])).toBeGreaterThan(0);
    expect((await f.handler(contactEvent(VALID_BODY, { sourceIp: '198.51.100.2' }), ctx)).statusCode).toBe(200);
  });

  it('answers 503 with the failure message past the monthly budget, without calling Google', async () => {
    const counters = memoryCounters();
    const f = contactFixture({ guards: { counters, hashKey: 'k', monthlyBudget: 2 }, now: () => NOW });
    const statuses = [];
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) statuses.push((await f.handler(contactEvent(VALID_BODY, { sourceIp: ip }), ctx)).statusCode);
    expect(statuses).toEqual([200, 200, 503]);
    expect(f.verifyCalls).toHaveLength(2);
    expect(f.sesCalls).toHaveLength(2);
    expect(f.metrics.names().filter((name) => name === 'ContactCaptchaNeedsOwner')).toHaveLength(2); // warned, then spent
    expect(f.logger.lines.find((line) => line.level === 'error' && /budget/.test(line.message))).toBeDefined();
  });

  it('goes on uncounted when the counters do not answer (a broken counter never closes the form)', async () => {
    const f = contactFixture({ guards: { counters: { take: () => Promise.reject(new Error('down')) }, hashKey: 'k', monthlyBudget: 1 } });
    expect((await f.handler(contactEvent(VALID_BODY), ctx)).statusCode).toBe(200);
    expect(f.logger.lines.some((line) => line.level === 'warn')).toBe(true);
  });
});

describe("Google's answers about quota, billing and keys", () => {
  const quotaText = 'Over Enterprise free quota. Please ensure your project has an active billing account: https://console.cloud.google.com/billing';
  it.each([
    ['HTTP 429', () => jsonResponse({ error: 'RESOURCE_EXHAUSTED' }, 429), 'quota'],
    ['the free-quota error code', () => jsonResponse({ success: false, 'error-codes': [quotaText] }), 'quota'],
    ['invalid-keys', () => jsonResponse({ success: false, 'error-codes': ['invalid-keys'] }), 'keys'],
    ['success: true with error codes', () => jsonResponse({ success: true, score: 0.9, 'error-codes': ['some-error'] }), 'success-with-errors'],
  ])('%s: 503, no mail, its own metric and a log line saying what to do; never "refused"', async (_label, answer, reason) => {
    const verdict = await verifyCaptcha({ fetch: () => Promise.resolve(answer()), url: 'https://v.test', secret: 's', token: 't', timeoutMs: 1000 });
    expect(verdict).toMatchObject({ kind: 'owner-action', reason });
    const f = contactFixture({ verify: () => Promise.resolve(answer()) });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(503);
    expect(bodyOf(result)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
    expect(f.sesCalls).toHaveLength(0);
    expect(f.metrics.names()).toEqual(['ContactCaptchaNeedsOwner', 'ContactMessageFailed']);
    expect(f.logger.lines.find((line) => line.level === 'error')?.message).toMatch(/billing|new one/);
  });

  it('a plain refusal is still the visitor’s (403)', async () => {
    const f = contactFixture({ verify: () => Promise.resolve(jsonResponse({ success: false, 'error-codes': ['invalid-input-response'] })) });
    expect((await f.handler(contactEvent(VALID_BODY), ctx)).statusCode).toBe(403);
  });
});

describe('buildContactDeps: one builder for Lambda and the local stack', () => {
  const base = { OWNER_EMAIL: 'o@example.com', SENDER_EMAIL: 's@example.com', RECAPTCHA_SECRET: 'x', SES_ENDPOINT: 'http://127.0.0.1:1' };
  const build = (env: Record<string, string>) => {
    const loaded = loadContactConfig(env);
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    return buildContactDeps(loaded.config, { logger: new RecordingLogger(), metrics: new RecordingMetrics(), hasAwsCredentials: false });
  };

  it('guards with the archive table, the origin value as the hash key, the budget from the environment', () => {
    const deps = build({ ...base, ARCHIVE_TABLE: 'messages', AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:2', ORIGIN_VERIFY_VALUE: ORIGIN, CAPTCHA_MONTHLY_BUDGET: '42' });
    expect(deps.guards).toMatchObject({ hashKey: ORIGIN, monthlyBudget: 42 });
    expect(deps.originSecret).toBe(ORIGIN);
  });

  it('no archive: no guards and no origin check unless set', () => {
    const deps = build(base);
    expect(deps.guards).toBeUndefined();
    expect(deps.originSecret).toBeUndefined();
  });
});
