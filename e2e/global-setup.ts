import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';
import { startFakeSiteverify } from '../tools/fake-siteverify';

/** The GA id `npm test` builds with (package.json "build:test"). */
export const TEST_GA_MEASUREMENT_ID = 'G-TEST000000';
/** The secret the local stack is told to send to the fake verifier. */
export const E2E_RECAPTCHA_SECRET = 'e2e-recaptcha-secret';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The local stack's origin, e.g. http://127.0.0.1:43123 (no trailing slash). */
    baseUrl: string;
    /** aws-ses-v2-local's origin; its mails are listed at GET /store. */
    sesUrl: string;
    /** Lists the calls the fake siteverify received. */
    siteverifyCallsUrl: string;
    /** The reCAPTCHA secret the stack was started with. */
    recaptchaSecret: string;
    /** Whether web/build was built with VITE_GA_MEASUREMENT_ID=G-TEST000000. */
    gaConfigured: boolean;
    /** The client directory of the build under test (its prerendered pages and assets). */
    clientDir: string;
    /** Where the stack appends the page views it received (one JSON line each, as `npm start` does). */
    pageViewsFile: string;
  }
}

/**
 * The build under test: web/build by default. E2E_BUILD_DIR points at a copy instead, so a run is
 * not disturbed when someone rebuilds web/build meanwhile (hashed asset names change).
 */
const BUILD_DIR = process.env.E2E_BUILD_DIR ? resolve(process.env.E2E_BUILD_DIR) : join(process.cwd(), 'web', 'build');
const CLIENT_DIR = join(BUILD_DIR, 'client');

/** True when some built script inlines the test measurement id, i.e. analytics are configured. */
function buildHasTestGaId(): boolean {
  const assets = join(CLIENT_DIR, 'assets');
  if (!existsSync(assets)) return false;
  return readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .some((file) => readFileSync(join(assets, file), 'utf8').includes(TEST_GA_MEASUREMENT_ID));
}

/**
 * Starts what the browser tests drive: a fake reCAPTCHA verifier on 127.0.0.1, then the local stack
 * (the production build behind the CDN stand-in, the real handlers, aws-ses-v2-local) on ephemeral
 * ports. It serves the existing web/build: `npm test` builds first; this never builds.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(join(CLIENT_DIR, 'home', 'index.html'))) {
    throw new Error(
      `No production build at ${CLIENT_DIR} (home/index.html is missing). ` +
        'Build first: `npm run build:test` (or `npm test`, which builds before running the tests).',
    );
  }
  const siteverify = await startFakeSiteverify();
  const pageViewsFile = join(mkdtempSync(join(tmpdir(), 'portfolio-e2e-')), 'page-views.jsonl');
  let stack: { url: string; sesUrl: string; process: ChildProcess };
  try {
    stack = await startStackProcess({
      E2E_VERIFY_URL: siteverify.url,
      E2E_RECAPTCHA_SECRET,
      E2E_CLIENT_DIR: CLIENT_DIR,
      E2E_PAGE_VIEWS_FILE: pageViewsFile,
    });
  } catch (error) {
    await siteverify.stop();
    rmSync(dirname(pageViewsFile), { recursive: true, force: true });
    throw error;
  }
  project.provide('baseUrl', stack.url.replace(/\/+$/, ''));
  project.provide('sesUrl', stack.sesUrl.replace(/\/+$/, ''));
  project.provide('siteverifyCallsUrl', siteverify.callsUrl);
  project.provide('recaptchaSecret', E2E_RECAPTCHA_SECRET);
  project.provide('gaConfigured', buildHasTestGaId());
  project.provide('clientDir', CLIENT_DIR);
  project.provide('pageViewsFile', pageViewsFile);

  return async () => {
    stack.process.kill('SIGTERM');
    if (stack.process.exitCode === null) await once(stack.process, 'exit');
    await siteverify.stop();
    rmSync(dirname(pageViewsFile), { recursive: true, force: true });
  };
}

/** Starts e2e/support/local-stack-process.ts and waits for the line with its addresses. */
async function startStackProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'support', 'local-stack-process.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`The local stack process exited early (code ${String(code)}); its errors are printed above.`);
  });
  const firstLine = (async () => {
    for await (const line of createInterface({ input: child.stdout })) {
      const parsed = JSON.parse(line) as { url: string; sesUrl: string };
      child.stdout.resume(); // whatever it prints later must not fill the pipe and block it
      return { ...parsed, process: child };
    }
    throw new Error('The local stack process printed nothing.');
  })();
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('The local stack did not start within 60 s.')), 60_000).unref(),
  );
  try {
    return await Promise.race([firstLine, exited, timeout]);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
}
