import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { baseUrl, blockTurnedOffFakes, launchBrowser, openSession, VIEWPORTS, type Session, type SessionOptions } from './browser';

/**
 * What a reused session does not change in place: its context's own settings and which fakes it
 * serves. The stored choices (consent, theme) and the emulated media are set again for each test.
 */
function contextKey(options: SessionOptions): string {
  const { viewport = 'desktop', fakeRecaptcha = true, fakeGtag = true, timezoneId = 'UTC', javaScriptEnabled = true } = options;
  return JSON.stringify([viewport, fakeRecaptcha, fakeGtag, timezoneId, javaScriptEnabled]);
}

/**
 * Puts a session's page back as openSession would have opened it with these options, but for its HTTP
 * cache and the document it shows until the test's first navigation: no other page, only the options'
 * routes, the emulated media and viewport, no cookie, and the site's storage holding only what the
 * options store. False when the page is not on the site's origin, whose storage is then out of reach.
 */
async function resetSession({ context, page }: Session, options: SessionOptions): Promise<boolean> {
  if (!page.url().startsWith(`${baseUrl()}/`)) return false;
  await Promise.all(context.pages().map((other) => (other === page ? undefined : other.close())));
  // The routes a test added go, and the blocks these options ask for are set again.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await blockTurnedOffFakes(page, options);
  await page.emulateMedia({
    media: null,
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: options.reducedMotion ?? 'no-preference',
  });
  const { viewport } = VIEWPORTS[options.viewport ?? 'desktop'];
  const size = page.viewportSize();
  if (size?.width !== viewport.width || size.height !== viewport.height) await page.setViewportSize(viewport);
  await context.clearCookies();
  const stored = { cookieConsent: options.consent ? 'true' : null, theme: options.storedTheme ?? null };
  await page.evaluate((entries) => {
    localStorage.clear();
    sessionStorage.clear();
    for (const [name, value] of entries) if (value !== null) localStorage.setItem(name, value);
  }, Object.entries(stored));
  return true;
}

/**
 * The hooks every browser test file needs: one Chromium per file, a fresh context per test (or one
 * reused by consecutive tests, see `reuse`), and after each test a health check (no page error, no
 * unexpected console error) before the context closes. `beforeLaunch` runs first, e.g. to refuse a
 * build the file cannot test.
 */
export function useBrowserSessions(beforeLaunch?: () => void) {
  let browser: Browser | undefined;
  let session: Session | undefined;
  let kept: { key: string; prepare?: (session: Session) => Promise<void>; session: Session } | undefined;

  async function closeKept(): Promise<void> {
    const closing = kept?.session;
    kept = undefined;
    await closing?.close();
  }

  beforeAll(async () => {
    beforeLaunch?.();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await closeKept();
    await browser?.close();
  });
  afterEach(async ({ task }) => {
    const current = session;
    session = undefined;
    if (!current) return;
    // A reused session stays open for the next test unless this one failed or was not healthy: its
    // page is then in no known state.
    let healthy = false;
    try {
      current.assertHealthy();
      healthy = true;
    } finally {
      if (current !== kept?.session) await current.close();
      else if (healthy && task.result?.state !== 'fail') current.forgetRecords();
      else await closeKept();
    }
  });

  /** Opens this test's session (a new browser context and page). */
  async function open(options: SessionOptions = {}): Promise<Session> {
    if (!browser) throw new Error('Chromium is not running: useBrowserSessions() registers its hooks at file level.');
    await closeKept();
    session = await openSession(browser, options);
    return session;
  }

  return {
    open,
    /**
     * This test's session: the previous test's, when that one came from `reuse` with the same context
     * settings and the same `prepare`, reset as `resetSession` says (its warm HTTP cache and its last
     * document remain, so the test navigates first); otherwise a new one, kept for the next test. For
     * tests that need no cold cache or first visit, and leave nothing a reset does not take away (init
     * scripts, CDP listeners, a fixed clock that the next test does not set again): `prepare` adds
     * such things once, to a new session, for every test that reuses it.
     */
    async reuse(options: SessionOptions = {}, prepare?: (session: Session) => Promise<void>): Promise<Session> {
      const key = contextKey(options);
      if (kept?.key === key && kept.prepare === prepare && (await resetSession(kept.session, options))) {
        session = kept.session;
        return session;
      }
      const opened = await open(options);
      await prepare?.(opened);
      kept = { key, prepare, session: opened };
      return opened;
    },
    /** The session the current test opened. */
    get current(): Session {
      if (!session) throw new Error('No session is open in this test.');
      return session;
    },
  };
}
