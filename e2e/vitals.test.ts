/**
 * Page views and Core Web Vitals in Chromium: the web-vitals chunk loads only after the load event,
 * one beacon per page view (the first load, each client-side navigation, and each restore from the
 * back/forward cache) with the route's pattern and no address, and none at all under Global Privacy
 * Control.
 */
import type { Browser, Page } from 'playwright-core';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeEach, describe, expect, inject, it, onTestFinished } from 'vitest';
import { checkVitalsBeacon } from '../contract/vitals';
import { LOCALE_CODES } from '../web/content/locales';
import { baseUrl, eventually, launchBrowser, openSession, visit, type Session } from './support/browser';
import { holdScripts } from './support/hold-scripts';
import { useBrowserSessions } from './support/sessions';

const sessions = useBrowserSessions();

const VITALS_CHUNK = /\/assets\/vitals-[^/]+\.js$/;

/**
 * The page views the stack kept since this test began (its page-views file, as `npm start` writes
 * it): a beacon sent from pagehide is not always reported to Playwright, and the server's word is
 * what counts.
 */
let keptBefore = 0;
function beacons(): Record<string, unknown>[] {
  const file = inject('pageViewsFile');
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  return lines.slice(keptBefore).map((line) => (JSON.parse(line) as { pageView: Record<string, unknown> }).pageView);
}
beforeEach(() => {
  const file = inject('pageViewsFile');
  keptBefore = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
});

async function loadEventAt(page: Page): Promise<number> {
  return page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return performance.timeOrigin + (navigation?.loadEventEnd ?? 0);
  });
}

/** A Chromium that keeps pages in the back/forward cache (the one Playwright starts by default never does), shared by the tests that need it. */
let backForwardBrowser: Promise<Browser> | undefined;
afterAll(async () => {
  await (await backForwardBrowser)?.close();
});

/**
 * A session in that Chromium, closed when the test ends, whose pages record each pageshow's `persisted`
 * (true only for a restore from the cache; a pageshow listener, unlike an unload one, leaves the page
 * eligible for it). With `holdIdle`, the page's idle callbacks wait until `releaseIdle`: the page-view
 * code, which loads when the page is idle, has not started.
 */
async function backForwardSession({ holdIdle = false } = {}): Promise<Session> {
  const session = await openSession(await (backForwardBrowser ??= launchBrowser({ backForwardCache: true })), { viewport: 'desktop' });
  onTestFinished(() => session.close());
  await session.context.addInitScript((hold) => {
    const shows: boolean[] = [];
    (window as { shows?: boolean[] }).shows = shows;
    addEventListener('pageshow', (event) => shows.push(event.persisted));
    if (!hold) return;
    const held: (() => void)[] = [];
    window.requestIdleCallback = (callback) => held.push(() => callback({ didTimeout: false, timeRemaining: () => 50 }));
    (window as { releaseIdle?: () => void }).releaseIdle = () => held.splice(0).forEach((run) => run());
  }, holdIdle);
  return session;
}

/** Goes back to a page expected in the back/forward cache, and checks it came from there. */
async function goBackToRestore(page: Page): Promise<void> {
  // A restore fires no load event: wait for its pageshow, or for the load of a document fetched anew.
  await page.goBack({ waitUntil: 'commit' });
  await page.waitForFunction(() => {
    const { shows = [] } = window as { shows?: boolean[] };
    const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return shows.length === 2 || (entry?.type === 'back_forward' && document.readyState === 'complete' && shows.length === 1);
  });
  expect(await page.evaluate(() => (window as { shows?: boolean[] }).shows), 'a load, then a restore from the cache').toEqual([
    false,
    true,
  ]);
}

describe('page views and Core Web Vitals', () => {
  it('loads web-vitals after the load event and sends one beacon per page view, first load then client navigation', async () => {
    const { page } = await sessions.open({ viewport: 'desktop' });
    await visit(page, '/home');
    const loadedAt = await loadEventAt(page);
    await eventually(
      async () => sessions.current.requests.filter((r) => VITALS_CHUNK.test(r.url)),
      (chunks) => chunks.length === 1,
      'the web-vitals chunk, once the page is idle',
    );
    const chunk = sessions.current.requests.find((r) => VITALS_CHUNK.test(r.url))!;
    expect(chunk.at).toBeGreaterThanOrEqual(Math.floor(loadedAt));
    expect(beacons()).toHaveLength(0);

    // An interaction (for INP), then a client-side navigation: the first page view is complete and goes.
    await page.getByRole('link', { name: 'Projects', exact: true }).filter({ visible: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/projects');
    await eventually(
      async () => beacons(),
      (sent) => sent.length === 1,
      'the first page view',
    );
    const [first] = beacons();
    expect(first).toMatchObject({ route: '/home', lang: 'en', device: 'desktop', nav: 'load' });
    expect(first).toEqual(expect.objectContaining({ lcp: expect.any(Number), fcp: expect.any(Number), ttfb: expect.any(Number) }));

    // Leaving the document (pagehide) sends the client-side page view, once.
    await page.goto(`${baseUrl()}/about`, { waitUntil: 'load' });
    await eventually(
      async () => beacons(),
      (sent) => sent.length === 2,
      'the client-side page view',
    );
    expect(beacons()[1]).toMatchObject({ route: '/projects', lang: 'en', device: 'desktop', nav: 'client' });
    // The boot script left the page view to the app: nothing more comes for these two.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(beacons().filter((view) => view.route === '/home' || view.route === '/projects')).toHaveLength(2);
    for (const beacon of beacons()) {
      expect(checkVitalsBeacon(beacon, LOCALE_CODES).ok, JSON.stringify(beacon)).toBe(true);
      expect(JSON.stringify(beacon)).not.toContain('http');
    }
    // The endpoint accepts what the page sends.
    const reply = await page.request.post(`${baseUrl()}/api/vitals`, { data: beacons()[0] });
    expect(reply.status()).toBe(204);
  });

  // On a busy machine /home may be left before its page-view code has started (the boot script then
  // counts the first load) and that code start only after the restore: the restore is still counted,
  // once (web/boot/boot.ts and features/tracking/vitals.ts, PAGE_VIEWS_RESTORED).
  it('counts a restore from the back/forward cache as a page view of its own, once, marked as a first load', async () => {
    const earlier = beacons().length;
    const ownBeacons = () => beacons().slice(earlier);
    const session = await backForwardSession();
    const { page } = session;
    await visit(page, '/home');
    await eventually(
      async () => session.requests.filter((r) => VITALS_CHUNK.test(r.url)),
      (c) => c.length === 1,
      'the chunk',
    );
    const homeViews = () => ownBeacons().filter((view) => view.route === '/home');

    // Leaving /home for another document sends its page view; going back restores it from the cache.
    await page.goto(`${baseUrl()}/blogs`, { waitUntil: 'load' });
    await eventually(
      async () => homeViews(),
      (sent) => sent.length === 1,
      'the first load of /home',
      20_000,
    );
    const beforeBack = session.requests.length;
    await goBackToRestore(page);
    // The web-vitals chunk is not fetched again: the restored page keeps the module it had. (/blogs asks
    // for it too once it is idle, which on a busy machine can be after going back: only /home's count.)
    expect(session.requests.slice(beforeBack).filter((r) => VITALS_CHUNK.test(r.url) && new URL(r.document).pathname === '/home')).toEqual(
      [],
    );

    // Leaving the restored page sends its page view, once, marked as a load (not a client-side navigation).
    await page.goto(`${baseUrl()}/robots.txt`);
    // Sent as the page is left, then written by the local stack: on a machine whose cores other test
    // files and browsers take, that has taken over 5 s (the beacon itself is not retried by anyone).
    await eventually(
      async () => homeViews(),
      (sent) => sent.length === 2,
      'the restored page view',
      20_000,
    ).catch((error: unknown) => {
      // A beacon Chromium reports and the stack did not keep was refused there; none reported is a hint
      // only, since a beacon sent from pagehide is not always reported to Playwright.
      const sent = session.requests.filter((r) => new URL(r.url).pathname === '/api/vitals').map((r) => r.postData);
      const message = `${String(error)}\nThe page's /api/vitals requests Chromium reported: ${JSON.stringify(sent)}`;
      console.warn(message); // in the run's output even when the retry passes
      throw new Error(message);
    });
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(homeViews()).toHaveLength(2);
    const restored = homeViews()[1]!;
    expect(restored).toMatchObject({ route: '/home', lang: 'en', device: 'desktop', nav: 'load' });
    expect(checkVitalsBeacon(restored, LOCALE_CODES).ok, JSON.stringify(restored)).toBe(true);
    // /blogs was loaded once and left once (going back): one page view. (The previous test's last page,
    // /about, may send its own as its context closes, so only these two routes are this test's.)
    expect(ownBeacons().filter((view) => view.route === '/blogs')).toHaveLength(1);
  });

  it("counts a restore of a page left before its page-view code started: the first load from the boot script, the restore once, without the first load's metrics", async () => {
    const earlier = beacons().length;
    const homeViews = () =>
      beacons()
        .slice(earlier)
        .filter((view) => view.route === '/home');
    const { page } = await backForwardSession({ holdIdle: true });
    await visit(page, '/home');
    const counted = () => page.evaluate(() => document.documentElement.dataset.pageViews);
    expect(await counted(), 'nobody has counted the page yet').toBeUndefined();
    await page.goto(`${baseUrl()}/blogs`, { waitUntil: 'load' });
    await eventually(
      async () => homeViews(),
      (sent) => sent.length === 1,
      'the first load of /home, from the boot script',
    );
    expect(homeViews()[0]).not.toHaveProperty('lcp');
    await goBackToRestore(page);
    expect(await counted(), 'the restore marked as still to count').toBe('restored');
    // The page becomes idle now: the page-view code loads and takes the restore over.
    await page.evaluate(() => (window as { releaseIdle?: () => void }).releaseIdle?.());
    await eventually(counted, (who) => who === 'app', 'the page-view code started');
    await page.goto(`${baseUrl()}/robots.txt`);
    await eventually(
      async () => homeViews(),
      (sent) => sent.length === 2,
      'the restored page view',
    );
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(homeViews()[1]).toEqual({ route: '/home', lang: 'en', device: 'desktop', nav: 'load' });
    expect(homeViews()).toHaveLength(2);
  });

  it('names the pattern of a project page, on a phone, in Spanish', async () => {
    const { page } = await sessions.open({ viewport: 'phone' });
    await visit(page, '/es/projects/1');
    await eventually(
      async () => sessions.current.requests.filter((r) => VITALS_CHUNK.test(r.url)),
      (c) => c.length === 1,
      'the chunk',
    );
    await page.goto(`${baseUrl()}/es/home`, { waitUntil: 'load' });
    // (The previous test's last page may send its own page view as its context closes: only project pages are this test's.)
    const ours = () => beacons().filter((view) => view.route === '/projects/:projectId');
    await eventually(
      async () => ours(),
      (sent) => sent.length === 1,
      'the page view',
    );
    expect(ours()[0]).toMatchObject({ route: '/projects/:projectId', lang: 'es', device: 'phone', nav: 'load' });
  });

  it('counts a page left before its scripts arrived once, from the boot script, with the TTFB and FCP the browser kept', async () => {
    const { page } = await sessions.open({ viewport: 'phone' });
    const scripts = await holdScripts(page);
    await page.goto(`${baseUrl()}/es/projects/2`, { waitUntil: 'commit' });
    await page.locator('h1').first().waitFor({ state: 'visible' });
    // The boot script asks for the page's scripts only after the first paint: wait until one is held.
    await eventually(
      async () => scripts.held(),
      (held) => held > 0,
      'a held script',
    );
    // A painted heading is not yet a recorded paint: on a busy machine the paint entry comes a frame later.
    await eventually(
      () => page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length),
      (n) => n > 0,
      'the first contentful paint entry',
    );
    await page.goto(`${baseUrl()}/robots.txt`);
    // (The previous test's last page sends its own page view as its context closes: only project pages are this test's.)
    const ours = () => beacons().filter((view) => view.route === '/projects/:projectId');
    await eventually(
      async () => ours(),
      (sent) => sent.length === 1,
      'the page view',
    );
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    // TTFB and FCP from the browser's timeline; LCP, CLS and INP need the library's observers.
    expect(ours()).toEqual([
      { route: '/projects/:projectId', lang: 'es', device: 'phone', nav: 'load', ttfb: expect.any(Number), fcp: expect.any(Number) },
    ]);
    const [view] = ours();
    expect(view!.fcp).toBeGreaterThan(view!.ttfb as number);
    expect(checkVitalsBeacon(view, LOCALE_CODES).ok, JSON.stringify(view)).toBe(true);
  });

  it('loads nothing and sends nothing when the browser sends Global Privacy Control', async () => {
    const { page, context } = await sessions.open({ viewport: 'desktop' });
    await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
    await visit(page, '/home');
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 1500)));
    await page.getByRole('link', { name: 'Projects', exact: true }).filter({ visible: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/projects');
    await page.goto(`${baseUrl()}/about`, { waitUntil: 'load' });
    expect(sessions.current.requests.filter((r) => VITALS_CHUNK.test(r.url))).toHaveLength(0);
    expect(beacons()).toHaveLength(0);
  });
});
