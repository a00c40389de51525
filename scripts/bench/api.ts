/**
 * `npm run bench:api`: load on the local stack's API (the real handlers, a fake siteverify, dynalite
 * as the archive and the real aws-ses-v2-local, all on loopback). Prints requests/s and p50/p99
 * latency for valid and invalid contact requests and for events, then sends N numbered messages at
 * concurrency C three times: without the archive (the contact flow before it), with the archive,
 * and with the archive while SES fails a third of the sends at random; after the redelivery each
 * run must leave exactly N mails: each number once, none lost, none doubled, and with the archive
 * N archived messages. Prints each run's median and p95 answer time. The three runs are then made
 * again under a CPU load the benchmark starts itself (a busy-loop worker thread per core, stopped
 * at the end), beside the idle figures.
 *
 * These runs measure the handlers, so their stacks have no route throttle and no flood guards. Last,
 * the flood: a stack as `npm start` runs it (guards and throttle on) takes 240 junk requests from
 * 127.0.0.1 spread over BENCH_FLOOD_SECONDS (half with malformed tokens, half with well-formed ones
 * Google refuses) while a visitor on 127.0.0.2 sends 5 messages; it prints the siteverify calls
 * (budget: at most 30, none for a malformed token) and the visitor's answers and mails (5 of 5, each
 * mailed once). Then the distributed flood (scripts/bench/distributed-flood.ts): BENCH_DISTRIBUTED_ADDRESSES
 * addresses (2,000) send five junk tokens each over BENCH_DISTRIBUTED_SECONDS (900); the siteverify calls
 * must stay within the day's portion of the monthly budget and an honest visitor must be mailed the
 * next UTC day. BENCH_FLOODS_ONLY=1 runs the two floods alone; BENCH_DISTRIBUTED_LOGS=1 prints the
 * distributed flood's handler log lines (each answer's outcome).
 *
 * Settings (environment): BENCH_DURATION seconds per scenario (3), BENCH_CONNECTIONS (10),
 * BENCH_N (500), BENCH_C (25), BENCH_LOAD (1; 0 skips the runs under load), BENCH_FLOOD_SECONDS (60).
 * Exits 1 if a scenario sees errors, a mail count is off or the flood exceeds its budget.
 */
import { rmSync } from 'node:fs';
import { Agent } from 'node:http';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import autocannon, { type Result } from 'autocannon';
import { createDynamoClient } from '../../functions/archive/store';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../infra/local/archive';
import { REFUSED_TOKEN, startFakeSiteverify, type FakeSiteverify } from '../../tools/fake-siteverify';
import { startFlakySes } from '../../tools/flaky-ses';
import { clearMailbox, fetchMails, startMailbox } from '../../infra/local/mailbox';
import { startLocalStack, type LocalStack } from '../../infra/local/stack';
import { distributedFlood } from './distributed-flood';
import { fixtureBuild } from '../../infra/local/test-support';
import { postJson, runMain, saveFigures, statusCounts } from './shared';

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
const FLOOD_SECONDS = setting('BENCH_FLOOD_SECONDS', 60, 600);
const DISTRIBUTED_ADDRESSES = setting('BENCH_DISTRIBUTED_ADDRESSES', 2000, 60_000);
const DISTRIBUTED_SECONDS = setting('BENCH_DISTRIBUTED_SECONDS', 900, 3600);
const FLOODS_ONLY = process.env.BENCH_FLOODS_ONLY?.trim() === '1';

/** BENCH_LOAD=0 skips the exactly-once runs under CPU load (a busy-loop worker per core). */
const LOAD = process.env.BENCH_LOAD?.trim() !== '0';
/** The CPU load stops by itself after this long, whatever happens to the benchmark. */
const LOAD_MAX_MS = 10 * 60_000;

const JSON_HEADERS = { 'content-type': 'application/json' };
const VALID = { fullName: 'Bench Tester', email: 'bench@example.com', message: 'A benchmark message.', 'g-recaptcha-response': 'token' };

/** One scenario's figures: its answers by status, throughput, latency, and the failed or unexpected answers. */
function row(scenario: string, result: Result, expected: number) {
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

/** Both floods, printed: one address, then many (scripts/bench/distributed-flood.ts). */
async function floods(clientDir: string) {
  const floodFigures = await flood(clientDir);
  console.log(
    `\nFlood: ${floodFigures.junk} junk requests from 127.0.0.1 in ${floodFigures.seconds} s (${floodFigures.floodStatuses}); ` +
      `siteverify calls for the flood ${floodFigures.siteverifyCalls} (budget ≤ ${FLOOD_MAX_SITEVERIFY}), for malformed tokens ${floodFigures.malformedCalls} (budget 0); ` +
      `visitor on 127.0.0.2: ${floodFigures.visitorOk} of ${floodFigures.visitorSent} answered 200, mails ${floodFigures.visitorMails.join('/')} ` +
      `(each once) → ${floodFigures.ok ? 'OK' : 'FAILED'}`,
  );
  const d = await distributedFlood(clientDir, DISTRIBUTED_ADDRESSES, DISTRIBUTED_SECONDS);
  console.log(
    `Distributed flood: ${d.addresses} addresses × 5 junk tokens = ${d.requests} requests in ${d.seconds} s (${d.statuses}); ` +
      `siteverify calls ${d.siteverifyCalls} (budget ≤ the day's portion, ${d.dayPortion}); honest visitor the same day: ${d.visitorSameDay}, ` +
      `the next UTC day: ${d.visitorNextDay}, mailed ${d.visitorNextDayMails} (once) → ${d.ok ? 'OK' : 'FAILED'}`,
  );
  return { floodFigures, distributed: d, ok: floodFigures.ok && d.ok };
}

/** BENCH_FLOODS_ONLY=1: only the two floods (minutes, not the throughput and exactly-once runs). */
async function floodsOnly(): Promise<number> {
  const { buildDir, clientDir } = fixtureBuild();
  try {
    const { floodFigures, distributed, ok } = await floods(clientDir);
    saveFigures('api-floods.json', { at: new Date().toISOString(), flood: floodFigures, distributed });
    return ok ? 0 : 1;
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  if (FLOODS_ONLY) return floodsOnly();
  const verifier = await startFakeSiteverify('pass');
  const { buildDir, clientDir } = fixtureBuild();
  const stack = await startLocalStack({
    port: 0,
    sesPort: 0,
    clientDir,
    recaptchaVerifyUrl: verifier.url,
    quiet: true,
    // Throughput of the handlers themselves: one loopback address at full speed would otherwise meet 429s.
    floodGuards: false,
    routeThrottle: false,
  });
  let failed = false;
  try {
    console.log(
      `bench:api on ${os.cpus().length} CPU(s), Node ${process.version}: ${DURATION} s per scenario, ${CONNECTIONS} connections, loopback only\n`,
    );
    const scenarios: [string, string, unknown, number][] = [
      ['contact, valid (siteverify + archive + SES mail)', '/api/contact', VALID, 200],
      ['contact, invalid name (400, no mail)', '/api/contact', { ...VALID, fullName: 'Nobody' }, 400],
      ['events, valid name (204)', '/api/events', { name: 'HOME_EXPLORE_PROJECTS_CLICK' }, 204],
      ['events, invalid name (400)', '/api/events', { name: 'not valid' }, 400],
    ];
    const rows: ReturnType<typeof row>[] = [];
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

    const runs: ExactlyOnce[] = [];
    const kinds = [
      { name: 'without the archive (before it), SES healthy', archive: false, failShare: 0 },
      { name: 'with the archive, SES healthy', archive: true, failShare: 0 },
      { name: 'with the archive, SES failing 1/3 at random', archive: true, failShare: 1 / 3 },
    ];
    for (const loaded of LOAD ? [false, true] : [false]) {
      const load = loaded ? startCpuLoad(os.cpus().length) : undefined;
      try {
        for (const run of kinds) {
          const result = await exactlyOnce(`${run.name}${loaded ? ', CPU load' : ''}`, run.archive, run.failShare, clientDir, verifier);
          runs.push({ ...result, loadAverage: Math.round(os.loadavg()[0]! * 10) / 10 });
          if (!result.exact) failed = true;
        }
      } finally {
        await load?.stop();
      }
    }
    console.table(
      runs.map((r) => ({
        run: r.name,
        'load avg': r.loadAverage,
        'p50 ms': r.p50,
        'p95 ms': r.p95,
        '200s': r.ok200,
        'other answers': r.others || '-',
        'SES failures': r.sesFailures,
        archived: r.archived ?? '-',
        'redelivery runs': r.redeliveryRuns,
        'held (no SES answer)': r.held,
        mails: r.mails,
        lost: r.lost,
        doubled: r.doubled,
        ok: r.exact ? 'OK' : 'FAILED',
      })),
    );

    const { floodFigures, distributed, ok } = await floods(clientDir);
    if (!ok) failed = true;

    saveFigures('api.json', {
      at: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      duration: DURATION,
      connections: CONNECTIONS,
      rows,
      exactlyOnce: { n: N, c: C, runs },
      flood: floodFigures,
      distributed,
    });
    console.log('Figures saved to .bench/api.json');
  } finally {
    await stack.stop();
    await verifier.stop();
    rmSync(buildDir, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

/**
 * A busy loop on every core: one worker thread each, spinning until stopped (at most LOAD_MAX_MS), so
 * the stack's handlers, dynalite and the SES emulator compete for the CPU as on a busy machine.
 */
function startCpuLoad(workers: number): { stop(): Promise<void> } {
  const code = `const { workerData } = require('node:worker_threads');
const end = Date.now() + workerData.maxMs;
let x = 0;
while (Date.now() < end) x = (x + Math.sqrt(x + 1)) % 1e9;`;
  const threads = Array.from({ length: workers }, () => new Worker(code, { eval: true, workerData: { maxMs: LOAD_MAX_MS } }));
  return { stop: () => Promise.all(threads.map((thread) => thread.terminate())).then(() => undefined) };
}

interface ExactlyOnce {
  /** The 1-minute load average when the run ended. */
  loadAverage?: number;
  name: string;
  seconds: number;
  p50: number;
  p95: number;
  ok200: number;
  /** The answers other than 200, by status ("504×3"). */
  others: string;
  sesFailures: number;
  archived: number | undefined;
  redeliveryRuns: number;
  /** Still pending after the redelivery: SES gave no answer, so they wait for its events (none locally). */
  held: number;
  mails: number;
  lost: number;
  doubled: number;
  exact: boolean;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** N numbered messages from C concurrent senders, each posted once; then the redelivery until nothing is pending. */
async function exactlyOnce(
  name: string,
  archive: boolean,
  failShare: number,
  clientDir: string,
  verifier: FakeSiteverify,
): Promise<ExactlyOnce> {
  const mailbox = await startMailbox('127.0.0.1', 0);
  const ses = await startFlakySes(mailbox.url, () => (Math.random() < failShare ? 'ServiceUnavailable' : 'pass'));
  let stack: LocalStack | undefined;
  try {
    stack = await startLocalStack({
      port: 0,
      sesEndpoint: ses.url,
      clientDir,
      recaptchaVerifyUrl: verifier.url,
      quiet: true,
      archive,
      floodGuards: false, // N messages from one loopback address: the guards are the flood run's subject
      routeThrottle: false,
      redeliveryIntervalMs: 3_600_000, // run by hand below, so the figures are the contact answers alone
    });
    const base = new URL(stack.url);
    const agent = new Agent({ keepAlive: true, maxSockets: C });
    const statuses: number[] = [];
    const okNumbers: number[] = [];
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: C }, async () => {
        while (next < N) {
          const i = next++;
          const t0 = performance.now();
          const status = await postJson(base, '/api/contact', JSON.stringify({ ...VALID, message: `Bench message #${i} of ${N}` }), {
            agent,
          });
          statuses.push(status);
          if (status === 200) okNumbers.push(i);
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    agent.destroy();
    const sesFailures = ses.failed;
    let redeliveryRuns = 0;
    if (archive) {
      // Until nothing is pending but messages SES never answered for (held for SES's events).
      for (let failedRuns = 0; redeliveryRuns < 200 && failedRuns < 20;) {
        const report = await stack.redeliver();
        if (!report) {
          failedRuns += 1;
          continue;
        }
        redeliveryRuns += 1;
        if (report.pending === report.skipped) break;
      }
    }
    let archived: number | undefined;
    const held = new Set<number>();
    if (stack.archive) {
      const client = createDynamoClient({ endpoint: stack.archive.url, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
      const doc = DynamoDBDocumentClient.from(client);
      archived = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await doc.send(new ScanCommand({ TableName: stack.archive.table, ExclusiveStartKey: start }));
        archived += page.Items?.length ?? 0;
        for (const item of page.Items ?? []) {
          if (item.status === 'pending') held.add(Number(/#(\d+) of/.exec(String(item.message))?.[1] ?? -1));
        }
        start = page.LastEvaluatedKey;
      } while (start);
      client.destroy();
    }
    const mails = await fetchMails(mailbox.url);
    const numbers = mails.map((m) => Number(/#(\d+) of/.exec(m.body.text ?? '')?.[1] ?? -1));
    const distinct = new Set(numbers);
    const ok200 = statuses.filter((s) => s === 200).length;
    const others = statusCounts(statuses.filter((s) => s !== 200));
    // Lost: answered 200, yet neither mailed nor waiting in the archive.
    const lost = okNumbers.filter((i) => !distinct.has(i) && !held.has(i)).length;
    const doubled = numbers.length - distinct.size;
    const sorted = [...latencies].sort((a, b) => a - b);
    const exact = lost === 0 && doubled === 0 && (ok200 < N || mails.length + held.size === N);
    return {
      name,
      seconds,
      p50: Math.round(percentile(sorted, 50) * 10) / 10,
      p95: Math.round(percentile(sorted, 95) * 10) / 10,
      ok200,
      others,
      sesFailures,
      archived,
      redeliveryRuns,
      held: held.size,
      mails: mails.length,
      lost,
      doubled,
      exact,
    };
  } finally {
    await stack?.stop();
    await Promise.all([ses.stop(), mailbox.stop()]);
  }
}

const FLOOD_JUNK = 240;
const FLOOD_MAX_SITEVERIFY = 30;
const VISITOR_MESSAGES = 5;

/** The flood against a stack as `npm start` runs it: guards and route throttle on, a fresh siteverify counting its calls. */
async function flood(clientDir: string) {
  const verifier = await startFakeSiteverify('pass');
  const mailbox = await startMailbox('127.0.0.1', 0);
  let stack: LocalStack | undefined;
  try {
    // Guards, throttle, the edge's rule and the breakers as npm start runs them: the flooding address
    // counts only its own share toward the contact breaker, so the breaker stays open for the visitor.
    stack = await startLocalStack({ port: 0, sesEndpoint: mailbox.url, clientDir, recaptchaVerifyUrl: verifier.url, quiet: true });
    const url = new URL(stack.url);
    const postFrom = (body: unknown, localAddress: string) => postJson(url, '/api/contact', JSON.stringify(body), { localAddress });
    const spacing = (FLOOD_SECONDS * 1000) / FLOOD_JUNK;
    const started = performance.now();
    const at = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, started + ms - performance.now())));
    const floodStatuses: number[] = [];
    const junk = Promise.all(
      Array.from({ length: FLOOD_JUNK }, async (_, i) => {
        await at(i * spacing);
        // Half cannot be reCAPTCHA tokens; half look like one but Google (the fake) refuses them.
        const token = i % 2 === 0 ? `junk token ${i}!` : REFUSED_TOKEN;
        floodStatuses.push(await postFrom({ ...VALID, message: `Junk number ${i}`, 'g-recaptcha-response': token }, '127.0.0.1'));
      }),
    );
    const visitorStatuses: number[] = [];
    const visitor = Promise.all(
      Array.from({ length: VISITOR_MESSAGES }, async (_, i) => {
        await at(((i + 0.5) * FLOOD_SECONDS * 1000) / VISITOR_MESSAGES);
        const body = { ...VALID, message: `Visitor message number ${i}`, 'g-recaptcha-response': `visitor-token-${i}` };
        visitorStatuses.push(await postFrom(body, '127.0.0.2'));
      }),
    );
    await Promise.all([junk, visitor]);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const mails = await fetchMails(mailbox.url);
    const visitorMails = Array.from(
      { length: VISITOR_MESSAGES },
      (_, i) => mails.filter((mail) => JSON.stringify(mail).includes(`Visitor message number ${i}`)).length,
    );
    // The flood's calls alone: the visitor's tokens are known.
    const siteverifyCalls = verifier.calls.filter((call) => !(call.response ?? '').startsWith('visitor-token-')).length;
    const malformedCalls = verifier.calls.filter((call) => !/^[A-Za-z0-9_-]+$/.test(call.response ?? '')).length;
    const visitorOk = visitorStatuses.filter((status) => status === 200).length;
    return {
      seconds,
      junk: FLOOD_JUNK,
      floodStatuses: statusCounts(floodStatuses),
      siteverifyCalls,
      malformedCalls,
      visitorSent: VISITOR_MESSAGES,
      visitorOk,
      visitorMails,
      ok:
        siteverifyCalls <= FLOOD_MAX_SITEVERIFY &&
        malformedCalls === 0 &&
        visitorOk === VISITOR_MESSAGES &&
        visitorMails.every((count) => count === 1),
    };
  } finally {
    await stack?.stop();
    await Promise.all([verifier.stop(), mailbox.stop()]);
  }
}

runMain(main, 'bench:api failed');
