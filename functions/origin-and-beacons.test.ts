/**
 * The origin check: every route refuses a request without CloudFront's value, accepts every version
 * a rotation leaves in flight, reads Secrets Manager no more than once per interval however many
 * junk values arrive, and refuses everything when the secret cannot be read.
 */
import { describe, expect, it } from 'vitest';
import type { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { ORIGIN_VERIFY_HEADER } from '../contract/api-headers';
import { createEventsHandler } from './events/handler';
import { createVitalsHandler } from './vitals/handler';
import {
  createOriginCheck,
  ORIGIN_REFRESH_MS,
  originCheckFromEnv,
  secretsManagerOriginValues,
  staticOriginCheck,
  type SecretsManagerLike,
} from './shared/origin';
import { VITALS_ALARM_VIEWS_PER_ADDRESS } from '../contract/limits';
import { counterKeys, memoryCounters } from './shared/counters';
import { createBeaconLimit } from './shared/beacon-limit';
import { readSpend } from './shared/spend';
import { apiEvent, lambdaContext, RecordingLogger, RecordingMetrics } from './shared/test-support';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const withOrigin = (value?: string) =>
  apiEvent({ headers: { 'content-type': 'application/json', ...(value ? { [ORIGIN_VERIFY_HEADER]: value } : {}) } });

/** Secrets Manager with versions by staging label; counts reads. */
function fakeSecrets(stages: Record<string, string>) {
  const fake = {
    reads: 0,
    stages,
    send(command: GetSecretValueCommand) {
      fake.reads++;
      const value = fake.stages[command.input.VersionStage ?? 'AWSCURRENT'];
      if (value === undefined) return Promise.reject(Object.assign(new Error('no such version'), { name: 'ResourceNotFoundException' }));
      return Promise.resolve({ SecretString: value });
    },
  };
  return fake satisfies SecretsManagerLike;
}

describe('createOriginCheck', () => {
  it('accepts the current, previous and pending versions; refuses a missing, short or other value', async () => {
    const secrets = fakeSecrets({ AWSCURRENT: A, AWSPREVIOUS: B, AWSPENDING: C });
    const check = createOriginCheck({ load: secretsManagerOriginValues(secrets, 'arn', 1000), now: () => 0 });
    for (const value of [A, B, C]) expect(await check(withOrigin(value))).toBe(true);
    for (const value of [undefined, 'short', 'd'.repeat(40), `${A}x`]) expect(await check(withOrigin(value))).toBe(false);
  });

  it('a value not known makes one fresh read per interval at most: a rotation is seen, junk costs little', async () => {
    let now = 0;
    const secrets = fakeSecrets({ AWSCURRENT: A });
    const check = createOriginCheck({ load: secretsManagerOriginValues(secrets, 'arn', 1000), now: () => now });
    expect(await check(withOrigin(A))).toBe(true);
    const readsAfterFirst = secrets.reads;
    for (let i = 0; i < 50; i++) expect(await check(withOrigin('j'.repeat(40 + (i % 3))))).toBe(false);
    expect(secrets.reads).toBe(readsAfterFirst); // within the interval: no read at all
    // A rotation: B becomes current, A previous; CloudFront sends B.
    secrets.stages = { AWSCURRENT: B, AWSPREVIOUS: A };
    now += ORIGIN_REFRESH_MS;
    expect(await check(withOrigin(B))).toBe(true);
    expect(await check(withOrigin(A))).toBe(true);
  });

  it('fails closed: an unreadable secret refuses every request and is reported', async () => {
    const errors: unknown[] = [];
    const check = createOriginCheck({
      load: () => Promise.reject(new Error('denied')),
      now: () => 0,
      onError: (error) => errors.push(error),
    });
    expect(await check(withOrigin(A))).toBe(false);
    expect(errors).toHaveLength(1);
    const noCurrent = createOriginCheck({ load: secretsManagerOriginValues(fakeSecrets({ AWSPREVIOUS: A }), 'arn', 1000), now: () => 0 });
    expect(await noCurrent(withOrigin(A))).toBe(false);
  });

  it('from the environment: the named secret; in Lambda without one, refuses everything; outside Lambda, none', async () => {
    const secrets = fakeSecrets({ AWSCURRENT: A });
    const errors: unknown[] = [];
    const named = originCheckFromEnv({ ORIGIN_SECRET_ARN: 'arn:aws:secretsmanager:x' }, (error) => errors.push(error), secrets);
    expect(await named!(withOrigin(A))).toBe(true);
    const unnamed = originCheckFromEnv({ AWS_LAMBDA_FUNCTION_NAME: 'f' }, (error) => errors.push(error));
    expect(await unnamed!(withOrigin(A))).toBe(false);
    expect(errors).toHaveLength(1);
    expect(originCheckFromEnv({}, () => undefined)).toBeUndefined();
    // No variable turns the check off in Lambda: every stage has its own secret.
    const asked = originCheckFromEnv({ AWS_LAMBDA_FUNCTION_NAME: 'f', ORIGIN_CHECK: 'off' }, () => undefined);
    expect(await asked!(withOrigin(A))).toBe(false);
  });
});

describe('the beacon routes refuse a request that skipped CloudFront', () => {
  const ctx = lambdaContext();
  it('events: 403 without the value, nothing counted; 204 with it', async () => {
    const metrics = new RecordingMetrics();
    const handler = createEventsHandler({ logger: new RecordingLogger(), metrics, origin: staticOriginCheck(A) });
    const event = (value?: string) => ({ ...withOrigin(value), body: JSON.stringify({ name: 'NAV_HOME' }) });
    expect((await handler(event(), ctx)).statusCode).toBe(403);
    expect((await handler(event(B), ctx)).statusCode).toBe(403);
    expect(metrics.counts).toEqual([]);
    expect((await handler(event(A), ctx)).statusCode).toBe(204);
    expect(metrics.counts).toHaveLength(1);
  });

  it('vitals: 403 without the value, no page view kept; 204 with it', async () => {
    const views: unknown[] = [];
    const handler = createVitalsHandler({
      logger: new RecordingLogger(),
      measures: { measure: () => undefined },
      pageViews: (view) => views.push(view),
      origin: staticOriginCheck(A),
    });
    const body = JSON.stringify({ route: '/home', lang: 'en', device: 'desktop', nav: 'load', lcp: 1200 });
    expect((await handler({ ...withOrigin(), body }, ctx)).statusCode).toBe(403);
    expect(views).toEqual([]);
    const ok = await handler({ ...withOrigin(A), body }, ctx);
    expect(ok.statusCode, ok.body).toBe(204);
    expect(views).toHaveLength(1);
  });
});

describe('the beacons: one address cannot move the owner’s numbers', () => {
  const ctx = lambdaContext();
  const from = (ip: string, body: string) => apiEvent({ sourceIp: ip, body, headers: { 'content-type': 'application/json' } });

  it('clicks past the daily limit from one address are dropped (204, logged as dropped), others still counted', async () => {
    const counters = memoryCounters();
    const metrics = new RecordingMetrics();
    const logger = new RecordingLogger();
    const limit = createBeaconLimit({
      counters,
      hashKey: counterKeys(counters),
      route: 'events',
      max: 3,
      viaCloudFront: false,
      now: () => Date.UTC(2026, 10, 22, 9),
    });
    const handler = createEventsHandler({ logger, metrics, limit });
    const body = JSON.stringify({ name: 'NAV_HOME' });
    for (let i = 0; i < 5; i++) expect((await handler(from('198.51.100.1', body), ctx)).statusCode).toBe(204);
    expect(metrics.counts).toHaveLength(3);
    expect(logger.lines.filter((line) => line.fields.outcome === 'dropped-address-limit')).toHaveLength(2);
    await handler(from('198.51.100.2', body), ctx);
    expect(metrics.counts).toHaveLength(4);
    // No address in what is stored.
    expect([...counters.items.keys()].join()).not.toContain('198.51.100');
  });

  it('page views past the daily limit are dropped; past the first few, they no longer feed the alarm metrics', async () => {
    const counters = memoryCounters();
    const views: unknown[] = [];
    let measured = 0;
    const limit = createBeaconLimit({
      counters,
      hashKey: counterKeys(counters),
      route: 'vitals',
      max: 6,
      viaCloudFront: false,
      now: () => Date.UTC(2026, 10, 22, 9),
    });
    const handler = createVitalsHandler({
      logger: new RecordingLogger(),
      measures: { measure: () => void measured++ },
      pageViews: (view) => views.push(view),
      limit,
    });
    const body = JSON.stringify({ route: '/home', lang: 'en', device: 'desktop', nav: 'load', lcp: 9000 });
    for (let i = 0; i < 10; i++) await handler(from('198.51.100.1', body), ctx);
    expect(views).toHaveLength(6);
    expect(measured).toBe(VITALS_ALARM_VIEWS_PER_ADDRESS);
  });

  it("counts toward the route's breaker only what passed the address's share: one address, however fast, adds at most its day's limit", async () => {
    const counters = memoryCounters();
    const metrics = new RecordingMetrics();
    const now = () => Date.UTC(2026, 10, 22, 9);
    const limit = createBeaconLimit({ counters, hashKey: counterKeys(counters), route: 'events', max: 3, viaCloudFront: false, now });
    const handler = createEventsHandler({ logger: new RecordingLogger(), metrics, limit });
    // Junk first: a malformed beacon takes a slot of the address's share too, so junk cannot run on uncounted.
    expect((await handler(from('198.51.100.1', '{"name":"not a name!"}'), ctx)).statusCode).toBe(400);
    for (let i = 0; i < 50; i++) await handler(from('198.51.100.1', JSON.stringify({ name: 'NAV_HOME' })), ctx);
    expect(await readSpend(counters, 'events', now())).toBe(3);
    // Past its share, even malformed junk is dropped without a look (204), and still not counted.
    expect((await handler(from('198.51.100.1', '{"name":"not a name!"}'), ctx)).statusCode).toBe(204);
    expect(await readSpend(counters, 'events', now())).toBe(3);
    // Another address counts on its own share; the other route's counter is untouched.
    await handler(from('198.51.100.2', JSON.stringify({ name: 'NAV_HOME' })), ctx);
    expect(await readSpend(counters, 'events', now())).toBe(4);
    expect(await readSpend(counters, 'vitals', now())).toBe(0);
    expect(metrics.counts).toHaveLength(3);
  });

  it('fails closed: a day counter that does not answer drops the beacon uncounted', async () => {
    const base = memoryCounters();
    const counters = {
      ...base,
      take: (id: string, max: number, expiresAt: number) =>
        id.startsWith('spend#') ? Promise.reject(new Error('down')) : base.take(id, max, expiresAt),
    };
    const metrics = new RecordingMetrics();
    const limit = createBeaconLimit({
      counters,
      hashKey: counterKeys(counters),
      route: 'events',
      max: 3,
      viaCloudFront: false,
      now: Date.now,
    });
    const handler = createEventsHandler({ logger: new RecordingLogger(), metrics, limit });
    expect((await handler(from('198.51.100.1', JSON.stringify({ name: 'NAV_HOME' })), ctx)).statusCode).toBe(204);
    expect(metrics.counts).toEqual([]);
  });

  it('fails closed: counters that do not answer drop the beacon', async () => {
    const counters = { ...memoryCounters(), take: () => Promise.reject(new Error('down')) };
    const metrics = new RecordingMetrics();
    const limit = createBeaconLimit({
      counters,
      hashKey: counterKeys(counters),
      route: 'events',
      max: 3,
      viaCloudFront: false,
      now: Date.now,
    });
    const handler = createEventsHandler({ logger: new RecordingLogger(), metrics, limit });
    expect((await handler(from('198.51.100.1', JSON.stringify({ name: 'NAV_HOME' })), ctx)).statusCode).toBe(204);
    expect(metrics.counts).toEqual([]);
  });
});
