import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser, openSession, type Session, type SessionOptions } from './browser';

/**
 * The hooks every browser test file needs: one Chromium per file, a fresh context per test, and after
 * each test a health check (no page error, no unexpected console error) before the context closes.
 * `beforeLaunch` runs first, e.g. to refuse a build the file cannot test.
 */
export function useBrowserSessions(beforeLaunch?: () => void) {
  let browser: Browser | undefined;
  let session: Session | undefined;

  beforeAll(async () => {
    beforeLaunch?.();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    const current = session;
    session = undefined;
    if (!current) return;
    try {
      current.assertHealthy();
    } finally {
      await current.close();
    }
  });

  return {
    /** Opens this test's session (a new browser context and page). */
    async open(options: SessionOptions = {}): Promise<Session> {
      if (!browser) throw new Error('Chromium is not running: useBrowserSessions() registers its hooks at file level.');
      session = await openSession(browser, options);
      return session;
    },
    /** The session the current test opened. */
    get current(): Session {
      if (!session) throw new Error('No session is open in this test.');
      return session;
    },
  };
}
