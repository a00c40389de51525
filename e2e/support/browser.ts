import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath } from '../../tools/chromium';
import { FAKE_HOSTS, fakeScriptFor, GTAG_SCRIPT_PATTERN, RECAPTCHA_SCRIPT_PATTERN, startFakeGoogle } from './fakes';

export { CHROMIUM_ARGS, chromiumPath };

export const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/** Hosts that belong to Google's reCAPTCHA and analytics services. */
export const GOOGLE_HOST =
  /(^|\.)(google\.com|gstatic\.com|googletagmanager\.com|google-analytics\.com|analytics\.google\.com|recaptcha\.net|doubleclick\.net)$/;
export const ANALYTICS_HOST = /(^|\.)(googletagmanager\.com|google-analytics\.com|analytics\.google\.com|doubleclick\.net)$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function baseUrl(): string {
  return inject('baseUrl');
}

/**
 * Chromium with nothing leaving this machine, and no request interception: every host name but
 * loopback resolves to nothing, except Google's script hosts, which resolve to a fake Google server
 * (fakes.ts) started with it. Playwright's routes would do the same at a cost: measured, about a
 * quarter of a visit's CPU, and another third for the HTTP cache they turn off (docs/testing.md).
 *
 * Playwright starts Chromium with `--disable-back-forward-cache` (so that a request is still seen, and
 * routable, on going back); `backForwardCache: true` leaves that switch out, for a test of what a
 * restore from the cache does.
 */
export async function launchBrowser(options: { backForwardCache?: boolean } = {}): Promise<Browser> {
  const google = await startFakeGoogle((url) => fakeScriptFor(url));
  const rules = [
    ...FAKE_HOSTS.map((host) => `MAP ${host} 127.0.0.1:${google.port}`),
    'MAP * ~NOTFOUND',
    'EXCLUDE 127.0.0.1',
    'EXCLUDE localhost',
  ];
  try {
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [...CHROMIUM_ARGS, `--host-resolver-rules=${rules.join(', ')}`],
      headless: true,
      ...(options.backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
    });
    browser.on('disconnected', () => void google.stop());
    return browser;
  } catch (error) {
    await google.stop();
    throw error;
  }
}

export interface SessionOptions {
  viewport?: ViewportName;
  /** Store cookieConsent=true before the first page loads (a returning visitor who accepted). */
  consent?: boolean;
  /** Serve the fake reCAPTCHA api.js (default true; false blocks it, and the real one is never reachable). */
  fakeRecaptcha?: boolean;
  /** Serve the fake gtag.js (default true; false blocks it). */
  fakeGtag?: boolean;
  reducedMotion?: 'reduce' | 'no-preference';
  /** The system's colour scheme (prefers-color-scheme); default light. */
  colorScheme?: 'light' | 'dark';
  /** A theme chosen earlier with the theme control, stored before the first page loads. */
  storedTheme?: 'light' | 'dark';
  /** Local time zone; with `clock`, fixes the greeting's hour. */
  timezoneId?: string;
  /** Run the page's scripts (default true); false is a visitor with JavaScript turned off. */
  javaScriptEnabled?: boolean;
}

/** A request the page made, kept for assertions. */
export interface SeenRequest {
  url: string;
  /** The URL of the document that made it (for a document, its own). */
  document: string;
  method: string;
  postData: string | null;
  at: number;
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Every request the page made, in order. */
  requests: SeenRequest[];
  /** Requests to any Google host (served by a fake or blocked). */
  googleRequests(): SeenRequest[];
  /** Names of the click events POSTed to /api/events, in order. */
  clickEvents(): string[];
  consoleErrors: string[];
  pageErrors: string[];
  /** Console errors matching this are expected in the current test (e.g. a faked 500). */
  allowConsoleError(pattern: RegExp): void;
  /** Throws when the page had an uncaught error, a hydration error or an unexpected console error. */
  assertHealthy(): void;
  /** Forgets the requests, errors and allowed errors recorded so far (for the next test of a reused session). */
  forgetRecords(): void;
  close(): Promise<void>;
}

function isLoopback(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
    return LOOPBACK_HOSTS.has(hostname);
  } catch {
    return false;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** Parses an /api/events POST body: {"name": "..."} (sent as a Blob by sendBeacon). */
function eventNameOf(request: SeenRequest): string | null {
  try {
    const body = JSON.parse(request.postData ?? '') as { name?: unknown };
    return typeof body.name === 'string' ? body.name : null;
  } catch {
    return null;
  }
}

function storageStateFor(origin: string, options: SessionOptions) {
  const localStorage: { name: string; value: string }[] = [];
  if (options.consent) localStorage.push({ name: 'cookieConsent', value: 'true' });
  if (options.storedTheme) localStorage.push({ name: 'theme', value: options.storedTheme });
  return localStorage.length > 0 ? { cookies: [], origins: [{ origin, localStorage }] } : undefined;
}

/** A fake turned off is blocked by a route, in this test only (a route costs every request of the page). */
export async function blockTurnedOffFakes(page: Page, options: SessionOptions): Promise<void> {
  for (const [on, pattern] of [
    [options.fakeRecaptcha, RECAPTCHA_SCRIPT_PATTERN],
    [options.fakeGtag, GTAG_SCRIPT_PATTERN],
  ] as const) {
    if (on === false) await page.route(pattern, (route) => route.abort('blockedbyclient'));
  }
}

/**
 * A fresh context and page for one test: the viewport, the fake Google scripts from launchBrowser's
 * server (its certificate accepted) unless turned off, and every console error, page error and request
 * recorded (a request to any other host is recorded too, and fails as a name that does not resolve).
 */
export async function openSession(browser: Browser, options: SessionOptions = {}): Promise<Session> {
  const origin = baseUrl();
  const context = await browser.newContext({
    ...VIEWPORTS[options.viewport ?? 'desktop'],
    reducedMotion: options.reducedMotion ?? 'no-preference',
    timezoneId: options.timezoneId ?? 'UTC',
    locale: 'en-US',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    colorScheme: options.colorScheme ?? 'light',
    storageState: storageStateFor(origin, options),
    ignoreHTTPSErrors: true,
  });
  const page = await context.newPage();
  await blockTurnedOffFakes(page, options);

  const requests: SeenRequest[] = [];
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const allowed: RegExp[] = [];
  // Requests are read from Chromium's own events. A Blob body (sendBeacon's) is not in them: the page's
  // requests to the stack's API alone are paused (a narrow Fetch pattern) just long enough to read theirs.
  const cdp = await context.newCDPSession(page);
  // The two events come from different processes, in either order: each keeps what the other needs.
  const byId = new Map<string, SeenRequest>();
  const bodies = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', ({ requestId, request, documentURL }) => {
    const seen = {
      url: request.url,
      document: documentURL,
      method: request.method,
      postData: request.postData ?? bodies.get(requestId) ?? null,
      at: Date.now(),
    };
    requests.push(seen);
    byId.set(requestId, seen);
  });
  cdp.on('Fetch.requestPaused', ({ requestId, networkId = '', request }) => {
    const seen = byId.get(networkId);
    if (request.postData !== undefined) {
      if (seen) seen.postData ??= request.postData;
      else bodies.set(networkId, request.postData);
    }
    cdp.send('Fetch.continueRequest', { requestId }).catch(() => {});
  });
  await cdp.send('Network.enable');
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: `${origin}/api/*` }] });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(`${error.name}: ${error.message}`));

  return {
    context,
    page,
    requests,
    googleRequests: () => requests.filter((r) => GOOGLE_HOST.test(hostOf(r.url))),
    clickEvents: () =>
      requests
        .filter((r) => r.method === 'POST' && isLoopback(r.url) && new URL(r.url).pathname === '/api/events')
        .map(eventNameOf)
        .filter((name): name is string => name !== null),
    consoleErrors,
    pageErrors,
    allowConsoleError: (pattern) => allowed.push(pattern),
    assertHealthy() {
      const unexpected = consoleErrors.filter((text) => !allowed.some((pattern) => pattern.test(text)));
      const problems = [...pageErrors.map((e) => `page error: ${e}`), ...unexpected.map((e) => `console error: ${e}`)];
      if (problems.length > 0) throw new Error(`The page was not healthy:\n${problems.join('\n')}`);
    },
    forgetRecords() {
      for (const list of [requests, consoleErrors, pageErrors, allowed]) list.length = 0;
      byId.clear();
      bodies.clear();
    },
    close: () => context.close(),
  };
}

/**
 * Waits until React has hydrated the prerendered page: the router is initialised, the layout has
 * marked `<html data-hydrated>` from its effect (so every effect of the first render has run), and
 * two frames have passed so what those effects started (listeners, focus, scroll) has settled.
 * An observable signal, not a timing: hydration may start late (after the first paint, or when a
 * test holds the scripts back).
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const w = window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } };
      return Boolean(w.__reactRouterDataRouter?.state.initialized) && document.documentElement.dataset.hydrated === 'true';
    },
    undefined,
    { timeout: 15_000 },
  );
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** Opens a path of the local stack and waits for hydration; returns the document's HTTP status. */
export async function visit(page: Page, path: string): Promise<number> {
  const response = await page.goto(`${baseUrl()}${path}`, { waitUntil: 'load' });
  if (!response) throw new Error(`No response for ${path}`);
  await waitForHydration(page);
  return response.status();
}

export function scrollY(page: Page): Promise<number> {
  return page.evaluate(() => window.scrollY);
}

/** Polls until `read` returns a value `accept`s, or fails with the last value seen. */
export async function eventually<T>(
  read: () => T | Promise<T>,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!accept(last)) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
  return last;
}

/**
 * The text a visitor reads (innerText: hidden parts left out, blocks on their own lines) but in
 * the DOM's letter case: CSS text-transform (e.g. an uppercase greeting) is presentation only.
 */
export function textOf(locator: Locator): Promise<string> {
  return locator.evaluate((el) => {
    const style = document.createElement('style');
    style.textContent = '* { text-transform: none !important; }';
    document.head.append(style);
    try {
      return (el as HTMLElement).innerText;
    } finally {
      style.remove();
    }
  });
}
