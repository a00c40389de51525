/**
 * A slow archive (the local DynamoDB on a busy machine) is not a refusal: the contact flow gives the
 * archive write more tries within the request budget while SES has not been tried, so only an outage
 * of both answers 5xx, and a message is never mailed twice.
 */
import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES } from '../../contract/contact-rules';
import { ARCHIVE_METRICS, CONTACT_METRICS } from '../../contract/metrics';
import { FakeArchive } from '../archive/fake-store';
import type { ArchivedMessage, CallOptions } from '../archive/store';
import { lambdaContext } from '../shared/test-support';
import { bodyOf, contactEvent, contactFixture, sesBehaviour, VALID_BODY, type SesBehaviour } from './fixtures';

const ctx = lambdaContext();
const KEY = '0b7f3a52-7f7e-4d52-9a55-1f3c4f3e2b10';
const TIMEOUTS = { archiveMs: 100, sesMs: 300, totalMs: 2_000 };

/**
 * A FakeArchive whose puts take `delays[n]` ms (the n-th put; the last delay repeats), honouring the
 * caller's abort signal as the DynamoDB client does. `landsLate`: a put cut short by its timeout
 * still writes (the server got it; only its answer was too late).
 */
class SlowArchive extends FakeArchive {
  putCount = 0;
  constructor(
    private readonly delays: number[],
    private readonly landsLate = false,
  ) {
    super();
  }

  override async put(message: ArchivedMessage, options?: CallOptions): Promise<'created' | 'exists'> {
    const delay = this.delays[Math.min(this.putCount, this.delays.length - 1)]!;
    this.putCount += 1;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, delay);
      options?.abortSignal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          if (this.landsLate && !this.items.has(message.id)) this.items.set(message.id, structuredClone(message));
          reject(Object.assign(new Error('Request aborted'), { name: 'TimeoutError' }));
        },
        { once: true },
      );
    });
    return super.put(message);
  }
}

/** SES that takes `ms` to accept (and gives up when the caller aborts): only a full window lets it send. */
const acceptsAfter =
  (ms: number): SesBehaviour =>
  (_input, signal) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve({ MessageId: 'message-1' }), ms);
      signal?.addEventListener('abort', () => (clearTimeout(timer), reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))), {
        once: true,
      });
    });

const only = <T>(items: Iterable<T>): T => {
  const all = [...items];
  expect(all).toHaveLength(1);
  return all[0]!;
};

describe('contact flow: a slow archive gets the time the budget allows', () => {
  it('a first write slower than its timeout is tried again: archived, mailed once, marked sent', async () => {
    const archive = new SlowArchive([250, 5]);
    const f = contactFixture({ archive, timeouts: TIMEOUTS });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(200);
    expect(archive.putCount).toBe(2);
    expect(only(archive.items.values()).status).toBe('sent');
    expect(f.sesCalls).toHaveLength(1);
    expect(f.metrics.names()).toEqual([CONTACT_METRICS.sent]); // not counted as unavailable
  });

  it('a retry may use more than one call timeout: a write of 250 ms each time still lands', async () => {
    const archive = new SlowArchive([250]);
    const f = contactFixture({ archive, timeouts: TIMEOUTS });
    expect((await f.handler(contactEvent(VALID_BODY), ctx)).statusCode).toBe(200);
    expect(only(archive.items.values()).status).toBe('sent');
    expect(f.sesCalls).toHaveLength(1);
  });

  it.each([
    ['without a key', {}],
    ['with an Idempotency-Key', { headers: { 'content-type': 'application/json', 'idempotency-key': `"${KEY}"` } }],
  ])(
    'a timed-out write that landed after all is recognised as its own (%s): mailed once, now, and marked sent',
    async (_label, options) => {
      const archive = new SlowArchive([250, 5], true);
      const f = contactFixture({ archive, timeouts: TIMEOUTS });
      const result = await f.handler(contactEvent(VALID_BODY, options), ctx);
      expect(result.statusCode).toBe(200);
      const item = only(archive.items.values());
      expect(item.status).toBe('sent');
      expect(item.claimedUntil).toBeUndefined();
      expect(f.sesCalls).toHaveLength(1);
    },
  );

  it('an archive that never answers in time: SES alone still gets its whole window, mailed once, within the budget', async () => {
    const archive = new SlowArchive([10_000]);
    const started = Date.now();
    const f = contactFixture({ archive, timeouts: TIMEOUTS, ses: acceptsAfter(250) });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(200);
    expect(f.sesCalls).toHaveLength(1);
    expect(archive.items.size).toBe(0);
    expect(Date.now() - started).toBeLessThan(TIMEOUTS.totalMs + 200);
    expect(f.metrics.names()).toEqual([ARCHIVE_METRICS.archiveUnavailable, CONTACT_METRICS.sent]);
  });

  it('an outage of both answers 5xx with the failure message, after a bounded number of tries', async () => {
    const archive = new FakeArchive();
    archive.down = true;
    const f = contactFixture({ archive, timeouts: TIMEOUTS, ses: sesBehaviour.fails('ServiceUnavailable', 503) });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(503);
    expect(bodyOf(result).error).toBe(CONTACT_MESSAGES.sendFailed);
    expect(archive.calls.filter((call) => call === 'put').length).toBeGreaterThan(1);
    expect(archive.calls.filter((call) => call === 'put').length).toBeLessThanOrEqual(3);
    expect(f.sesCalls).toHaveLength(1);
  });

  it('never retries the write once SES has been tried: a failing settle is not a second mail', async () => {
    const archive = new SlowArchive([5]);
    archive.down = new Set(['markSent']);
    const f = contactFixture({ archive, timeouts: TIMEOUTS });
    expect((await f.handler(contactEvent(VALID_BODY), ctx)).statusCode).toBe(200);
    expect(archive.putCount).toBe(1);
    expect(f.sesCalls).toHaveLength(1);
  });
});
