/**
 * `npm run bench:flood`: the flood budgets, through the stack `npm start` runs (the edge's rate rule, the
 * route throttles, the per-address shares, the breakers and their day counters), printed, not timed:
 *
 * 1. One address (127.2.0.1) sends FLOOD_REQUESTS junk contact requests and as many beacons per route in
 *    one UTC day, as fast as CONCURRENCY connections go; then a visitor on another address (127.0.0.2)
 *    sends 3 messages and 3 page views. Budget: 3 of 3 sent and mailed, 3 of 3 page views recorded, no
 *    breaker tripped. Run twice: with the edge's rule (as in production), and without it (as if the WAF
 *    let everything through), so the breakers and shares alone are seen to hold.
 * 2. 400 addresses send 5 junk contact requests each (distributed-flood.ts). Budget: siteverify asked at
 *    most the day's portion of the month's budget.
 * 3. The cost model's worst month on the default plan. Budget: at most $10 more than a quiet month,
 *    CloudFront included.
 *
 * Linux routes all of 127/8 to the loopback interface, and the local stack counts by the socket's
 * address, so each 127.x.y.z is a viewer address of its own. Exits 1 when a budget is missed.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_CLOUDFRONT_PLAN } from '../../contract/cloudfront-plans';
import { FLOOD_CEILING_USD, planMonths } from '../../contract/cost-model';
import { fetchMails, startMailbox } from '../../infra/local/mailbox';
import { startLocalStack } from '../../infra/local/stack';
import { fixtureBuild } from '../../infra/local/test-support';
import { createLocalBreaker } from '../../functions/breaker/local';
import { REFUSED_TOKEN, startFakeSiteverify } from '../../tools/fake-siteverify';
import { distributedFlood } from './distributed-flood';
import { usd } from './cost-tables';
import { postJson, runMain, statusCounts } from './shared';

const FLOOD_REQUESTS = 10_000;
const CONCURRENCY = 32;
const FLOODER = '127.2.0.1';
const VISITOR = '127.0.0.2';
const DISTRIBUTED_ADDRESSES = 400;
const DISTRIBUTED_SECONDS = Number(process.env.BENCH_FLOOD_DISTRIBUTED_SECONDS ?? 120);

/** One POST from `localAddress`: its status, 0 when the connection failed. */
const post = (url: URL, route: string, body: string, localAddress: string) => postJson(url, route, body, { localAddress }).catch(() => 0);

/** `total` requests from `localAddress` over CONCURRENCY connections; the answers' statuses counted. */
async function blast(url: URL, route: string, body: (i: number) => string, total: number, localAddress: string): Promise<string> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < total; i = next++) statuses.push(await post(url, route, body(i), localAddress));
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return statusCounts(statuses);
}

const VIEW = { route: '/projects/:projectId', lang: 'en', device: 'desktop', nav: 'client', inp: 40 };

async function oneAddress(clientDir: string, buildDir: string, edge: boolean) {
  const verifier = await startFakeSiteverify('pass');
  const mailbox = await startMailbox('127.0.0.1', 0);
  const pageViewsFile = path.join(buildDir, `page-views-${edge ? 'edge' : 'no-edge'}.jsonl`);
  rmSync(pageViewsFile, { force: true });
  const tripped: string[] = [];
  const breaker = createLocalBreaker({ onTrip: (message) => tripped.push(message) });
  const stack = await startLocalStack({
    port: 0,
    sesEndpoint: mailbox.url,
    clientDir,
    recaptchaVerifyUrl: verifier.url,
    quiet: true,
    redeliveryIntervalMs: 60_000,
    pageViewsFile,
    breaker,
    ...(edge ? {} : { edgeRateRule: false as const }),
  });
  try {
    const url = new URL(stack.url);
    const started = performance.now();
    // Junk of every kind: malformed bodies, refused tokens, then well-formed messages with junk tokens.
    const junk = (i: number) =>
      i % 3 === 0
        ? '{"fullName":'
        : JSON.stringify({
            fullName: 'Flood Bot',
            email: 'bot@example.com',
            message: `Junk number ${i}`,
            'g-recaptcha-response': i % 3 === 1 ? 'junk token!' : REFUSED_TOKEN,
          });
    const contact = await blast(url, '/api/contact', junk, FLOOD_REQUESTS, FLOODER);
    const events = await blast(
      url,
      '/api/events',
      (i) => JSON.stringify({ name: i % 2 ? 'NAV_HOME' : 'not a name!' }),
      FLOOD_REQUESTS,
      FLOODER,
    );
    const vitals = await blast(url, '/api/vitals', () => JSON.stringify(VIEW), FLOOD_REQUESTS, FLOODER);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const viewsBefore = readLines(pageViewsFile);
    // The routes' shared buckets refill before the visitor comes (the contact route's burst is 10).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const visitorMessages: number[] = [];
    for (let n = 1; n <= 3; n++) {
      const body = JSON.stringify({
        fullName: 'Honest Visitor',
        email: 'visitor@example.org',
        message: `Honest message ${n} ${edge}`,
        'g-recaptcha-response': `visitor-${n}`,
      });
      visitorMessages.push(await post(url, '/api/contact', body, VISITOR));
    }
    const views = [];
    for (let n = 1; n <= 3; n++) views.push(await post(url, '/api/vitals', JSON.stringify(VIEW), VISITOR));
    const visitorViews = readLines(pageViewsFile) - viewsBefore;
    const mails = await fetchMails(mailbox.url);
    const visitorMails = [1, 2, 3].filter(
      (n) => mails.filter((mail) => JSON.stringify(mail).includes(`Honest message ${n} ${edge}`)).length === 1,
    ).length;
    return {
      edge,
      seconds,
      contact,
      events,
      vitals,
      tripped,
      visitorMessages,
      visitorMails,
      visitorViews: views.every((s) => s === 204) ? visitorViews : 0,
      ok: visitorMessages.every((s) => s === 200) && visitorMails === 3 && visitorViews === 3 && tripped.length === 0,
    };
  } finally {
    await stack.stop();
    await Promise.all([verifier.stop(), mailbox.stop()]);
  }
}

function readLines(file: string): number {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

async function main(): Promise<number> {
  const { buildDir, clientDir } = fixtureBuild();
  let ok = true;
  try {
    console.log(
      `One address (${FLOODER}) sends ${FLOOD_REQUESTS.toLocaleString('en-US')} junk contact requests and as many beacons per route, then a visitor (${VISITOR}) sends 3 messages and 3 page views:`,
    );
    for (const edge of [true, false]) {
      const f = await oneAddress(clientDir, buildDir, edge);
      ok &&= f.ok;
      console.log(`  ${edge ? "with the edge's rate rule (production)" : 'without it (the breakers and shares alone)'}: ${f.seconds} s`);
      console.log(`    flood answers: contact ${f.contact}; events ${f.events}; vitals ${f.vitals}`);
      console.log(`    breakers tripped: ${f.tripped.length === 0 ? 'none' : f.tripped.join(' | ')}`);
      console.log(
        `    visitor: messages ${f.visitorMessages.join(', ')} (${f.visitorMails} of 3 mailed once), page views recorded ${f.visitorViews} of 3  ${f.ok ? 'ok' : 'MISSED'}`,
      );
    }

    const d = await distributedFlood(clientDir, DISTRIBUTED_ADDRESSES, DISTRIBUTED_SECONDS);
    const dOk = d.siteverifyCalls <= d.dayPortion;
    ok &&= dOk;
    console.log(
      `\n${d.addresses} addresses × 5 junk contact requests over ${d.seconds} s: ${d.statuses}; siteverify asked ${d.siteverifyCalls} times, ` +
        `the day's portion is ${d.dayPortion}  ${dOk ? 'ok' : 'MISSED'}; a visitor the same day ${d.visitorSameDay}, the next day ${d.visitorNextDay} (${d.visitorNextDayMails} mail)`,
    );

    const m = planMonths(DEFAULT_CLOUDFRONT_PLAN);
    const mOk = m.worst - m.quiet <= FLOOD_CEILING_USD && m.cloudFront.capped;
    ok &&= mOk;
    console.log(
      `\nThe worst month on the default plan (${m.label}, the cost model): quiet ${usd(m.quiet)}, worst ${usd(m.worst)}: ` +
        `${usd(m.worst - m.quiet)} more, CloudFront included (ceiling ${usd(FLOOD_CEILING_USD)})  ${mOk ? 'ok' : 'MISSED'}`,
    );
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
  return ok ? 0 : 1;
}

runMain(main);
