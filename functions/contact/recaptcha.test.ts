/**
 * siteverify classification, against a real HTTP server on 127.0.0.1 and Node's own fetch, so
 * the timeouts are proven on real sockets (a hung connection, a body that stalls half-way).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCaptcha } from './recaptcha';

type Route = (req: IncomingMessage, res: ServerResponse, form: URLSearchParams) => void;

const routes: Record<string, Route> = {
  '/pass': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}'),
  '/refuse': (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":false,"error-codes":["invalid-input-response"]}'),
  '/bad-secret': (_req, res) => res.writeHead(200).end('{"success":false,"error-codes":["invalid-input-secret"]}'),
  '/error500': (_req, res) => res.writeHead(500).end('{"success":true}'),
  '/html': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>captive portal</html>'),
  '/huge': (_req, res) => res.writeHead(200).end(`{"success":true,"pad":"${'x'.repeat(100_000)}"}`),
  '/redirect': (_req, res) => res.writeHead(302, { location: '/pass' }).end(),
  '/hang': () => undefined, // never answers
  '/stall': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"success":'); // ...and never finishes the body
  },
  '/echo': (_req, res, form) =>
    res.writeHead(200).end(JSON.stringify({ success: form.get('secret') === 's3cret', echo: Object.fromEntries(form) })),
};

let server: Server;
let base: string;
const echoed: URLSearchParams[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const form = new URLSearchParams(raw);
      echoed.push(form);
      const route = routes[req.url ?? ''];
      if (route) route(req, res, form);
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const verify = (path: string, timeoutMs = 2_000) =>
  verifyCaptcha({ fetch, url: `${base}${path}`, secret: 's3cret', token: 'tok', remoteIp: '192.0.2.1', timeoutMs });

describe('verifyCaptcha against a real HTTP server', () => {
  it('posts secret, response and remoteip as a form', async () => {
    expect(await verify('/echo')).toEqual({ kind: 'passed' });
    expect(Object.fromEntries(echoed.at(-1)!)).toEqual({ secret: 's3cret', response: 'tok', remoteip: '192.0.2.1' });
  });

  it('leaves remoteip out when the IP is unknown', async () => {
    await verifyCaptcha({ fetch, url: `${base}/echo`, secret: 's3cret', token: 'tok', timeoutMs: 2_000 });
    expect(echoed.at(-1)!.has('remoteip')).toBe(false);
  });

  it.each([
    ['/pass', { kind: 'passed' }],
    ['/refuse', { kind: 'refused', errorCodes: ['invalid-input-response'] }],
    ['/bad-secret', { kind: 'misconfigured', errorCodes: ['invalid-input-secret'] }],
    ['/error500', { kind: 'unavailable', reason: 'http-status', httpStatus: 500 }],
    ['/html', { kind: 'unavailable', reason: 'bad-response', httpStatus: 200 }],
    ['/huge', { kind: 'unavailable', reason: 'bad-response', httpStatus: 200 }],
    ['/redirect', { kind: 'unavailable', reason: 'network' }],
    ['/missing', { kind: 'unavailable', reason: 'http-status', httpStatus: 404 }],
  ])('classifies %s', async (path, outcome) => {
    expect(await verify(path)).toEqual(outcome);
  });

  it('times out on a verifier that never answers', async () => {
    const started = Date.now();
    expect(await verify('/hang', 150)).toEqual({ kind: 'unavailable', reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('times out on a verifier whose body stalls half-way', async () => {
    const started = Date.now();
    expect(await verify('/stall', 150)).toEqual({ kind: 'unavailable', reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('reports a refused connection as network trouble', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await verifyCaptcha({
      fetch,
      url: `http://127.0.0.1:${port}/`,
      secret: 's',
      token: 't',
      timeoutMs: 2_000,
    });
    expect(outcome).toEqual({ kind: 'unavailable', reason: 'network' });
  });
});
