/**
 * The API's handlers read exactly the request headers of contract/api-headers.ts, the list the CDK
 * stack's origin request policy forwards: a header read but not listed would never arrive on AWS, and
 * a header listed but never read would be forwarded for nothing.
 */
import { describe, expect, it } from 'vitest';
import { API_REQUEST_HEADERS } from '../contract/api-headers';
import { siteEventNames } from '../contract/event-catalog';
import { blogs } from '../web/content/blogs';
import { projects } from '../web/content/projects';
import { contactEvent, contactFixture, VALID_BODY } from './contact/fixtures';
import { createEventsHandler } from './events/handler';
import { apiEvent, lambdaContext, RecordingLogger, RecordingMetrics } from './shared/test-support';

/** Headers that a browser or CloudFront sends but no handler should care about. */
const UNREAD = {
  host: 'example.test',
  'user-agent': 'test',
  'x-forwarded-for': '203.0.113.7',
  cookie: 'a=b',
  origin: 'https://example.test',
};

/** Every header present, and a record of the ones a handler looked at. */
function watchedHeaders(values: Record<string, string>): { headers: Record<string, string>; read: Set<string> } {
  const read = new Set<string>();
  const headers = new Proxy(values, {
    get(target, key, receiver) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { headers, read };
}

describe('request headers the API reads', () => {
  it('are exactly the contract list, across the contact and events handlers', async () => {
    const all = {
      ...UNREAD,
      [API_REQUEST_HEADERS.contentType]: 'application/json',
      [API_REQUEST_HEADERS.contentLanguage]: 'es',
      [API_REQUEST_HEADERS.idempotencyKey]: '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
      [API_REQUEST_HEADERS.viewerAddress]: '198.51.100.9:443',
    };

    const contact = watchedHeaders({ ...all });
    const f = contactFixture();
    const event = contactEvent(VALID_BODY);
    event.headers = contact.headers;
    expect((await f.handler(event, lambdaContext())).statusCode).toBe(200);
    expect(f.verifyCalls[0]!.form.get('remoteip')).toBe('198.51.100.9');

    const events = watchedHeaders({ ...all });
    const handler = createEventsHandler({
      logger: new RecordingLogger(),
      metrics: new RecordingMetrics(),
      knownNames: siteEventNames({ projects, blogs }),
    });
    const beacon = apiEvent({ path: '/api/events', body: JSON.stringify({ name: 'OTHER_NAME' }), headers: events.headers });
    expect((await handler(beacon, lambdaContext())).statusCode).toBe(204);

    const read = new Set([...contact.read, ...events.read]);
    expect([...read].sort()).toEqual(Object.values(API_REQUEST_HEADERS).sort());
  });
});
