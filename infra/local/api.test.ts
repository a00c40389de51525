/**
 * The API behind the local server: the payload-2.0 event the adapter builds (seen by a recording
 * handler), then the real handlers with a fake siteverify and the real aws-ses-v2-local mailbox.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES } from '../../contract/contact-rules';
import { createApiGateway } from './api-gateway';
import { routeThrottle } from '../../functions/breaker/local';
import { ROUTE_THROTTLES } from '../../contract/limits';
import { ROUTE_THROTTLES as STACK_THROTTLES } from '../lib/http-api';
import { startFakeSiteverify, type FakeSiteverify } from '../../tools/fake-siteverify';
import { clearMailbox, fetchMails } from './mailbox';
import { startLocalStack, type LocalStack } from './stack';
import { fixtureBuild, send, type RawReply } from './test-support';

describe('the payload-2.0 event', () => {
  const seen: APIGatewayProxyEventV2[] = [];
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const record = async (event: APIGatewayProxyEventV2) => {
      seen.push(event);
      return { statusCode: 201, headers: { 'x-handler': 'yes' }, body: Buffer.from('raw').toString('base64'), isBase64Encoded: true };
    };
    const gateway = createApiGateway({ contact: record, events: record, vitals: record });
    server = createServer((req, res) => void gateway(req, res, () => res.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('carries rawPath, the query, lower-cased headers, cookies, sourceIp and a request id; maps the result back', async () => {
    const reply = await send(url, {
      method: 'POST',
      path: '/api/events?a=1&a=2',
      headers: { 'Content-Type': 'application/json', 'X-Custom': 'v', Cookie: 'c=1; d=2' },
      body: '{"name":"X"}',
    });
    expect(reply.status).toBe(201);
    expect(reply.headers['x-handler']).toBe('yes');
    expect(reply.body.toString()).toBe('raw');
    const event = seen.at(-1)!;
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'POST /api/events',
      rawPath: '/api/events',
      rawQueryString: 'a=1&a=2',
      queryStringParameters: { a: '1,2' },
      cookies: ['c=1', 'd=2'],
      body: '{"name":"X"}',
      isBase64Encoded: false,
      requestContext: { http: { method: 'POST', path: '/api/events', sourceIp: '127.0.0.1' }, stage: '$default' },
    });
    expect(event.headers).toMatchObject({ 'content-type': 'application/json', 'x-custom': 'v' });
    expect(event.headers.cookie).toBeUndefined();
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('base64-encodes a binary body, refuses one over 1 MB with 413, and leaves unknown routes to the CDN', async () => {
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x01]);
    await send(url, { method: 'POST', path: '/api/contact', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
    expect(seen.at(-1)).toMatchObject({ body: bytes.toString('base64'), isBase64Encoded: true });
    const count = seen.length;
    const big = await send(url, { method: 'POST', path: '/api/contact', body: 'x'.repeat(1024 * 1024 + 1) });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body.toString())).toEqual({ message: 'Request Entity Too Large' });
    expect((await send(url, { method: 'GET', path: '/api/contact' })).status).toBe(404);
    expect(seen.length).toBe(count);
  });
});

describe("each route's throttle, as the stage applies it (contract/limits.ts)", () => {
  it('refills a token bucket at the rate, up to the burst', () => {
    let now = 0;
    const take = routeThrottle({ rateLimit: 2, burstLimit: 3 }, () => now);
    expect([take(), take(), take(), take()]).toEqual([true, true, true, false]);
    now = 499;
    expect(take()).toBe(false);
    now = 500;
    expect([take(), take()]).toEqual([true, false]);
    now = 60_000;
    expect([take(), take(), take(), take()]).toEqual([true, true, true, false]);
  });

  it('the local stack and the CDK stack read the same numbers', () => {
    expect(STACK_THROTTLES).toBe(ROUTE_THROTTLES);
    // The benchmark's flood (4 a second from one address) stays under the contact bucket, so the per-address limit sorts it.
    expect(ROUTE_THROTTLES.contact.rateLimit).toBeGreaterThan(4);
  });

  it('takes a class of visitors leaving together, and a burst of page views never refuses a click or a message', async () => {
    const seen: string[] = [];
    const record = async (event: APIGatewayProxyEventV2) => {
      seen.push(event.routeKey);
      return { statusCode: 204 };
    };
    // A clock that stands still: only the burst counts, however long the requests take here.
    const gateway = createApiGateway({ contact: record, events: record, vitals: record }, { throttle: true, now: () => 0 });
    const server = createServer((req, res) => void gateway(req, res, () => res.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const post = (path: string) => send(url, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{}' });
      const burst = ROUTE_THROTTLES.vitals.burstLimit;
      const views = await Promise.all(Array.from({ length: burst }, () => post('/api/vitals')));
      expect(views.every((reply) => reply.status === 204)).toBe(true);
      const refused = await post('/api/vitals');
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body.toString())).toEqual({ message: 'Too Many Requests' });
      // Other routes have buckets of their own.
      expect((await post('/api/events')).status).toBe(204);
      expect((await post('/api/contact')).status).toBe(204);
      expect(seen.filter((key) => key === 'POST /api/vitals')).toHaveLength(burst);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('the real handlers, a fake siteverify and the mailbox', () => {
  let stack: LocalStack;
  let verifier: FakeSiteverify;
  const fixture = fixtureBuild();
  const VALID = { fullName: 'Zoë O’Brien', email: 'zoe@example.org', message: 'Hello, <b>a</b> message.', 'g-recaptcha-response': 'tok' };
  const post = (path: string, body: unknown, contentType = 'application/json'): Promise<RawReply> =>
    send(stack.url, {
      method: 'POST',
      path,
      headers: { 'content-type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    verifier = await startFakeSiteverify('pass');
    stack = await startLocalStack({
      port: 0,
      sesPort: 0,
      clientDir: fixture.clientDir,
      recaptchaVerifyUrl: verifier.url,
      recaptchaSecret: 'local-secret',
      quiet: true,
      pageViewsFile: path.join(fixture.buildDir, 'page-views.jsonl'),
      // These tests send more contact requests from one address than its share (malformed ones take a
      // slot too); the per-address limits have their own tests (flood.test.ts).
      floodGuards: false,
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await verifier?.stop();
  });

  beforeEach(async () => {
    verifier.mode = 'pass';
    verifier.calls.length = 0;
    await clearMailbox(stack.sesUrl);
  });

  it('mails a valid message once to the owner, after siteverify saw the secret, token and IP', async () => {
    const reply = await post('/api/contact', VALID);
    expect(reply.status).toBe(200);
    const mails = await fetchMails(stack.sesUrl);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ destination: { to: ['owner@example.com'] }, replyTo: [VALID.email] });
    expect(mails[0]!.from).toContain('portfolio@example.com');
    expect(mails[0]!.body.text).toContain('Hello, <b>a</b> message.');
    expect(verifier.calls).toEqual([{ secret: 'local-secret', response: 'tok', remoteip: '127.0.0.1' }]);
  });

  it.each([
    [{ ...VALID, fullName: 'Madonna' }, CONTACT_MESSAGES.invalidName],
    [{ ...VALID, email: 'zoe@example.museum' }, CONTACT_MESSAGES.invalidEmail],
    [{ ...VALID, 'g-recaptcha-response': '' }, CONTACT_MESSAGES.missingCaptcha],
  ])('answers 400 with the form’s message, asks no one and mails nothing: %#', async (body, message) => {
    const reply = await post('/api/contact', body);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body.toString())).toEqual({ error: message });
    expect(verifier.calls).toHaveLength(0);
    expect(await fetchMails(stack.sesUrl)).toHaveLength(0);
  });

  it('answers 400 to malformed JSON and 403 to a refused token, mailing nothing', async () => {
    expect((await post('/api/contact', '{"fullName":')).status).toBe(400);
    verifier.mode = 'refuse';
    expect((await post('/api/contact', VALID)).status).toBe(403);
    expect(await fetchMails(stack.sesUrl)).toHaveLength(0);
  });

  it('answers 204 to a click event, also as sendBeacon’s text/plain, and 400 to a bad name', async () => {
    const reply = await post('/api/events', { name: 'HOME_EXPLORE_PROJECTS_CLICK' });
    expect(reply.status).toBe(204);
    expect(reply.body.length).toBe(0);
    expect((await post('/api/events', { name: 'SIDEBAR_NAV_ABOUT' }, 'text/plain;charset=UTF-8')).status).toBe(204);
    expect((await post('/api/events', { name: 'lower_case' })).status).toBe(400);
  });

  it('appends each page view to the page-views file as the vitals function logs it, and refuses a bad one', async () => {
    const file = path.join(fixture.buildDir, 'page-views.jsonl');
    const view = { route: '/projects/:projectId', lang: 'en', device: 'desktop', nav: 'client', inp: 40 };
    expect((await post('/api/vitals', view, 'text/plain;charset=UTF-8')).status).toBe(204);
    expect((await post('/api/vitals', { ...view, route: '/projects/3' })).status).toBe(400);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      { level: 'INFO', message: 'Page view', timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), service: 'vitals', pageView: view },
    ]);
  });

  it('refuses settings the Lambda would refuse, naming them', async () => {
    await expect(startLocalStack({ port: 0, sesPort: 0, clientDir: fixture.clientDir, ownerEmail: 'nobody', quiet: true })).rejects.toThrow(
      /OWNER_EMAIL is not an email address/,
    );
  });
});
