/**
 * Every metric in the contract is one a handler really emits: the stack's dashboard and alarms read
 * only contract names (the stack's own test checks that side), so together no graph or alarm can
 * watch a name nothing writes.
 */
import { describe, expect, it } from 'vitest';
import { ARCHIVE_METRICS, CONTACT_METRICS, EVENT_METRICS, type MetricName, VITALS_METRICS_EMF } from '../contract/metrics';
import { FakeArchive } from './archive/fake-store';
import { createMailEventsHandler } from './archive/mail-events';
import { redeliverPending } from './archive/redeliver';
import { snsEvent, type SampleName } from './archive/ses-event-samples';
import { CONTACT_ADDRESS_LIMITS } from '../contract/limits';
import { contactEvent, contactFixture, jsonResponse, sesBehaviour, VALID_BODY, verifier } from './contact/fixtures';
import { memoryCounters } from './contact/limits';
import { createEventsHandler } from './events/handler';
import { apiEvent, lambdaContext, RecordingLogger, RecordingMeasures, RecordingMetrics } from './shared/test-support';
import { createVitalsHandler } from './vitals/handler';

const ctx = lambdaContext();

async function contactScenarios(): Promise<MetricName[]> {
  const emitted: MetricName[] = [];
  const run = async (fixture: ReturnType<typeof contactFixture>, body: unknown) => {
    await fixture.handler(contactEvent(body), ctx);
    emitted.push(...fixture.metrics.names());
  };
  await run(contactFixture(), VALID_BODY);
  await run(contactFixture(), { ...VALID_BODY, email: 'not-an-address' });
  await run(contactFixture({ verify: () => verifier.refuses() }), VALID_BODY);
  await run(contactFixture({ ses: sesBehaviour.fails('MessageRejected') }), VALID_BODY);
  await run(contactFixture({ originSecret: 'x'.repeat(36) }), VALID_BODY);
  await run(contactFixture({ verify: () => Promise.resolve(jsonResponse('quota', 429)) }), VALID_BODY);
  const full = memoryCounters();
  const guarded = (monthlyBudget: number) =>
    contactFixture({ guards: { counters: full, hashKey: () => Promise.resolve('k'), monthlyBudget } });
  await run(guarded(1), VALID_BODY); // the budget's one call: past the warning share
  await run(guarded(1), VALID_BODY); // the budget is spent
  for (let i = 0; i < CONTACT_ADDRESS_LIMITS[0].maxRequests; i++) await run(guarded(100), VALID_BODY); // the address is full
  const broken = { ...memoryCounters(), take: () => Promise.reject(new Error('down')) };
  await run(contactFixture({ guards: { counters: broken, hashKey: () => Promise.resolve('k'), monthlyBudget: 100 } }), VALID_BODY);
  return emitted;
}

async function eventScenarios(): Promise<MetricName[]> {
  const metrics = new RecordingMetrics();
  const handler = createEventsHandler({ logger: new RecordingLogger(), metrics });
  await handler(apiEvent({ path: '/api/events', body: JSON.stringify({ name: 'SIDEBAR_NAV_ABOUT' }) }), ctx);
  return metrics.names();
}

async function archiveScenarios(): Promise<MetricName[]> {
  const metrics = new RecordingMetrics();
  const down = new FakeArchive();
  down.down = true;
  for (const [archive, ses] of [
    [down, sesBehaviour.accepts],
    [new FakeArchive(), sesBehaviour.fails('MessageRejected')],
  ] as const) {
    const fixture = contactFixture({ archive, ses });
    await fixture.handler(contactEvent(VALID_BODY), ctx);
    metrics.counts.push(...fixture.metrics.counts);
  }
  const archive = new FakeArchive();
  const receivedAt = new Date().toISOString();
  await archive.put({ id: 'm1', receivedAt, name: 'A B', email: 'a@b.co', message: 'hello', status: 'pending', attempts: 1, expiresAt: 0 });
  const logger = new RecordingLogger();
  const ses = { send: () => Promise.resolve({ MessageId: 'ses-1' }) };
  await redeliverPending({
    archive,
    ses,
    mail: { ownerEmail: 'o@example.com', senderEmail: 's@example.com' },
    now: Date.now,
    logger,
    metrics,
    sesTimeoutMs: 500,
    archiveTimeoutMs: 500,
  });
  const events = createMailEventsHandler({ archive, logger, metrics, archiveTimeoutMs: 500 });
  for (const sample of ['Delivery', 'Bounce', 'Complaint'] as SampleName[]) await events(snsEvent(sample, 'm1'));
  return metrics.names();
}

describe('contract metrics', () => {
  it('every archive metric is emitted by the contact, redelivery or mail-event code in some scenario', async () => {
    const emitted = new Set(await archiveScenarios());
    for (const name of Object.values(ARCHIVE_METRICS)) expect(emitted, name).toContain(name);
  });

  it('every contact metric is emitted by the contact handler in some scenario', async () => {
    const emitted = new Set(await contactScenarios());
    for (const name of Object.values(CONTACT_METRICS)) expect(emitted, name).toContain(name);
  });

  it('every event metric is emitted by the events handler', async () => {
    const emitted = new Set(await eventScenarios());
    for (const name of Object.values(EVENT_METRICS)) expect(emitted, name).toContain(name);
  });

  it('every vitals metric is measured by the vitals handler', async () => {
    const measures = new RecordingMeasures();
    const handler = createVitalsHandler({ logger: new RecordingLogger(), measures, pageViews: () => undefined });
    const body = JSON.stringify({ route: '/home', lang: 'en', device: 'phone', nav: 'load', lcp: 1200, inp: 80 });
    await handler(apiEvent({ path: '/api/vitals', body }), ctx);
    const emitted = new Set(measures.lines.flatMap((line) => Object.keys(line)));
    for (const name of Object.values(VITALS_METRICS_EMF)) expect(emitted, name).toContain(name);
  });
});
