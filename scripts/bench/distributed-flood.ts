/**
 * The distributed flood of `npm run bench:api`: a stack as `npm start` runs it (guards and route throttle
 * on) takes five well-formed junk tokens (which the fake siteverify refuses) from each of many loopback
 * addresses (127.1.x.y: Linux routes all of 127/8 to the loopback interface, and the local stack counts
 * by the socket's address), spread over BENCH_DISTRIBUTED_SECONDS, with the handlers' clock on the first
 * day of a 30-day month. It prints the siteverify calls the flood cost against that day's portion of the
 * monthly budget, an honest visitor's answer the same day (503 once the portion is spent) and, with the
 * clock moved to the next UTC day, the visitor's answer and mail then.
 */
import { DEFAULT_CAPTCHA_MONTHLY_BUDGET } from '../../contract/limits';
import { budgetSoFar } from '../../functions/contact/limits';
import { fetchMails, startMailbox } from '../../infra/local/mailbox';
import { startLocalStack, type LocalStack } from '../../infra/local/stack';
import { REFUSED_TOKEN, startFakeSiteverify } from '../../tools/fake-siteverify';
import { postJson, statusCounts } from './shared';

const VALID = { fullName: 'Bench Tester', email: 'bench@example.com', message: 'A benchmark message.' };
const TOKENS_PER_ADDRESS = 5;
/** Requests in flight at once: enough to keep the route's throttle busy, few enough for one loopback. */
const CONCURRENCY = 50;

/** The i-th flooding address: 127.1.0.1, 127.1.0.2, … (never 127.0.0.x, the visitor's and the other runs'). */
const addressOf = (i: number) => `127.1.${Math.floor(i / 250)}.${(i % 250) + 1}`;

const postFrom = (url: URL, body: unknown, localAddress: string) => postJson(url, '/api/contact', JSON.stringify(body), { localAddress });

export async function distributedFlood(clientDir: string, addresses: number, seconds: number) {
  const verifier = await startFakeSiteverify('pass');
  const mailbox = await startMailbox('127.0.0.1', 0);
  // The first day of November 2026 (30 days): its portion is ceil(budget / 30).
  const day1 = Date.UTC(2026, 10, 1, 12);
  let offset = day1 - Date.now();
  let stack: LocalStack | undefined;
  try {
    stack = await startLocalStack({
      port: 0,
      sesEndpoint: mailbox.url,
      clientDir,
      recaptchaVerifyUrl: verifier.url,
      quiet: process.env.BENCH_DISTRIBUTED_LOGS !== '1',
      guards: { now: () => Date.now() + offset },
    });
    const url = new URL(stack.url);
    const total = addresses * TOKENS_PER_ADDRESS;
    const spacing = (seconds * 1000) / total;
    const started = performance.now();
    const statuses: number[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < total; i = next++) {
        const wait = started + i * spacing - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const body = { ...VALID, message: `Junk number ${i}`, 'g-recaptcha-response': REFUSED_TOKEN };
        statuses.push(await postFrom(url, body, addressOf(i % addresses)).catch(() => 0));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const elapsed = Math.round((performance.now() - started) / 100) / 10;
    const siteverifyCalls = verifier.calls.length;
    const visitor = (n: number) => ({ ...VALID, message: `Honest visitor ${n}`, 'g-recaptcha-response': `visitor-token-${n}` });
    // The route's throttle bucket, emptied by the flood, refills (20 tokens at 10 a second) before the visitor sends.
    const refill = () => new Promise((resolve) => setTimeout(resolve, 2_500));
    await refill();
    const visitorSameDay = await postFrom(url, visitor(1), '127.0.0.2');
    offset += 24 * 60 * 60 * 1000; // the next UTC day
    await refill();
    const visitorNextDay = await postFrom(url, visitor(2), '127.0.0.2');
    const visitorNextDayMails = (await fetchMails(mailbox.url)).filter((mail) => JSON.stringify(mail).includes('Honest visitor 2')).length;
    const dayPortion = budgetSoFar(DEFAULT_CAPTCHA_MONTHLY_BUDGET, day1);
    return {
      addresses,
      requests: total,
      seconds: elapsed,
      statuses: statusCounts(statuses),
      siteverifyCalls,
      dayPortion,
      visitorSameDay,
      visitorNextDay,
      visitorNextDayMails,
      ok: siteverifyCalls <= dayPortion && visitorNextDay === 200 && visitorNextDayMails === 1,
    };
  } finally {
    await stack?.stop();
    await Promise.all([verifier.stop(), mailbox.stop()]);
  }
}
