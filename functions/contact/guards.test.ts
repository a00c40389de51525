/**
 * The contact form under a metered captcha: the origin check, the per-address limit, the token's
 * shape and the monthly budget all answer before siteverify is asked; Google's answers about quota
 * or keys are the owner's problem (503, no mail), never a refused captcha.
 */
import { describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '../../contract/api-headers';
import { CONTACT_MESSAGES } from '../../contract/contact-rules';
import { CONTACT_ADDRESS_LIMITS, CONTACT_NETWORK_LIMITS } from '../../contract/limits';
import { FakeArchive } from '../archive/fake-store';
import { readSpend } from '../shared/spend';
import { lambdaContext, RecordingLogger, RecordingMetrics } from '../shared/test-support';
import { buildContactDeps } from './clients';
import { loadContactConfig } from './config';
import { bodyOf, contactEvent, contactFixture, jsonResponse, NOW, VALID_BODY } from './fixtures';
import {
  budgetMonth,
  budgetSoFar,
  counterKeys,
  ipv6Prefix48,
  memoryCounters,
  takeAddressSlot,
  takeBudgetSlot,
  takeVisitorSlot,
} from './limits';
import { verifyCaptcha } from './recaptcha';
import { ipv6Prefix64, limitAddress, UNKNOWN_ADDRESS } from './request';

const ctx = lambdaContext();
const ORIGIN = '0b6f3c2e-9a41-11ef-b864-0242ac120002';
const SHORT = CONTACT_ADDRESS_LIMITS[0];
const DAY = CONTACT_ADDRESS_LIMITS[1];
const KEY = () => Promise.resolve('k');

describe('takeAddressSlot', () => {
  it('lets an address make the window maximum, then answers with the seconds to the window end', async () => {
    const store = memoryCounters();
    const start = Date.UTC(2026, 10, 22, 5, 30, 0); // on a 10-minute boundary
    for (let i = 0; i < SHORT.maxRequests; i++)
      expect(await takeAddressSlot(store, '198.51.100.1', 'k', start + i * 1000)).toEqual({ ok: true });
    expect(await takeAddressSlot(store, '198.51.100.1', 'k', start + 60_000)).toEqual({
      ok: false,
      retryAfterSeconds: SHORT.windowSeconds - 60,
    });
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
    const nov = Date.UTC(2026, 10, 30, 23, 59, 0); // the month's last day: its portion is the whole budget
    const verdicts = [];
    for (let i = 0; i < 6; i++) verdicts.push(await takeBudgetSlot(store, 5, nov));
    expect(verdicts.map((v) => v.ok)).toEqual([true, true, true, true, true, false]);
    expect(verdicts.map((v) => v.ok && v.warn)).toEqual([false, false, false, true, true, false]);
    expect(verdicts[5]).toMatchObject({ ok: false, spent: 'month' });
    expect(await takeBudgetSlot(store, 5, Date.UTC(2026, 11, 1, 0, 0, 1))).toMatchObject({ ok: true, used: 1 });
    expect(budgetMonth(nov)).toBe('2026-11');
    expect(store.items.get('siteverify#2026-11')?.expiresAt).toBe(Date.UTC(2027, 0, 1) / 1000);
  });

  it('spends the month in daily portions: a flood closes the form until midnight UTC, and a quiet day carries on', async () => {
    expect(budgetSoFar(9000, Date.UTC(2026, 10, 1, 12))).toBe(300); // 30 days
    expect(budgetSoFar(9000, Date.UTC(2026, 10, 2))).toBe(600);
    expect(budgetSoFar(9000, Date.UTC(2026, 11, 31))).toBe(9000);
    expect(budgetSoFar(10, Date.UTC(2026, 1, 1))).toBe(1); // ceil: never a day of nothing
    const store = memoryCounters();
    const day1 = Date.UTC(2026, 10, 1, 9);
    let passed = 0;
    let last;
    for (let i = 0; i < 400; i++) {
      last = await takeBudgetSlot(store, 9000, day1 + i);
      if (last.ok) passed++;
    }
    expect(passed).toBe(300);
    expect(last).toMatchObject({ ok: false, spent: 'day' });
    // The next day opens with its own portion; a quiet day 3 leaves day 4 two portions.
    expect(await takeBudgetSlot(store, 9000, Date.UTC(2026, 10, 2, 0, 0, 1))).toMatchObject({ ok: true, used: 301 });
    passed = 0;
    for (let i = 0; i < 1000; i++) if ((await takeBudgetSlot(store, 9000, Date.UTC(2026, 10, 4, 8) + i)).ok) passed++;
    expect(passed).toBe(1200 - 301);
  });
});

describe('counterKeys', () => {
  it('one random key per UTC day, the same for every Lambda, deleted when the day ends', async () => {
    const store = memoryCounters();
    let made = 0;
    const random = () => `key-${++made}`;
    const a = counterKeys(store, random);
    const b = counterKeys(store, random);
    const day = Date.UTC(2026, 10, 22, 10);
    expect(await a(day)).toBe('key-1');
    expect(await b(day + 1000)).toBe('key-1'); // another Lambda reads the day's key
    expect(store.values.get('counterkey#2026-11-22')?.expiresAt).toBe(Date.UTC(2026, 10, 23) / 1000);
    expect(await a(day + 14 * 3600_000 + 1)).toBe('key-3'); // the next UTC day: a new one
    // A Lambda that lived through the turn deletes the finished day's key at once (the breaker does too).
    expect(store.values.has('counterkey#2026-11-22')).toBe(false);
    expect(store.values.has('counterkey#2026-11-23')).toBe(true);
    // The default key is 32 random bytes.
    expect(await counterKeys(memoryCounters())(day)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('one address has unrelated hashes on two days', async () => {
    const store = memoryCounters();
    const keys = counterKeys(store);
    const day = Date.UTC(2026, 10, 22, 10);
    await takeAddressSlot(store, '198.51.100.1', await keys(day), day);
    await takeAddressSlot(store, '198.51.100.1', await keys(day + 86_400_000), day + 86_400_000);
    const hashes = new Set([...store.items.keys()].map((id) => id.split('#')[2]));
    expect(hashes.size).toBe(2);
  });
});

describe('takeVisitorSlot', () => {
  it('counts an IPv6 /64 and, with a larger allowance, its /48: stepping through /64s does not help', async () => {
    expect(ipv6Prefix48('2001:db8:0:1::/64')).toBe('2001:db8:0::/48');
    expect(ipv6Prefix48('198.51.100.1')).toBeUndefined();
    const store = memoryCounters();
    let passed = 0;
    for (let net = 0; net < 100; net++) {
      for (let i = 0; i < SHORT.maxRequests; i++)
        if ((await takeVisitorSlot(store, `2001:db8:0:${net.toString(16)}::/64`, 'k', NOW)).ok) passed++;
    }
    expect(passed).toBe(CONTACT_NETWORK_LIMITS[0].maxRequests);
    expect((await takeVisitorSlot(store, '2001:db8:1:0::/64', 'k', NOW)).ok).toBe(true); // another /48
  });
});

describe('limitAddress', () => {
  const event = (sourceIp: string, viewer?: string) =>
    contactEvent(VALID_BODY, {
      sourceIp,
      headers: { 'content-type': 'application/json', ...(viewer ? { 'cloudfront-viewer-address': viewer } : {}) },
    });

  it("uses CloudFront's viewer address only when the request came through CloudFront, else the connection's", () => {
    expect(limitAddress(event('130.176.1.1', '198.51.100.7:443'), true)).toBe('198.51.100.7');
    expect(limitAddress(event('130.176.1.1', '198.51.100.7:443'), false)).toBe('130.176.1.1');
    expect(limitAddress(event('::ffff:127.0.0.1'), false)).toBe('127.0.0.1');
  });

  it('counts a request without a readable address under one shared address, never uncounted', () => {
    expect(limitAddress(event('130.176.1.1'), true)).toBe(UNKNOWN_ADDRESS);
    expect(limitAddress(event('130.176.1.1', 'not-an-address'), true)).toBe(UNKNOWN_ADDRESS);
    expect(limitAddress(event('bogus'), false)).toBe(UNKNOWN_ADDRESS);
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
    const ok = await f.handler(
      contactEvent(VALID_BODY, { headers: { 'content-type': 'application/json', [ORIGIN_VERIFY_HEADER]: ORIGIN } }),
      ctx,
    );
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
    const f = contactFixture({ guards: { counters, hashKey: KEY, monthlyBudget: 1000 }, now: () => NOW });
    const statuses = [];
    for (let i = 0; i < SHORT.maxRequests + 3; i++)
      statuses.push((await f.handler(contactEvent(VALID_BODY, { sourceIp: '198.51.100.1' }), ctx)).statusCode);
    expect(statuses).toEqual([...Array<number>(SHORT.maxRequests).fill(200), 429, 429, 429]);
    expect(f.verifyCalls).toHaveLength(SHORT.maxRequests);
    const limited = await f.handler(contactEvent(VALID_BODY, { sourceIp: '198.51.100.1' }), ctx);
    expect(bodyOf(limited)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
    expect(Number(limited.headers?.['retry-after'])).toBeGreaterThan(0);
    expect((await f.handler(contactEvent(VALID_BODY, { sourceIp: '198.51.100.2' }), ctx)).statusCode).toBe(200);
  });

  it("counts toward the route's breaker only what passed the address's share, malformed requests included", async () => {
    const counters = memoryCounters();
    const f = contactFixture({ guards: { counters, hashKey: KEY, monthlyBudget: 1000 }, now: () => NOW });
    const statuses = [];
    // Malformed junk takes the address's slots like well-formed requests: 400 within the share, then 429.
    for (let i = 0; i < 200; i++)
      statuses.push((await f.handler(contactEvent({ fullName: 'A' }, { sourceIp: '198.51.100.1' }), ctx)).statusCode);
    expect(statuses.slice(0, SHORT.maxRequests)).toEqual(Array<number>(SHORT.maxRequests).fill(400));
    expect(new Set(statuses.slice(SHORT.maxRequests))).toEqual(new Set([429]));
    expect(f.verifyCalls).toHaveLength(0);
    expect(await readSpend(counters, 'contact', NOW)).toBe(SHORT.maxRequests);
    // Another address sends, and counts once.
    expect((await f.handler(contactEvent(VALID_BODY, { sourceIp: '198.51.100.2' }), ctx)).statusCode).toBe(200);
    expect(await readSpend(counters, 'contact', NOW)).toBe(SHORT.maxRequests + 1);
  });

  it('answers 503 with the failure message past the monthly budget, without calling Google', async () => {
    const counters = memoryCounters();
    const f = contactFixture({ guards: { counters, hashKey: KEY, monthlyBudget: 2 }, now: () => NOW });
    const statuses = [];
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      statuses.push((await f.handler(contactEvent(VALID_BODY, { sourceIp: ip }), ctx)).statusCode);
    expect(statuses).toEqual([200, 200, 503]);
    expect(f.verifyCalls).toHaveLength(2);
    expect(f.sesCalls).toHaveLength(2);
    expect(f.metrics.names().filter((name) => name === 'ContactCaptchaNeedsOwner')).toHaveLength(2); // warned, then spent
    expect(f.logger.lines.find((line) => line.level === 'error' && /budget/.test(line.message))).toBeDefined();
  });

  it('refuses (503) and counts it when the counters do not answer: a broken counter never opens the budget', async () => {
    for (const broken of ['take', 'keep'] as const) {
      const counters = { ...memoryCounters(), [broken]: () => Promise.reject(new Error('down')) };
      const f = contactFixture({ guards: { counters, hashKey: counterKeys(counters), monthlyBudget: 1000 } });
      const result = await f.handler(contactEvent(VALID_BODY), ctx);
      expect(result.statusCode, broken).toBe(503);
      expect(bodyOf(result)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
      expect(f.verifyCalls).toHaveLength(0);
      expect(f.metrics.names()).toContain('ContactCountersUnavailable');
      expect(f.logger.lines.some((line) => line.level === 'error' && /counters/.test(line.message))).toBe(true);
    }
  });

  it('requests with a forged or missing viewer address are limited together behind CloudFront', async () => {
    const counters = memoryCounters();
    const f = contactFixture({ guards: { counters, hashKey: KEY, monthlyBudget: 1000 }, originSecret: ORIGIN, now: () => NOW });
    const statuses = [];
    for (const viewer of [undefined, 'x', '[::1', undefined, 'junk:1', undefined, undefined]) {
      const headers = {
        'content-type': 'application/json',
        [ORIGIN_VERIFY_HEADER]: ORIGIN,
        ...(viewer ? { 'cloudfront-viewer-address': viewer } : {}),
      };
      statuses.push((await f.handler(contactEvent(VALID_BODY, { headers }), ctx)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(f.verifyCalls).toHaveLength(SHORT.maxRequests);
  });

  it("a visitor's retry of a sent message costs no address slot", async () => {
    const counters = memoryCounters();
    const f = contactFixture({ guards: { counters, hashKey: KEY, monthlyBudget: 1000 }, archive: new FakeArchive(), now: () => NOW });
    const headers = { 'content-type': 'application/json', 'idempotency-key': '"retry-1"' };
    for (let i = 0; i < SHORT.maxRequests + 3; i++)
      expect((await f.handler(contactEvent(VALID_BODY, { headers }), ctx)).statusCode).toBe(200);
    expect(f.sesCalls).toHaveLength(1);
    const short = [...counters.items.entries()].find(([id]) => id.startsWith(`limit#${SHORT.windowSeconds}#`));
    expect(short?.[1].count).toBe(1);
  });
});

describe("Google's answers about quota, billing and keys", () => {
  const quotaText =
    'Over Enterprise free quota. Please ensure your project has an active billing account: https://console.cloud.google.com/billing';
  it.each([
    ['HTTP 429', () => jsonResponse({ error: 'RESOURCE_EXHAUSTED' }, 429), 'quota'],
    ['the free-quota error code', () => jsonResponse({ success: false, 'error-codes': [quotaText] }), 'quota'],
    ['invalid-keys', () => jsonResponse({ success: false, 'error-codes': ['invalid-keys'] }), 'keys'],
    [
      'success: true with error codes',
      () => jsonResponse({ success: true, score: 0.9, 'error-codes': ['some-error'] }),
      'success-with-errors',
    ],
  ])('%s: 503, no mail, its own metric and a log line saying what to do; never "refused"', async (_label, answer, reason) => {
    const verdict = await verifyCaptcha({
      fetch: () => Promise.resolve(answer()),
      url: 'https://v.test',
      secret: 's',
      token: 't',
      timeoutMs: 1000,
    });
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
    const f = contactFixture({
      verify: () => Promise.resolve(jsonResponse({ success: false, 'error-codes': ['invalid-input-response'] })),
    });
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

  it('guards with the archive table, a key of the day of their own, the budget from the environment', () => {
    const deps = build({
      ...base,
      ARCHIVE_TABLE: 'messages',
      AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:2',
      CAPTCHA_MONTHLY_BUDGET: '42',
    });
    expect(deps.guards).toMatchObject({ monthlyBudget: 42 });
    expect(typeof deps.guards?.hashKey).toBe('function');
  });

  it('no archive: no guards and no origin check unless set', () => {
    const deps = build(base);
    expect(deps.guards).toBeUndefined();
    expect(deps.origin).toBeUndefined();
  });
});
