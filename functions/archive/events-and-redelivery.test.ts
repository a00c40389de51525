/**
 * The redelivery (claims, races with the contact function and with itself, give-up) and the
 * mail-event function (SES's documented samples), on the in-memory archive and a fake SES.
 */
import type { SendEmailCommand } from '@aws-sdk/client-ses';
import { describe, expect, it } from 'vitest';
import { ARCHIVE_ID_MESSAGE_TAG, REDELIVERY_GIVE_UP_MS } from '../../contract/archive';
import { ARCHIVE_METRICS } from '../../contract/metrics';
import { RecordingLogger, RecordingMetrics } from '../shared/test-support';
import { CLAIM_MS, type SesLike } from './delivery';
import { FakeArchive } from './fake-store';
import { createMailEventsHandler } from './mail-events';
import { redeliverPending, type RedeliveryDeps } from './redeliver';
import { eventBridgeEvent, SES_EVENT_SAMPLES, snsEnvelope, snsEvent } from './ses-event-samples';
import type { ArchivedMessage } from './store';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

function pending(id: string, minutesAgo: number, overrides: Partial<ArchivedMessage> = {}): ArchivedMessage {
  return {
    id,
    receivedAt: new Date(NOW - minutesAgo * 60_000).toISOString(),
    name: 'Grace Hopper',
    email: 'grace@example.org',
    message: `Message ${id}`,
    status: 'pending',
    attempts: 1,
    expiresAt: Math.floor(NOW / 1000) + 86_400,
    ...overrides,
  };
}

type SesAnswer = (input: SendEmailCommand['input']) => Promise<unknown>;

function fakeSes(answer: SesAnswer = () => Promise.resolve({ MessageId: 'ses-ok' })) {
  const sent: SendEmailCommand['input'][] = [];
  const ses: SesLike = {
    async send(command) {
      sent.push(command.input);
      // A real round trip, so concurrent runs interleave.
      await new Promise((resolve) => setImmediate(resolve));
      return answer(command.input);
    },
  };
  return { ses, sent };
}

function deps(archive: FakeArchive, ses: SesLike, overrides: Partial<RedeliveryDeps> = {}) {
  const logger = new RecordingLogger();
  const metrics = new RecordingMetrics();
  const d: RedeliveryDeps = {
    archive,
    ses,
    mail: { ownerEmail: 'owner@example.com', senderEmail: 'site@example.com', configurationSet: 'portfolio-mail' },
    now: () => NOW,
    logger,
    metrics,
    sesTimeoutMs: 500,
    archiveTimeoutMs: 500,
    ...overrides,
  };
  return { d, logger, metrics };
}

const fail = (name: string) => () => Promise.reject(Object.assign(new Error(`${name} happened`), { name }));
const archiveIdOf = (input: SendEmailCommand['input']) => input.Tags?.find((t) => t.Name === ARCHIVE_ID_MESSAGE_TAG)?.Value;

describe('redelivery', () => {
  it('sends each pending message once, tagged, and marks it sent; leaves settled ones alone', async () => {
    const archive = new FakeArchive();
    await archive.put(pending('a', 10));
    await archive.put(pending('b', 5, { language: 'es' }));
    await archive.put(pending('done', 7, { status: 'sent' }));
    const { ses, sent } = fakeSes();
    const { d, metrics } = deps(archive, ses);
    const report = await redeliverPending(d);
    expect(report).toMatchObject({ pending: 2, sent: 2, refused: 0, stillPending: 0, gaveUp: 0 });
    expect(sent.map(archiveIdOf).sort()).toEqual(['a', 'b']);
    expect(sent.every((m) => m.ConfigurationSetName === 'portfolio-mail')).toBe(true);
    expect(sent.find((m) => archiveIdOf(m) === 'b')?.Message?.Body?.Text?.Data).toContain('Written from the Spanish page (es)');
    expect(archive.items.get('a')).toMatchObject({ status: 'sent', attempts: 2, sesMessageId: 'ses-ok' });
    expect(metrics.names()).toEqual([ARCHIVE_METRICS.redelivered, ARCHIVE_METRICS.redelivered]);
    expect(await redeliverPending(d)).toMatchObject({ pending: 0, sent: 0 });
    expect(sent).toHaveLength(2);
  });

  it('a temporary failure keeps the message pending with the reason and the attempt counted; a refusal marks it failed', async () => {
    const archive = new FakeArchive();
    await archive.put(pending('t', 3));
    await archive.put(pending('r', 2));
    const { ses } = fakeSes((input) => (archiveIdOf(input) === 't' ? fail('Throttling')() : fail('MessageRejected')()));
    const { d, metrics } = deps(archive, ses);
    expect(await redeliverPending(d)).toMatchObject({ stillPending: 1, refused: 1 });
    expect(archive.items.get('t')).toMatchObject({ status: 'pending', attempts: 2, lastError: 'Throttling: Throttling happened' });
    expect(archive.items.get('t')?.claimedUntil).toBeUndefined();
    expect(archive.items.get('r')).toMatchObject({ status: 'failed', lastError: 'MessageRejected: MessageRejected happened' });
    expect(metrics.names()).toEqual([ARCHIVE_METRICS.failed]);
  });

  it('SES not answering (a timeout) holds the message: not sent again by the next run', async () => {
    const archive = new FakeArchive();
    await archive.put(pending('u', 1));
    const { ses, sent } = fakeSes(() => Promise.reject(Object.assign(new Error('timed out'), { name: 'TimeoutError' })));
    expect(await redeliverPending(deps(archive, ses).d)).toMatchObject({ unknown: 1 });
    expect(archive.items.get('u')).toMatchObject({ status: 'pending', claimedUntil: NOW + CLAIM_MS });
    expect(await redeliverPending(deps(archive, ses, { now: () => NOW + 60_000 }).d)).toMatchObject({ skipped: 1 });
    expect(sent).toHaveLength(1);
  });

  it('never sends a message another sender holds (the contact function mid-send), and takes it over once that claim ran out', async () => {
    const archive = new FakeArchive();
    await archive.put(pending('held', 1, { claimedUntil: NOW + 30_000 }));
    const { ses, sent } = fakeSes();
    expect(await redeliverPending(deps(archive, ses).d)).toMatchObject({ pending: 1, skipped: 1, sent: 0 });
    expect(sent).toHaveLength(0);
    const later = deps(archive, ses, { now: () => NOW + 30_001 }).d;
    expect(await redeliverPending(later)).toMatchObject({ sent: 1 });
    expect(sent).toHaveLength(1);
  });

  it('two runs at the same moment never send one message twice', async () => {
    const archive = new FakeArchive();
    for (let i = 0; i < 20; i++) await archive.put(pending(`m${String(i).padStart(2, '0')}`, 20 - i));
    const { ses, sent } = fakeSes();
    const [one, two] = await Promise.all([redeliverPending(deps(archive, ses).d), redeliverPending(deps(archive, ses).d)]);
    expect(one.sent + two.sent).toBe(20);
    expect(sent).toHaveLength(20);
    expect(new Set(sent.map(archiveIdOf)).size).toBe(20);
    expect([...archive.items.values()].every((m) => m.status === 'sent')).toBe(true);
  });

  it('gives up on a message pending longer than 24 hours: failed with the last reason, counted, not sent', async () => {
    const archive = new FakeArchive();
    await archive.put(pending('old', REDELIVERY_GIVE_UP_MS / 60_000 + 1, { lastError: 'Throttling: slow down', attempts: 288 }));
    await archive.put(pending('young', 60));
    const { ses, sent } = fakeSes();
    const { d, metrics, logger } = deps(archive, ses);
    expect(await redeliverPending(d)).toMatchObject({ gaveUp: 1, sent: 1 });
    expect(sent.map(archiveIdOf)).toEqual(['young']);
    expect(archive.items.get('old')).toMatchObject({
      status: 'failed',
      lastError: 'Gave up: not sent within 24 hours (last: Throttling: slow down)',
    });
    expect(metrics.names()).toContain(ARCHIVE_METRICS.failed);
    expect(logger.text()).not.toContain('grace@example.org');
  });

  it('a message the owner resent gets the whole give-up time again, counted from the resend', async () => {
    const archive = new FakeArchive();
    const twoDays = (2 * REDELIVERY_GIVE_UP_MS) / 60_000;
    await archive.put(pending('resent', twoDays, { status: 'pending', pendingSince: new Date(NOW - 60_000).toISOString(), attempts: 288 }));
    const { ses, sent } = fakeSes();
    expect(await redeliverPending(deps(archive, ses).d)).toMatchObject({ gaveUp: 0, sent: 1 });
    expect(sent.map(archiveIdOf)).toEqual(['resent']);
    expect(archive.items.get('resent')).toMatchObject({ status: 'sent' });
  });

  it('an archive that fails mid-way loses nothing: the claim runs out and a later run sends the message', async () => {
    const archive = new FakeArchive();
    await archive.put(pending('x', 1));
    const { ses, sent } = fakeSes(() => Promise.reject(Object.assign(new Error('down'), { name: 'ServiceUnavailable' })));
    archive.down = new Set(['release']);
    expect(await redeliverPending(deps(archive, ses).d)).toMatchObject({ stillPending: 1 });
    expect(archive.items.get('x')?.status).toBe('pending');
    archive.down = false;
    const healthy = fakeSes();
    expect(await redeliverPending(deps(archive, healthy.ses, { now: () => NOW + CLAIM_MS + 1 }).d)).toMatchObject({ sent: 1 });
    expect(sent).toHaveLength(1);
    expect(healthy.sent).toHaveLength(1);
  });

  it('throws when the archive cannot be read, so the run counts as an error', async () => {
    const archive = new FakeArchive();
    archive.down = true;
    await expect(redeliverPending(deps(archive, fakeSes().ses).d)).rejects.toThrow();
  });
});

describe("mail events: SES's documented samples set the status", () => {
  async function apply(sample: keyof typeof SES_EVENT_SAMPLES, status: ArchivedMessage['status'] = 'sent') {
    const archive = new FakeArchive();
    await archive.put(pending('msg-1', 1, { status }));
    const logger = new RecordingLogger();
    const metrics = new RecordingMetrics();
    const handler = createMailEventsHandler({ archive, logger, metrics, archiveTimeoutMs: 500 });
    const report = await handler(snsEvent(sample, 'msg-1'));
    return { archive, logger, metrics, report, handler, item: archive.items.get('msg-1')! };
  }

  it('Delivery → delivered', async () => {
    const { item, metrics, report } = await apply('Delivery');
    expect(item.status).toBe('delivered');
    expect(metrics.names()).toEqual([ARCHIVE_METRICS.delivered]);
    expect(report).toEqual({ applied: 1, skipped: 0 });
  });

  it('Bounce → bounced, with the bounce type, no address', async () => {
    const { item, metrics, logger } = await apply('Bounce');
    expect(item).toMatchObject({ status: 'bounced', lastError: 'Bounce: Permanent/General' });
    expect(metrics.names()).toEqual([ARCHIVE_METRICS.bounced]);
    expect(logger.text()).not.toContain('recipient@example.com');
  });

  it('Complaint → complained, also after a delivery', async () => {
    const { item, metrics } = await apply('Complaint', 'delivered');
    expect(item).toMatchObject({ status: 'complained', lastError: 'Complaint: abuse' });
    expect(metrics.names()).toEqual([ARCHIVE_METRICS.complained]);
  });

  it('Reject → failed, with the reason', async () => {
    const { item, metrics } = await apply('Reject');
    expect(item).toMatchObject({ status: 'failed', lastError: 'Reject: Bad content' });
    expect(metrics.names()).toEqual([ARCHIVE_METRICS.failed]);
  });

  it('Send → sent for a message still pending, uncounted, and the claim stays for the sender still waiting for SES', async () => {
    const archive = new FakeArchive();
    await archive.put(pending('held', 1, { claimedUntil: NOW + CLAIM_MS }));
    const metrics = new RecordingMetrics();
    const handler = createMailEventsHandler({ archive, logger: new RecordingLogger(), metrics, archiveTimeoutMs: 500 });
    expect(await handler(eventBridgeEvent('Send', 'held'))).toEqual({ applied: 1, skipped: 0 });
    expect(archive.items.get('held')).toMatchObject({ status: 'sent', claimedUntil: NOW + CLAIM_MS });
    expect(metrics.names()).toEqual([]);
    // The sender's answer arrives after all: it records SES's message id as usual.
    expect(await archive.markSent('held', NOW + CLAIM_MS, 'ses-late')).toBe(true);
    expect(archive.items.get('held')).toMatchObject({ status: 'sent', sesMessageId: 'ses-late' });
    // A Send after a Delivery changes nothing.
    expect(await handler(eventBridgeEvent('Delivery', 'held'))).toEqual({ applied: 1, skipped: 0 });
    expect(await handler(eventBridgeEvent('Send', 'held'))).toEqual({ applied: 0, skipped: 1 });
    expect(archive.items.get('held')?.status).toBe('delivered');
  });

  it("SES's answer lost, its Send event arrives: exactly one mail, however late the next runs", async () => {
    const archive = new FakeArchive();
    await archive.put(pending('lost', 1));
    // SES takes the mail, but its answer never reaches the sender.
    const { ses, sent } = fakeSes(() => Promise.reject(Object.assign(new Error('timed out'), { name: 'TimeoutError' })));
    expect(await redeliverPending(deps(archive, ses).d)).toMatchObject({ unknown: 1 });
    const handler = createMailEventsHandler({
      archive,
      logger: new RecordingLogger(),
      metrics: new RecordingMetrics(),
      archiveTimeoutMs: 500,
    });
    expect(await handler(eventBridgeEvent('Send', 'lost'))).toEqual({ applied: 1, skipped: 0 });
    for (const later of [CLAIM_MS + 1, 60 * 60_000, 6 * 60 * 60_000]) {
      expect(await redeliverPending(deps(archive, fakeSes().ses, { now: () => NOW + later }).d)).toMatchObject({ pending: 0, sent: 0 });
    }
    expect(sent).toHaveLength(1);
    expect(archive.items.get('lost')?.status).toBe('sent');
  });

  it('a Delivery that arrives while the message still looks pending settles it: the redelivery will not send it again', async () => {
    const { item } = await apply('Delivery', 'pending');
    expect(item.status).toBe('delivered');
  });

  it('skips a late Send event, an untagged mail, an unknown id, a late Delivery after a bounce, and a notification that is not SES JSON', async () => {
    const { handler, archive } = await apply('Bounce');
    expect(await handler(snsEvent('Send', 'msg-1'))).toEqual({ applied: 0, skipped: 1 });
    expect(await handler(snsEvent('Delivery', undefined))).toEqual({ applied: 0, skipped: 1 });
    expect(await handler(snsEvent('Delivery', 'no-such-message'))).toEqual({ applied: 0, skipped: 1 });
    expect(await handler(snsEvent('Delivery', 'msg-1'))).toEqual({ applied: 0, skipped: 1 });
    expect(await handler(snsEnvelope('not json'))).toEqual({ applied: 0, skipped: 1 });
    expect(await handler(snsEnvelope('{"eventType": 5}'))).toEqual({ applied: 0, skipped: 1 });
    expect(archive.items.get('msg-1')?.status).toBe('bounced');
    expect(archive.items.has('no-such-message')).toBe(false);
  });

  it('reads the same records from EventBridge (the record in detail)', async () => {
    const archive = new FakeArchive();
    await archive.put(pending('eb-1', 1, { status: 'sent' }));
    const metrics = new RecordingMetrics();
    const handler = createMailEventsHandler({ archive, logger: new RecordingLogger(), metrics, archiveTimeoutMs: 500 });
    expect(eventBridgeEvent('Delivery', 'eb-1')['detail-type']).toBe('Email Delivered');
    expect(eventBridgeEvent('Complaint', 'eb-1')['detail-type']).toBe('Email Complaint Received');
    expect(await handler(eventBridgeEvent('Delivery', 'eb-1'))).toEqual({ applied: 1, skipped: 0 });
    expect(await handler(eventBridgeEvent('Bounce', 'eb-1'))).toEqual({ applied: 1, skipped: 0 });
    expect(archive.items.get('eb-1')).toMatchObject({ status: 'bounced', lastError: 'Bounce: Permanent/General' });
    expect(metrics.names()).toEqual([ARCHIVE_METRICS.delivered, ARCHIVE_METRICS.bounced]);
    expect(await handler({ ...eventBridgeEvent('Delivery', 'eb-1'), detail: 'nonsense' })).toEqual({ applied: 0, skipped: 1 });
  });

  it('throws when the archive is down, so Lambda runs the event again (or keeps it in the on-failure queue)', async () => {
    const archive = new FakeArchive();
    archive.down = true;
    const handler = createMailEventsHandler({
      archive,
      logger: new RecordingLogger(),
      metrics: new RecordingMetrics(),
      archiveTimeoutMs: 500,
    });
    await expect(handler(snsEvent('Delivery', 'msg-1'))).rejects.toThrow();
  });
});
