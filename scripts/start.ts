/**
 * `npm start` (after `npm run build`): the production build served the way CloudFront, S3 and API
 * Gateway serve it, with aws-ses-v2-local as the mailbox and dynalite as the message archive
 * (infra/local). Settings: PORT (8080), SES_PORT (8005), ARCHIVE_PORT (8006), ARCHIVE_DIR (.local/archive),
 * AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL_SES (an outside server instead), RECAPTCHA_VERIFY_URL, RECAPTCHA_SECRET (Google's public test secret), OWNER_EMAIL, SENDER_EMAIL,
 * CLIENT_DIR (another build's client directory; its parent must hold postbuild.json), LOCAL_CAPTCHA
 * (`fake`: the contact form works offline) and CAPTCHA_CHECK_URL (what the start-up check fetches).
 *
 * At start it checks, for at most CAPTCHA_CHECK_MS and beside the stack's own start, whether Google's
 * captcha script can be reached; when it cannot, the banner says how to send messages offline:
 * `LOCAL_CAPTCHA=fake npm start` gives every page the fake reCAPTCHA api.js the browser tests use
 * (tools/fake-recaptcha.ts) and the contact function a fake siteverify that passes every token
 * (tools/fake-siteverify.ts), so the form sends and the mail arrives without a network.
 *
 * It serves a copy of the last complete build (scripts/last-good-build.ts), so a build run meanwhile that
 * fails leaves the site as it was (and is reported once), and one that succeeds is served when complete.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeVersionNote, portFromEnv, stackOptionsFromEnv, stopOnSignals } from '../infra/local/env-options';
import { startLocalStack } from '../infra/local/stack';
import { loadConfigFromCdkJson } from '../infra/config/portfolio-config';
import type { BreakerRoute } from '../contract/breaker';
import { createLocalBreaker } from '../functions/breaker/local';
import { runningFileFor } from '../infra/shared/running-stack';
import { FAKE_RECAPTCHA_JS } from '../tools/fake-recaptcha';
import { WEB_BUILD_DIR } from '../infra/shared/build-output';
import { incompleteBuildNotice, serveLastGoodBuild, servedNotice } from './last-good-build';
import { SERVING_DIR } from './quiet-build';
import { startFakeSiteverify } from '../tools/fake-siteverify';

/**
 * The script react-google-recaptcha loads in the browser (Google's "reCAPTCHA v2" display page names it:
 * https://developers.google.com/recaptcha/docs/display); the contact function's siteverify is on the same host.
 */
export const CAPTCHA_CHECK_URL = 'https://www.google.com/recaptcha/api.js';
/** The check never holds the start up longer than this. */
export const CAPTCHA_CHECK_MS = 1_500;
export const OFFLINE_SWITCH = 'LOCAL_CAPTCHA=fake npm start';

/** Whether the URL answers at all within the time; never throws. */
export async function reachable(url: string, timeoutMs: number): Promise<boolean> {
  try {
    // Any answer will do: the host is there. (A HEAD of the script costs Google nothing.)
    await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    return true;
  } catch {
    return false;
  }
}

/** LOCAL_CAPTCHA: unset (Google's captcha) or `fake`; anything else is named. */
export function localCaptchaFromEnv(env: NodeJS.ProcessEnv): 'google' | 'fake' {
  const raw = env.LOCAL_CAPTCHA?.trim();
  if (!raw) return 'google';
  if (raw === 'fake') {
    if (env.RECAPTCHA_VERIFY_URL?.trim()) throw new Error('LOCAL_CAPTCHA=fake brings its own siteverify: unset RECAPTCHA_VERIFY_URL');
    return 'fake';
  }
  throw new Error(`LOCAL_CAPTCHA must be "fake" (or unset for Google's captcha), got "${raw}"`);
}

/** cdk.json's circuitBreaker numbers, as the stack deploys them; a cdk.json that does not parse is named. */
function circuitBreakerFromCdkJson(): Record<BreakerRoute, number> {
  try {
    return loadConfigFromCdkJson().circuitBreaker;
  } catch (error) {
    throw new Error(`the circuit breaker's numbers come from cdk.json: ${(error as Error).message}`);
  }
}

async function main() {
  const nodeNote = nodeVersionNote(); // before any AWS SDK client exists
  const options = stackOptionsFromEnv();
  const captcha = localCaptchaFromEnv(process.env);
  const port = portFromEnv('PORT', 8080);
  const checked =
    captcha === 'fake' ? Promise.resolve(true) : reachable(process.env.CAPTCHA_CHECK_URL?.trim() || CAPTCHA_CHECK_URL, CAPTCHA_CHECK_MS);
  const customClient = process.env.CLIENT_DIR?.trim() || undefined;
  const lastGood = customClient
    ? undefined
    : serveLastGoodBuild({
        buildDir: WEB_BUILD_DIR,
        servingDir: SERVING_DIR,
        onServed: (builtAt) => console.log(servedNotice(builtAt)),
        onIncomplete: (servedBuiltAt) => console.warn(incompleteBuildNotice(servedBuiltAt)),
      });
  const fake = captcha === 'fake' ? await startFakeSiteverify('pass') : undefined;
  const stack = await startLocalStack({
    ...options,
    port,
    // cdk.json's day numbers, as the stack deploys them; a trip is printed, as the owner is mailed on AWS.
    breaker: createLocalBreaker({ dailyRequests: circuitBreakerFromCdkJson(), onTrip: (message) => console.warn(message) }),
    clientDir: customClient ?? lastGood?.clientDir,
    ...(fake ? { recaptchaVerifyUrl: fake.url, pageScript: FAKE_RECAPTCHA_JS } : {}),
  }).catch(async (error: unknown) => {
    await fake?.stop();
    throw error;
  });
  stopOnSignals(() => {
    lastGood?.stop();
    return Promise.all([stack.stop(), fake?.stop()]).then(() => undefined);
  });
  const googleReachable = await checked;
  const { archive } = stack;
  const archiveAt = archive?.dataDir ? `data in ${archive.dataDir}` : 'outside server';
  const finder = archive?.dataDir
    ? `, which finds port ${new URL(archive.url).port} in ${path.relative(process.cwd(), runningFileFor(archive.dataDir))}`
    : '';
  const captchaLine = fake
    ? `local fake (LOCAL_CAPTCHA=fake): tick "I'm not a robot"; every token passes, nothing reaches Google`
    : `${options.recaptchaVerifyUrl ?? 'Google siteverify'} with ${options.recaptchaSecret ? 'RECAPTCHA_SECRET' : "Google's public test secret"}`;
  const offline = googleReachable
    ? ''
    : `\n  Offline:  Google's captcha cannot be reached, so the contact form cannot send: ${OFFLINE_SWITCH} uses a local fake captcha`;
  console.log(`
  Site:     ${stack.url}   (API on the same origin: POST /api/contact, POST /api/events)
  Mailbox:  ${stack.sesUrl}   (mails sent from the contact page; JSON at ${stack.sesUrl}/store)
  Archive:  ${archive?.url}   (table ${archive?.table}, ${archiveAt}; list it with npm run messages -- --local${finder})
  Captcha:  ${captchaLine}${offline}
${nodeNote ? `\n  ${nodeNote}\n` : ''}
  Press Ctrl-C to stop.
`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`npm start failed: ${(error as Error).message ?? String(error)}`);
    process.exit(1);
  });
}
