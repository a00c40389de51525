/** `npm start` and `npm run dev` settings from environment variables, with clear errors for bad values. */
import path from 'node:path';
import type { LocalStackOptions } from './stack';
import { LOCAL_ARCHIVE_PORT } from '../../contract/archive';
import { DEFAULT_ARCHIVE_DIR, DEFAULT_PAGE_VIEWS_FILE } from '../shared/running-stack';

export function portFromEnv(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new Error(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  }
  return Number(raw);
}

/** An endpoint variable: an http(s) URL, or a clear error naming it. */
function endpointFromEnv(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  return raw;
}

/**
 * The stack settings both commands share: SES_PORT, ARCHIVE_PORT, ARCHIVE_DIR, PAGE_VIEWS_FILE, the AWS SDK's
 * AWS_ENDPOINT_URL_DYNAMODB and AWS_ENDPOINT_URL_SES (an outside server instead of our own),
 * RECAPTCHA_VERIFY_URL, RECAPTCHA_SECRET, OWNER_EMAIL, SENDER_EMAIL. The stack checks the values
 * with the Lambda's own rules and names any bad one.
 */
export function stackOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): LocalStackOptions {
  const text = (name: string) => env[name]?.trim() || undefined;
  return {
    sesPort: portFromEnv('SES_PORT', 8005, env),
    archivePort: portFromEnv('ARCHIVE_PORT', LOCAL_ARCHIVE_PORT, env),
    archiveDir: path.resolve(env.ARCHIVE_DIR?.trim() || DEFAULT_ARCHIVE_DIR),
    pageViewsFile: path.resolve(env.PAGE_VIEWS_FILE?.trim() || DEFAULT_PAGE_VIEWS_FILE),
    dynamoEndpoint: endpointFromEnv('AWS_ENDPOINT_URL_DYNAMODB', env),
    sesEndpoint: endpointFromEnv('AWS_ENDPOINT_URL_SES', env),
    recaptchaVerifyUrl: text('RECAPTCHA_VERIFY_URL'),
    recaptchaSecret: text('RECAPTCHA_SECRET'),
    ownerEmail: text('OWNER_EMAIL'),
    senderEmail: text('SENDER_EMAIL'),
  };
}

/** Stops the servers on SIGINT/SIGTERM, then exits; a second signal meets no handler and ends the process at once. */
export function stopOnSignals(stop: () => Promise<void>): void {
  const onSignal = (signal: NodeJS.Signals) => {
    console.log(`\n${signal}: stopping the local stack…`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

/**
 * The oldest Node this project runs on, as `engines` in package.json says (a test keeps the two equal):
 * Vite 8 needs `^20.19.0 || >=22.12.0` (vite.dev, "Getting Started", compatibility note), and Node 20
 * reached its end of life on 2026-04-30 (github.com/nodejs/Release, release schedule), so the floor is
 * the first Node 22 that Vite takes. Lambda runs nodejs24.x whatever the owner's machine has.
 */
export const NODE_FLOOR = '22.12.0';

function atLeast(version: string, floor: string): boolean {
  const parts = (v: string) =>
    v
      .replace(/^v/, '')
      .split('.')
      .map((part) => Number.parseInt(part, 10) || 0);
  const [a, b] = [parts(version), parts(floor)];
  for (let i = 0; i < 3; i += 1) {
    const [x, y] = [a[i] ?? 0, b[i] ?? 0];
    if (x !== y) return x > y;
  }
  return true;
}

/**
 * One line for an owner on a Node below the floor, naming it, in place of the AWS SDK's nine-line
 * warning about old Node (turned off with the variable the SDK team documents in its Node 20
 * end-of-support notice); nothing at or above the floor.
 */
export function nodeVersionNote(version: string = process.versions.node, env: NodeJS.ProcessEnv = process.env): string | undefined {
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  if (atLeast(version, NODE_FLOOR)) return undefined;
  return `Node ${version} is below this project's floor, Node ${NODE_FLOOR} (package.json "engines"): use Node 22 or 24 LTS.`;
}
