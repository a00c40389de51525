/**
 * `npm run bench:api`: load on the local stack's API (the real handlers, a fake siteverify and the
 * real aws-ses-v2-local, all on loopback). Prints requests/s and p50/p99 latency for valid and
 * invalid contact requests and for events, then sends N numbered messages at concurrency C and
 * proves exactly N mails arrived: each number once, none lost, none doubled.
 *
 * Settings (environment): BENCH_DURATION seconds per scenario (3), BENCH_CONNECTIONS (10),
 * BENCH_N (500), BENCH_C (25). Exits 1 if a scenario sees errors or the mail count is off.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import os from 'node:os';
import autocannon, { type Result } from 'autocannon';
import { startFakeSiteverify } from '../../infra/local/fake-siteverify';
import { clearMailbox, fetchMails } from '../../infra/local/mailbox';
import { startLocalStack } from '../../infra/local/stack';
import { fixtureBuild } from '../../infra/local/test-support';

function setting(name: string, fallback: number, max: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`${name} must be a whole number from 1 to ${max}, got "${raw}"`);
  }
  return value;
}

const DURATION = setting('BENCH_DURATION', 3, 60);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 10, 500);
const N = setting('BENCH_N', 500, 20_000);
const C = setting('BENCH_C', 25, 500);

const JSON_HEADERS = { 'content-type': 'application/json' };
const VALID = { fullName: 'Bench Tester', email: 'bench@example.com', message: 'A benchmark message.', 'g-recaptcha-response': 'token' };

interface Row {
  scenario: string;
  status: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function row(scenario: string, result: Result, expected: number): Row {
  const statuses = Object.entries(result.statusCodeStats)
    .map(([code, { count }]) => `${code}×${count}`)
    .join(' ');
  const unexpected = Object.entries(result.statusCodeStats)
    .filter(([code]) => Number(code) !== expected)
    .reduce((sum, [, { count }]) => sum + count, 0);
  return {
    scenario,
    status: statuses,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + unexpected,
  };
}

/** POSTs one body; resolves with the status. */
function post(agent: Agent, url: URL, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: 'POST', agent, headers: { ...JSON_HEADERS, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function main() {
  const verifier = await startFakeSiteverify('pass');
  const { buildDir, clientDir } = fixtureBuild();
  const stack = await startLocalStack({ port: 0, sesPort: 0, clientDir, recaptchaVerifyUrl: verifier.url, quiet: true });
  const base = new URL(stack.url);
  let failed = false;
  try {
    console.log(
      `bench:api on ${os.cpus().length} CPU(s), Node ${process.version}: ${DURATION} s per scenario, ${CONNECTIONS} connections, loopback only\n`,
    );
    const scenarios: [string, string, unknown, number][] = [
      ['contact, valid (siteverify + SES mail)', '/api/contact', VALID, 200],
      ['contact, invalid name (400, no mail)', '/api/contact', { ...VALID, fullName: 'Nobody' }, 400],
      ['events, valid name (204)', '/api/events', { name: 'HOME_EXPLORE_PROJECTS_CLICK' }, 204],
      ['events, invalid name (400)', '/api/events', { name: 'not valid' }, 400],
    ];
    const rows: Row[] = [];
    for (const [name, path, body, expected] of scenarios) {
      await clearMailbox(stack.sesUrl);
      const result = await autocannon({
        url: `${stack.url}${path}`,
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify(body),
        connections: CONNECTIONS,
        duration: DURATION,
      });
      rows.push(row(name, result, expected));
    }
    await clearMailbox(stack.sesUrl);
    console.table(rows.map((r) => ({ ...r, 'p50 ms': r.p50, 'p99 ms': r.p99 })).map(({ p50: _a, p99: _b, ...r }) => r));
    if (rows.some((r) => r.errors > 0)) {
      failed = true;
      console.error('Some requests failed or answered an unexpected status (see the status column).');
    }

    // Exactly N: numbered messages from C concurrent senders, each sent once, no retries.
    const agent = new Agent({ keepAlive: true, maxSockets: C });
    const statuses: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: C }, async () => {
        while (next < N) {
          const i = next++;
          statuses.push(await post(agent, base, '/api/contact', JSON.stringify({ ...VALID, message: `Bench message #${i} of ${N}` })));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    agent.destroy();
    const mails = await fetchMails(stack.sesUrl);
    const numbers = mails.map((m) => Number(/#(\d+) of/.exec(m.body.text ?? '')?.[1] ?? -1));
    const distinct = new Set(numbers);
    const ok200 = statuses.filter((s) => s === 200).length;
    const missing = Array.from({ length: N }, (_, i) => i).filter((i) => !distinct.has(i));
    const doubled = numbers.length - distinct.size;
    const exact = ok200 === N && mails.length === N && distinct.size === N && missing.length === 0 && doubled === 0;
    console.log(
      `\nExactly-once: ${N} messages at concurrency ${C} in ${seconds.toFixed(2)} s (${Math.round(N / seconds)} msg/s): ` +
        `${ok200} answered 200, ${mails.length} mails in the mailbox, ${distinct.size} distinct, ` +
        `${missing.length} lost, ${doubled} doubled → ${exact ? 'OK' : 'FAILED'}`,
    );
    if (!exact) failed = true;

    mkdirSync('.bench', { recursive: true });
    writeFileSync(
      '.bench/api.json',
      `${JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, duration: DURATION, connections: CONNECTIONS, rows, exactlyOnce: { n: N, c: C, seconds, ok200, mails: mails.length, distinct: distinct.size, lost: missing.length, doubled, exact } }, null, 2)}\n`,
    );
    console.log('Figures saved to .bench/api.json');
  } finally {
    await stack.stop();
    await verifier.stop();
    rmSync(buildDir, { recursive: true, force: true });
  }
  if (failed) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(`bench:api failed: ${(error as Error).message ?? String(error)}`);
  process.exit(1);
});
