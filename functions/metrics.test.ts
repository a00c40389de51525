/**
 * Every metric in the contract is one a handler really emits: the stack's dashboard and alarms read
 * only contract names (the stack's own test checks that side), so together no graph or alarm can
 * watch a name nothing writes.
 */
import { describe, expect, it } from 'vitest';
import { CONTACT_METRICS, EVENT_METRICS, type MetricName } from '../contract/metrics';
import { contactEvent, contactFixture, sesBehaviour, VALID_BODY, verifier } from './contact/fixtures';
import { createEventsHandler } from './events/handler';
import { apiEvent, lambdaContext, RecordingLogger, RecordingMetrics } from './shared/test-support';

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
  return emitted;
}

async function eventScenarios(): Promise<MetricName[]> {
  const metrics = new RecordingMetrics();
  const handler = createEventsHandler({ logger: new RecordingLogger(), metrics });
  await handler(apiEvent({ path: '/api/events', body: JSON.stringify({ name: 'SIDEBAR_NAV_ABOUT' }) }), ctx);
  return metrics.names();
}

describe('contract metrics', () => {
  it('every contact metric is emitted by the contact handler in some scenario', async () => {
    const emitted = new Set(await contactScenarios());
    for (const name of Object.values(CONTACT_METRICS)) expect(emitted, name).toContain(name);
  });

  it('every event metric is emitted by the events handler', async () => {
    const emitted = new Set(await eventScenarios());
    for (const name of Object.values(EVENT_METRICS)) expect(emitted, name).toContain(name);
  });
});
