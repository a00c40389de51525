/**
 * The flood guards through the real local stack (`npm start`'s): one address flooding the form with
 * junk is cut off before siteverify, malformed tokens never reach it, and a visitor on another
 * address (127.0.0.2, another loopback address) still sends every message, each mailed once; and
 * many addresses spending the day's portion of the siteverify budget close the form until the next
 * UTC day only.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_RATE_RULE } from '../../contract/edge-rate-rule';
import { CONTACT_ADDRESS_LIMITS } from '../../contract/limits';
import { budgetSoFar } from '../../functions/contact/limits';
import { REFUSED_TOKEN, startFakeSiteverify, type FakeSiteverify } from '../../tools/fake-siteverify';
import { fetchMails, startMailbox } from './mailbox';
import { startLocalStack, type LocalStack } from './stack';
import { fixtureBuild } from './test-support';

const fixture = fixtureBuild();
let verifier: FakeSiteverify;
let mailbox: Awaited<ReturnType<typeof startMailbox>>;
let stack: LocalStack;

beforeAll(async () => {
  verifier = await startFakeSiteverify('pass');
  mailbox = await startMailbox('127.0.0.1', 0);
  stack = await startLocalStack({
    port: 0,
    archivePort: 0,
    sesEndpoint: mailbox.url,
    clientDir: fixture.clientDir,
    recaptchaVerifyUrl: verifier.url,
    quiet: true,
    redeliveryIntervalMs: 60_000,
  });
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all([verifier.stop(), mailbox.stop()]);
});

/** POSTs a contact body from the given loopback address; resolves with the status. */
function post(body: unknown, localAddress: string, on: LocalStack = stack): Promise<number> {
  const { port } = new URL(on.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/api/contact', method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const body = (token: string, message = 'A message that is long enough') => ({
  fullName: 'Ada Lovelace',
  email: 'ada@example.org',
  message,
  'g-recaptcha-response': token,
});

describe('the contact form under a flood, locally', () => {
  it('cuts one address off before siteverify; malformed tokens never reach it; another address still sends', async () => {
    const statuses: number[] = [];
    // Four a second, the benchmark's pace: under the route's shared throttle, so the sorting is the per-address limit's.
    for (let i = 0; i < 20; i++) {
      statuses.push(await post(body(i % 2 === 0 ? 'junk token!' : `junk-${i}`), '127.0.0.1'));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Every request takes a slot of the address's share, malformed or not: within it, malformed tokens get
    // 400 without Google; past it, everything gets 429.
    const share = CONTACT_ADDRESS_LIMITS[0].maxRequests;
    expect(statuses.slice(0, share).filter((_, i) => i % 2 === 0)).toEqual([400, 400, 400]);
    expect(new Set(statuses.slice(share))).toEqual(new Set([429]));
    expect(verifier.calls.length).toBeLessThanOrEqual(CONTACT_ADDRESS_LIMITS[0].maxRequests);
    expect(verifier.calls.every((call) => /^[A-Za-z0-9_-]+$/.test(call.response ?? ''))).toBe(true);

    const visitor: number[] = [];
    for (let i = 0; i < 5; i++) {
      visitor.push(await post(body(`visitor-${i}`, `Visitor message number ${i}`), '127.0.0.2'));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(visitor).toEqual([200, 200, 200, 200, 200]);
    const mails = await fetchMails(mailbox.url);
    for (let i = 0; i < 5; i++) expect(mails.filter((m) => JSON.stringify(m).includes(`Visitor message number ${i}`))).toHaveLength(1);
  });
});

describe('a flood from many addresses, locally', () => {
  it("spends at most the day's portion of the budget; the form opens again the next UTC day", async () => {
    const own = await startFakeSiteverify('pass');
    const day1 = Date.UTC(2026, 10, 1, 12); // a 30-day month: a budget of 60 gives 2 a day
    let offset = day1 - Date.now();
    const daily = await startLocalStack({
      port: 0,
      archivePort: 0,
      sesEndpoint: mailbox.url,
      clientDir: fixture.clientDir,
      recaptchaVerifyUrl: own.url,
      quiet: true,
      redeliveryIntervalMs: 60_000,
      guards: { captchaMonthlyBudget: 60, now: () => Date.now() + offset },
    });
    try {
      expect(budgetSoFar(60, day1)).toBe(2);
      const statuses: number[] = [];
      // Six addresses, one well-formed junk token each: no address is over its own share.
      for (let i = 1; i <= 6; i++) statuses.push(await post(body(REFUSED_TOKEN), `127.0.3.${i}`, daily));
      expect(statuses).toEqual([403, 403, 503, 503, 503, 503]);
      expect(own.calls).toHaveLength(2);
      // An honest visitor the same day is refused too (503, the form's failure message) ...
      expect(await post(body('visitor-a', 'An honest visitor, same day'), '127.0.0.2', daily)).toBe(503);
      // ... and sends the next UTC day.
      offset += 24 * 60 * 60 * 1000;
      expect(await post(body('visitor-b', 'An honest visitor, next day'), '127.0.0.2', daily)).toBe(200);
      expect(own.calls).toHaveLength(3);
    } finally {
      await daily.stop();
      await own.stop();
    }
  });
});

/** POSTs a beacon from the given loopback address; resolves with the status and the body's length. */
function beacon(path: string, body: unknown, localAddress: string): Promise<{ status: number; bytes: number }> {
  const { port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe("the edge's rate rule, locally", () => {
  it('answers an address past its limit at the edge, before the API, and never another address', async () => {
    const answers = [];
    for (let i = 0; i < EDGE_RATE_RULE.limit + 20; i++) answers.push(await beacon('/api/events', { name: 'NAV_HOME' }, '127.0.6.1'));
    // The last ones never reached API Gateway: the edge's own answer, with no body (the gateway's 429 has one).
    expect(answers.slice(-20)).toEqual(Array(20).fill({ status: EDGE_RATE_RULE.blockStatus, bytes: 0 }));
    expect(answers.filter((a) => a.bytes === 0 && a.status === EDGE_RATE_RULE.blockStatus).length).toBeGreaterThanOrEqual(20);
    // Another address, once the route's shared bucket has refilled, is taken.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await beacon('/api/events', { name: 'NAV_HOME' }, '127.0.6.2')).status).toBe(204);
  });
});
