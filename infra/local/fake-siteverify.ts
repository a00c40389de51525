/**
 * A stand-in for reCAPTCHA's siteverify on 127.0.0.1, for tests and benchmarks: it answers as
 * Google does (success true/false) or fails in the ways the contact handler must survive.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** In 'pass' mode this one token is still refused, as Google refuses a forged or spent token. */
export const REFUSED_TOKEN = 'refused-token';

export type SiteverifyMode =
  /** success: true (but for REFUSED_TOKEN or a missing secret or token, as Google answers) */
  | 'pass'
  /** success: false with 'invalid-input-response', as for a forged or expired token */
  | 'refuse'
  /** accepts the request and never answers */
  | 'hang'
  /** HTTP 500 */
  | 'error'
  /** 200 with an HTML body */
  | 'not-json';

export interface SiteverifyCall {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}

export interface FakeSiteverify {
  /** The URL to use as RECAPTCHA_VERIFY_URL. */
  url: string;
  /** GET here lists the calls received so far as JSON, for tests in another process. */
  callsUrl: string;
  calls: SiteverifyCall[];
  mode: SiteverifyMode;
  stop(): Promise<void>;
}

export async function startFakeSiteverify(mode: SiteverifyMode = 'pass', port = 0): Promise<FakeSiteverify> {
  const hanging = new Set<ServerResponse>();
  const fake: FakeSiteverify = { url: '', callsUrl: '', calls: [], mode, stop: async () => undefined };
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/calls') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(fake.calls));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const call = { secret: form.get('secret'), response: form.get('response'), remoteip: form.get('remoteip') };
      fake.calls.push(call);
      const json = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(body));
      };
      switch (fake.mode) {
        case 'pass': {
          const errors = [
            ...(call.secret ? [] : ['missing-input-secret']),
            ...(!call.response ? ['missing-input-response'] : call.response === REFUSED_TOKEN ? ['invalid-input-response'] : []),
          ];
          return errors.length > 0
            ? json({ success: false, 'error-codes': errors })
            : json({ success: true, challenge_ts: new Date().toISOString(), hostname: '127.0.0.1' });
        }
        case 'refuse':
          return json({ success: false, 'error-codes': ['invalid-input-response'] });
        case 'hang':
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        case 'error':
          res.writeHead(500, { 'content-type': 'text/plain' });
          return res.end('Internal Server Error');
        case 'not-json':
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html><body>Not what you expected</body></html>');
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = `${origin}/recaptcha/api/siteverify`;
  fake.callsUrl = `${origin}/calls`;
  fake.stop = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return fake;
}

/**
 * Run alone for an offline walk-through: `npx tsx infra/local/fake-siteverify.ts [mode] [port]`
 * prints the URL to pass as RECAPTCHA_VERIFY_URL to `npm start`.
 */
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const modes: SiteverifyMode[] = ['pass', 'refuse', 'hang', 'error', 'not-json'];
  const mode = (process.argv[2] ?? 'pass') as SiteverifyMode;
  const port = Number(process.argv[3] ?? 8006);
  if (!modes.includes(mode) || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`usage: fake-siteverify.ts [${modes.join('|')}] [port 0-65535]`);
    process.exit(1);
  }
  startFakeSiteverify(mode, port).then(
    (fake) => {
      console.log(`Fake siteverify (${mode}): ${fake.url}`);
      const stop = () => void fake.stop().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    },
    (error: unknown) => {
      console.error(`fake siteverify failed: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
