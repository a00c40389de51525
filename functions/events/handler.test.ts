import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiEvent, lambdaContext, RecordingLogger, RecordingMetrics } from '../shared/test-support';
import { OTHER_EVENT, siteEventNames } from '../../contract/event-catalog';
import { EVENT_MAX_BODY_BYTES } from '../../contract/limits';
import { blogs } from '../../web/content/blogs';
import { projects } from '../../web/content/projects';
import { createEventsHandler, handler } from './handler';

const ctx = lambdaContext();

function setup(metrics = new RecordingMetrics()) {
  const logger = new RecordingLogger();
  return { handler: createEventsHandler({ logger, metrics }), logger, metrics };
}

function beacon(body: string, options: Parameters<typeof apiEvent>[0] = {}) {
  return apiEvent({ path: '/api/events', body, headers: { 'content-type': 'application/json' }, ...options });
}

describe('events handler', () => {
  it.each(['SIDEBAR_NAV_PROJECTS', 'PROJECT_VIEW_HOTEL_BOOKING_MANAGER', 'BLOGS_CLIENT_BLOGS', 'A', 'X'.repeat(100)])(
    'records %s as one ClickEvent with its name as the EventName dimension, and answers 204',
    async (name) => {
      const f = setup();
      const result = await f.handler(beacon(JSON.stringify({ name })), ctx);
      expect(result.statusCode).toBe(204);
      expect(result.body).toBe('');
      expect(result.headers?.['cache-control']).toBe('no-store');
      expect(f.metrics.counts).toEqual([{ name: 'ClickEvent', dimensions: { EventName: name } }]);
    },
  );

  it.each(['application/json', 'text/plain;charset=UTF-8', 'text/plain', 'application/json; charset=utf-8'])(
    'accepts %s, as sendBeacon may send either',
    async (contentType) => {
      const f = setup();
      const result = await f.handler(beacon('{"name":"HOME_EXPLORE_PROJECTS_CLICK"}', { headers: { 'content-type': contentType } }), ctx);
      expect(result.statusCode).toBe(204);
    },
  );

  it('accepts a base64-encoded body', async () => {
    const f = setup();
    const body = Buffer.from('{"name":"SIDEBAR_LINKEDIN_CLICK"}').toString('base64');
    expect((await f.handler(beacon(body, { isBase64Encoded: true }), ctx)).statusCode).toBe(204);
  });

  it.each([
    ['lower case', '{"name":"sidebar_nav"}'],
    ['a space', '{"name":"SIDEBAR NAV"}'],
    ['a hyphen', '{"name":"SIDEBAR-NAV"}'],
    ['an empty name', '{"name":""}'],
    ['101 characters', JSON.stringify({ name: 'X'.repeat(101) })],
    ['a number', '{"name":42}'],
    ['null', '{"name":null}'],
    ['an array', '["SIDEBAR_NAV"]'],
    ['an extra key', '{"name":"A","ip":"1.2.3.4"}'],
    ['a __proto__ key', '{"__proto__":{"name":"A"}}'],
    ['no name', '{}'],
    ['not JSON', 'SIDEBAR_NAV'],
    ['empty', ''],
    ['a trailing newline in the name', '{"name":"A\\n"}'],
    ['non-ASCII letters', '{"name":"ÉTÉ"}'],
  ])('answers 400 {error} to %s and records nothing', async (_label, body) => {
    const f = setup();
    const result = await f.handler(beacon(body), ctx);
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body ?? '')).toEqual({ error: expect.any(String) });
    expect(result.headers?.['content-type']).toBe('application/json; charset=utf-8');
    expect(f.metrics.counts).toHaveLength(0);
  });

  it.each(['GET', 'PUT', 'OPTIONS'])('answers %s with 405 and Allow: POST', async (method) => {
    const f = setup();
    const result = await f.handler(beacon('{"name":"A"}', { method }), ctx);
    expect(result.statusCode).toBe(405);
    expect(result.headers?.allow).toBe('POST');
    expect(f.metrics.counts).toHaveLength(0);
  });

  it.each([undefined, 'application/x-www-form-urlencoded', 'multipart/form-data', 'text/html', 'text/plain; charset=utf-16'])(
    'answers content type %s with 415',
    async (contentType) => {
      const f = setup();
      const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
      expect((await f.handler(beacon('{"name":"A"}', { headers }), ctx)).statusCode).toBe(415);
    },
  );

  it('answers a body over 1 KB with 413', async () => {
    const f = setup();
    const padded = `{"name":"A"${' '.repeat(EVENT_MAX_BODY_BYTES)}}`;
    expect((await f.handler(beacon(padded), ctx)).statusCode).toBe(413);
    const padded64 = Buffer.from(padded).toString('base64');
    expect((await f.handler(beacon(padded64, { isBase64Encoded: true }), ctx)).statusCode).toBe(413);
  });

  it('keeps nothing about the visitor: the log carries no IP, no user agent, no header', async () => {
    const f = setup();
    const event = beacon('{"name":"nope"}', { sourceIp: '198.51.100.99' });
    event.headers.cookie = 'session=abc';
    event.headers['user-agent'] = 'Secret-Agent/1.0';
    await f.handler(event, ctx);
    await f.handler({ ...event, body: '{"name":"OK"}' }, ctx);
    const logged = f.logger.text();
    for (const value of ['198.51.100.99', 'session=abc', 'Secret-Agent']) expect(logged).not.toContain(value);
    expect(f.metrics.counts).toEqual([{ name: 'ClickEvent', dimensions: { EventName: 'OK' } }]);
  });

  it('answers 204, never 5xx, when the metric cannot be written, and logs why', async () => {
    const broken = new RecordingMetrics();
    broken.count = () => {
      throw new RangeError('metrics store full');
    };
    const f = setup(broken);
    const result = await f.handler(beacon('{"name":"OK"}'), ctx);
    expect(result.statusCode).toBe(204);
    expect(f.logger.lines.at(-1)).toMatchObject({ level: 'error', fields: { eventName: 'OK', errorName: 'RangeError' } });
  });
});

describe('events handler entry point (Powertools Metrics, EMF on stdout)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes one EMF record: namespace Portfolio, metric ClickEvent, dimensions service and EventName', async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    const result = await handler(beacon('{"name":"BLOGS_CLIENT_BLOGS"}', { sourceIp: '198.51.100.5' }), ctx);
    vi.restoreAllMocks();
    expect(result.statusCode).toBe(204);
    const records = out
      .join('')
      .split('\n')
      .filter((line) => line.includes('"_aws"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: 'Portfolio',
            Dimensions: [['service', 'EventName']],
            Metrics: [{ Name: 'ClickEvent', Unit: 'Count' }],
          },
        ],
      },
      service: 'events',
      EventName: 'BLOGS_CLIENT_BLOGS',
      ClickEvent: 1,
    });
    expect(out.join('')).not.toContain('198.51.100.5');
  });

  it('counts a well-formed name the site never sends as OTHER_EVENT, so strangers cannot mint metrics', async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    const result = await handler(beacon('{"name":"NOT_A_SITE_EVENT_123"}'), ctx);
    vi.restoreAllMocks();
    expect(result.statusCode).toBe(204);
    const record = out
      .join('')
      .split('\n')
      .find((line) => line.includes('"_aws"'));
    expect(JSON.parse(record ?? '{}')).toMatchObject({ EventName: 'OTHER_EVENT', ClickEvent: 1 });
  });

  it('does not carry one event name into the next record', async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    await Promise.all([handler(beacon('{"name":"SIDEBAR_NAV_ABOUT"}'), ctx), handler(beacon('{"name":"SIDEBAR_NAV_BLOGS"}'), ctx)]);
    vi.restoreAllMocks();
    const records = out
      .join('')
      .split('\n')
      .filter((line) => line.includes('"_aws"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((r) => [r.EventName, r.ClickEvent])).toEqual([
      ['SIDEBAR_NAV_ABOUT', 1],
      ['SIDEBAR_NAV_BLOGS', 1],
    ]);
  });
});

describe('events handler with the catalog', () => {
  const send = (name: string) =>
    apiEvent({ path: '/api/events', body: JSON.stringify({ name }), headers: { 'content-type': 'application/json' } });

  it('counts a known name under its own dimension and any other well-formed name as OTHER_EVENT', async () => {
    const metrics = new RecordingMetrics();
    const logger = new RecordingLogger();
    const handler = createEventsHandler({ logger, metrics, knownNames: siteEventNames({ projects, blogs }) });
    expect((await handler(send('SIDEBAR_NAV_ABOUT'), lambdaContext())).statusCode).toBe(204);
    expect((await handler(send('MADE_UP_NAME_42'), lambdaContext())).statusCode).toBe(204);
    expect(metrics.counts).toEqual([
      { name: 'ClickEvent', dimensions: { EventName: 'SIDEBAR_NAV_ABOUT' } },
      { name: 'ClickEvent', dimensions: { EventName: OTHER_EVENT } },
    ]);
  });
});
