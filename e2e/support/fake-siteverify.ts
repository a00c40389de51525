import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The token the fake verifier refuses; every other non-empty token passes. */
export const REFUSED_TOKEN = 'refused-token';

/** One siteverify call as the contact handler made it. */
export interface SiteverifyCall {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}

export interface FakeSiteverify {
  /** The URL to give the server as RECAPTCHA_VERIFY_URL. */
  verifyUrl: string;
  /** GET here lists every call received so far (JSON SiteverifyCall[]). */
  callsUrl: string;
  stop(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * A stand-in for https://www.google.com/recaptcha/api/siteverify on 127.0.0.1 (ephemeral port),
 * so the real contact handler runs its real verification step without leaving the machine.
 * It answers as Google does: form-encoded POST in, JSON {success, error-codes} out.
 */
export async function startFakeSiteverify(): Promise<FakeSiteverify> {
  const calls: SiteverifyCall[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method === 'GET' && url.pathname === '/calls') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(calls));
      return;
    }
    if (request.method !== 'POST' || url.pathname !== '/recaptcha/api/siteverify') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    readBody(request).then(
      (body) => {
        // Google accepts the parameters in the form body or the query string.
        const form = new URLSearchParams(body);
        const param = (name: string) => form.get(name) ?? url.searchParams.get(name);
        const call: SiteverifyCall = { secret: param('secret'), response: param('response'), remoteip: param('remoteip') };
        calls.push(call);
        const errors: string[] = [];
        if (!call.secret) errors.push('missing-input-secret');
        if (!call.response) errors.push('missing-input-response');
        else if (call.response === REFUSED_TOKEN) errors.push('invalid-input-response');
        const success = errors.length === 0;
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify(
            success
              ? { success, challenge_ts: new Date().toISOString(), hostname: '127.0.0.1' }
              : { success, 'error-codes': errors },
          ),
        );
      },
      () => response.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    verifyUrl: `${origin}/recaptcha/api/siteverify`,
    callsUrl: `${origin}/calls`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
