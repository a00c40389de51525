/**
 * A stand-in for reCAPTCHA's siteverify on 127.0.0.1, for tests, benchmarks and the offline
 * walk-through: it answers as Google does, success true or false, and records what it was asked.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import getRawBody from 'raw-body';

/** In 'pass' mode this one token is still refused, as Google refuses a forged or spent token. */
export const REFUSED_TOKEN = 'refused-token';

/** 'pass': success (but for REFUSED_TOKEN or a missing secret or token); 'refuse': every token fails. */
export type SiteverifyMode = 'pass' | 'refuse';

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
  const calls: SiteverifyCall[] = [];
  const server = createServer(async (req, res) => {
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    if (req.method === 'GET' && req.url === '/calls') return json(calls);
    const form = new URLSearchParams(await getRawBody(req, 'utf8'));
    const call = { secret: form.get('secret'), response: form.get('response'), remoteip: form.get('remoteip') };
    calls.push(call);
    const errors = [
      ...(call.secret ? [] : ['missing-input-secret']),
      ...(!call.response
        ? ['missing-input-response']
        : fake.mode === 'refuse' || call.response === REFUSED_TOKEN
          ? ['invalid-input-response']
          : []),
    ];
    json(
      errors.length > 0
        ? { success: false, 'error-codes': errors }
        : { success: true, challenge_ts: new Date().toISOString(), hostname: '127.0.0.1' },
    );
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: FakeSiteverify = {
    url: `${origin}/recaptcha/api/siteverify`,
    callsUrl: `${origin}/calls`,
    calls,
    mode,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

/**
 * Run alone for an offline walk-through: `npx tsx tools/fake-siteverify.ts [pass|refuse] [port]`
 * prints the URL to pass as RECAPTCHA_VERIFY_URL to `npm start`.
 */
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // 8006 is the local message archive's default port.
  const [mode = 'pass', port = '8007'] = process.argv.slice(2);
  if ((mode !== 'pass' && mode !== 'refuse') || !/^\d+$/.test(port) || Number(port) > 65535) {
    console.error('usage: fake-siteverify.ts [pass|refuse] [port 0-65535]');
    process.exit(1);
  }
  const fake = await startFakeSiteverify(mode, Number(port));
  console.log(`Fake siteverify (${mode}): ${fake.url}`);
  const stop = () => void fake.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
