/**
 * The API Gateway stand-in with stub handlers: the payload-v2 event it builds, how it reads
 * results, and how it fails (a throwing or slow handler, a malformed result, a huge body).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiRoute } from '../../contract/api-routes';
import { createApiGateway, MAX_API_BODY_BYTES, toHttpResponse, type ApiCall, type LambdaHandler } from './api-gateway';
import { send } from './test-support';

const route = (name: 'contact' | 'events', path: `/api/${string}`): ApiRoute => ({
  routeKey: `POST ${path}`,
  method: 'POST',
  path,
  name,
  entry: 'unused',
  timeoutSeconds: 1,
});

let behaviour: LambdaHandler;
let seen: { event: APIGatewayProxyEventV2; context: Context }[] = [];
const calls: ApiCall[] = [];
let server: Server;
let url: string;
const errors: string[] = [];

beforeAll(async () => {
  const gateway = createApiGateway({
    routes: [
      {
        route: route('contact', '/api/echo'),
        handler: async (event, context) => {
          seen.push({ event, context });
          return behaviour(event, context);
        },
      },
    ],
    notFound: async (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<title>Fallback</title>');
    },
    headers: () => ({ 'X-Content-Type-Options': 'nosniff' }),
    calls,
    timeoutMs: 300,
    log: (message) => errors.push(message),
  });
  server = createServer((req, res) => void gateway(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
  errors.length = 0;
  behaviour = async () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });
});

describe('the payload-v2 event', () => {
  it('carries the request as API Gateway would', async () => {
    await send(url, {
      method: 'POST',
      path: '/api/echo?a=1&b=x%20y&a=2',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'ua-test',
        Cookie: 'one=1; two=2',
        'X-Forwarded-For': '203.0.113.9',
        'X-Custom': 'v',
      },
      body: '{"hello":"wörld"}',
    });
    const { event, context } = seen[0]!;
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'POST /api/echo',
      rawPath: '/api/echo',
      rawQueryString: 'a=1&b=x%20y&a=2',
      queryStringParameters: { a: '1,2', b: 'x y' },
      cookies: ['one=1', 'two=2'],
      body: '{"hello":"wörld"}',
      isBase64Encoded: false,
      requestContext: {
        http: { method: 'POST', path: '/api/echo', sourceIp: '127.0.0.1', userAgent: 'ua-test' },
        routeKey: 'POST /api/echo',
        stage: '$default',
      },
    });
    expect(event.headers['content-type']).toBe('application/json');
    expect(event.headers['x-custom']).toBe('v');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.headers['x-forwarded-for']).toBe('203.0.113.9, 127.0.0.1');
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(context.awsRequestId).toBe(event.requestContext.requestId);
    expect(context.getRemainingTimeInMillis()).toBeGreaterThan(0);
  });

  it('base64-encodes binary bodies and flags them', async () => {
    const bytes = Buffer.from([0, 1, 2, 0xff]);
    await send(url, { method: 'POST', path: '/api/echo', headers: { 'content-type': 'image/png' }, body: bytes });
    expect(seen[0]!.event.isBase64Encoded).toBe(true);
    expect(Buffer.from(seen[0]!.event.body!, 'base64').equals(bytes)).toBe(true);
    // Declared as JSON but not UTF-8: still base64, never mangled.
    await send(url, { method: 'POST', path: '/api/echo', headers: { 'content-type': 'application/json' }, body: bytes });
    expect(seen[1]!.event.isBase64Encoded).toBe(true);
  });

  it('has no body field for an empty body', async () => {
    await send(url, { method: 'POST', path: '/api/echo' });
    expect(seen[0]!.event.body).toBeUndefined();
    expect(seen[0]!.event.isBase64Encoded).toBe(false);
  });
});

describe('results and failures', () => {
  it('sends the handler’s status, headers and body, plus the shared headers', async () => {
    behaviour = async () => ({ statusCode: 201, headers: { 'x-a': 'b', 'content-length': '999' }, body: 'made', cookies: ['c=1'] });
    const reply = await send(url, { method: 'POST', path: '/api/echo' });
    expect(reply.status).toBe(201);
    expect(reply.headers['x-a']).toBe('b');
    expect(reply.headers['set-cookie']).toEqual(['c=1']);
    expect(reply.headers['content-length']).toBe('4');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.body.toString()).toBe('made');
  });

  it('turns a throwing handler into 500, logs it, and keeps serving', async () => {
    behaviour = async () => {
      throw new Error('boom');
    };
    const reply = await send(url, { method: 'POST', path: '/api/echo' });
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body.toString())).toEqual({ message: 'Internal Server Error' });
    expect(errors.join('\n')).toContain('boom');
    behaviour = async () => ({ statusCode: 204 });
    expect((await send(url, { method: 'POST', path: '/api/echo' })).status).toBe(204);
  });

  it('turns a handler that outlives its timeout into 500', async () => {
    behaviour = () => new Promise(() => undefined);
    const reply = await send(url, { method: 'POST', path: '/api/echo' });
    expect(reply.status).toBe(500);
    expect(reply.ms).toBeLessThan(2000);
    expect(errors.join('\n')).toContain('timed out');
  });

  it('answers 413 over the body cap without calling the handler', async () => {
    const reply = await send(url, {
      method: 'POST',
      path: '/api/echo',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(MAX_API_BODY_BYTES + 1, 0x20),
    });
    expect(reply.status).toBe(413);
    expect(seen).toHaveLength(0);
    expect(calls.at(-1)).toMatchObject({ status: 413, path: '/api/echo' });
  });

  it('answers unknown routes and methods with the CDN’s 404 page', async () => {
    expect((await send(url, { method: 'GET', path: '/api/echo' })).status).toBe(404);
    expect((await send(url, { method: 'POST', path: '/api/other' })).body.toString()).toContain('Fallback');
    expect(seen).toHaveLength(0);
  });

  it('reads results the way API Gateway reads payload v2', () => {
    expect(toHttpResponse({ hello: 1 })).toMatchObject({ status: 200, body: Buffer.from('{"hello":1}') });
    expect(toHttpResponse('text')).toMatchObject({ status: 200, body: Buffer.from('text') });
    expect(toHttpResponse({ statusCode: 200, body: 'aGk=', isBase64Encoded: true })?.body.toString()).toBe('hi');
    expect(toHttpResponse({ statusCode: 'x' })).toBeUndefined();
    expect(toHttpResponse({ statusCode: 700 })).toBeUndefined();
    expect(toHttpResponse({ statusCode: 200, body: { not: 'a string' } })).toBeUndefined();
    expect(toHttpResponse({ statusCode: 200, headers: { a: { nested: true } } })).toBeUndefined();
  });
});
