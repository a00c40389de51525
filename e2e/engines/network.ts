/**
 * The network every engine's browser goes through in the visitor flows: an HTTP proxy on 127.0.0.1
 * that records what the page asks for (with request bodies), forwards requests for the local stack,
 * serves the fake Google scripts, and refuses everything else. It exists because classic WebDriver
 * (WebKit) cannot intercept requests and playwright-core over WebDriver BiDi (Firefox) cannot read
 * request bodies; a proxy works the same for every engine.
 *
 * HTTPS to Google's script hosts is tunnelled to the fake Google server of e2e/support/fakes.ts, with its
 * throwaway self-signed certificate; the browsers are told to accept it. No request ever leaves the
 * machine.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { FAKE_HOSTS, fakeScriptFor, selfSignedCertificate, startFakeGoogle, type Fakes } from '../support/fakes';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export interface SeenRequest {
  method: string;
  /** Full URL; for HTTPS that was refused, https://host:port/ (the path is never seen). */
  url: string;
  body: string;
  at: number;
  /** The status the browser received, once answered. */
  status?: number;
}

export type NetworkOptions = Fakes;

export interface Network {
  /** host:port of the proxy. */
  readonly address: string;
  /** host:port of the same proxy spoken to over TLS. */
  readonly secureAddress: string;
  /** Every request a browser made through the proxy, in order. */
  readonly requests: SeenRequest[];
  /** Forgets what was recorded and sets the fakes for the next test. */
  reset(options?: Partial<NetworkOptions>): void;
  /** Holds requests whose path matches until `release()`: the page's scripts arriving late. */
  hold(pattern: RegExp): { release: () => void; held: () => number };
  stop(): Promise<void>;
}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

type Hold = { pattern: RegExp; gate: Promise<void>; count: number; open: () => void };

/**
 * The plain proxy's requests, each recorded: what goes to 127.0.0.1 is forwarded (once every hold
 * matching its path is released) with its status noted; anything else is refused.
 */
function forwardLoopback(requests: SeenRequest[], holds: readonly Hold[]): http.RequestListener {
  return (request, response) => {
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      response.writeHead(400).end('absolute URL expected');
      return;
    }
    void readBody(request).then(async (body) => {
      const seen: SeenRequest = { method: request.method ?? 'GET', url: target.toString(), body: body.toString('utf8'), at: Date.now() };
      requests.push(seen);
      if (!LOOPBACK.has(target.hostname)) {
        seen.status = 403;
        response.writeHead(403, { 'content-type': 'text/plain' }).end('blocked by the e2e network');
        return;
      }
      for (const hold of holds) {
        if (hold.pattern.test(target.pathname)) {
          hold.count += 1;
          await hold.gate;
        }
      }
      const headers = { ...request.headers };
      delete headers['proxy-connection'];
      const upstream = http.request(
        { host: target.hostname, port: target.port, method: request.method, path: `${target.pathname}${target.search}`, headers },
        (answer) => {
          seen.status = answer.statusCode;
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => response.destroy());
      upstream.end(body);
    });
  };
}

/** CONNECT tunnels: to a fake host, into the TLS server on tlsPort; to any other host, refused and recorded. */
function tunnelToFakes(
  requests: SeenRequest[],
  tlsPort: number,
): (request: http.IncomingMessage, socket: net.Socket, head: Buffer) => void {
  return (request, socket, head) => {
    const [host = '', port = '443'] = (request.url ?? '').split(':');
    socket.on('error', () => socket.destroy());
    if (!(FAKE_HOSTS as readonly string[]).includes(host)) {
      requests.push({ method: 'CONNECT', url: `https://${host}:${port}/`, body: '', at: Date.now(), status: 403 });
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const inner = net.connect(tlsPort, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) inner.write(head);
      inner.pipe(socket);
      socket.pipe(inner);
    });
    inner.on('error', () => socket.destroy());
  };
}

export async function startNetwork(): Promise<Network> {
  const requests: SeenRequest[] = [];
  let options: NetworkOptions = { fakeRecaptcha: true, fakeGtag: true };
  const holds: Hold[] = [];

  // Requests the browser sent inside a CONNECT tunnel to a fake host.
  const fakeGoogle = await startFakeGoogle((url, method, body) => {
    const fake = fakeScriptFor(url, options);
    requests.push({ method, url, body, at: Date.now(), status: fake === undefined ? 404 : 200 });
    return fake;
  });

  const proxy = http.createServer(forwardLoopback(requests, holds));
  const onConnect = tunnelToFakes(requests, fakeGoogle.port);
  proxy.on('connect', onConnect);
  // The same proxy over TLS, for WebKitGTK: its WebDriver turns the sslProxy capability into an
  // https:// proxy address. It refuses this throwaway certificate (acceptInsecureCerts covers pages,
  // not the proxy), so its HTTPS requests fail here: nothing leaves, but nothing is faked either.
  const secureProxy = https.createServer(selfSignedCertificate());
  secureProxy.on('connect', onConnect);
  const sockets = new Set<net.Socket>();
  for (const server of [proxy, secureProxy]) {
    server.on('connection', (socket: net.Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
  }
  const proxyPort = await listen(proxy);
  const secureProxyPort = await listen(secureProxy);

  return {
    address: `127.0.0.1:${proxyPort}`,
    secureAddress: `127.0.0.1:${secureProxyPort}`,
    requests,
    reset(next = {}) {
      requests.length = 0;
      for (const hold of holds.splice(0)) hold.open();
      options = { fakeRecaptcha: true, fakeGtag: true, ...next };
    },
    hold(pattern) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const hold = { pattern, gate, count: 0, open: release };
      holds.push(hold);
      return {
        release: () => {
          const index = holds.indexOf(hold);
          if (index >= 0) holds.splice(index, 1);
          release();
        },
        held: () => hold.count,
      };
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => proxy.close(() => resolve())),
        fakeGoogle.stop(),
        new Promise<void>((resolve) => secureProxy.close(() => resolve())),
      ]);
    },
  };
}
