import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { ANALYTICS_HOST, eventually, visit, waitForHydration, textOf, type Session, type SessionOptions } from './support/browser';
import { projectPageEvent } from '../contract/page-events';
import { GTAG_SCRIPT_PATTERN } from './support/fakes';
import { CONSENT_KEY, KNOWN_ROUTES, TEXT, UNKNOWN_ROUTE } from './support/site';
import { useBrowserSessions } from './support/sessions';

const MEASUREMENT_ID = 'G-TEST000000';

const sessions = useBrowserSessions(() => {
  if (!inject('gaConfigured')) {
    throw new Error(
      `web/build was built without VITE_GA_MEASUREMENT_ID=${MEASUREMENT_ID}, so analytics gating cannot be tested. ` +
        'Build with `npm run build:test` (what `npm test` does).',
    );
  }
});

async function open(options: SessionOptions = {}): Promise<Page> {
  return (await sessions.open(options)).page;
}

function bannerText(page: Page, text: string): Locator {
  return page.getByText(text, { exact: true });
}

/** The banner's +/- toggle: a button whose text is + or -, with aria-expanded. */
function bannerToggle(page: Page): Locator {
  return page.locator('button[aria-expanded]').filter({ hasText: /^\s*[+\-−]\s*$/ });
}

function storedConsent(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), CONSENT_KEY);
}

function gtagRequests(s: Session): string[] {
  return s.requests.filter((r) => GTAG_SCRIPT_PATTERN.test(r.url)).map((r) => r.url);
}

/** Every gtag(...) call react-ga4 queued, as plain arrays. */
function dataLayer(page: Page): Promise<unknown[][] | null> {
  return page.evaluate(() => {
    const layer = (window as unknown as { dataLayer?: ArrayLike<unknown>[] }).dataLayer;
    return layer ? layer.map((entry) => Array.from(entry)) : null;
  });
}

function hasEvent(layer: unknown[][] | null, name: string): boolean {
  return (layer ?? []).some((call) => call[0] === 'event' && call[1] === name);
}

/** The parameters of the last gtag('event', name, …) call. */
function eventParams(layer: unknown[][] | null, name: string): Record<string, unknown> | undefined {
  return (layer ?? []).filter((call) => call[0] === 'event' && call[1] === name).at(-1)?.[2] as Record<string, unknown> | undefined;
}

describe('cookie banner', () => {
  it('starts collapsed, expands with + and collapses with -', async () => {
    const page = await open({ viewport: 'phone' });
    await visit(page, '/home');
    await expect(bannerText(page, TEXT.cookieShort).isVisible()).resolves.toBe(true);
    const toggle = bannerToggle(page);
    await expect(toggle.count()).resolves.toBe(1);
    await expect(textOf(toggle)).resolves.toMatch(/^\s*\+\s*$/);
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    // Assistive technology hears the visible + first, then what it shows, and finds what it changes.
    await expect(page.getByRole('button', { name: '+ More about cookies', exact: true }).count()).resolves.toBe(1);
    const controlled = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
    await expect(controlled.getByText(TEXT.cookieShort, { exact: true }).count()).resolves.toBe(1);
    const privacy = page.getByRole('link', { name: /privacy policy/i }).filter({ visible: true });
    await expect(privacy.count(), 'collapsed banner has a Privacy policy link').resolves.toBeGreaterThanOrEqual(1);
    await expect(page.getByRole('button', { name: 'Accept' }).count()).resolves.toBe(0);

    await toggle.click();
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(textOf(toggle)).resolves.toMatch(/^\s*[-−]\s*$/);
    await expect(page.getByRole('button', { name: '- More about cookies', exact: true }).count()).resolves.toBe(1);
    await expect(controlled.getByRole('button', { name: 'Accept' }).count()).resolves.toBe(1);
    await expect(bannerText(page, TEXT.cookieLong).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Accept' }).isVisible()).resolves.toBe(true);
    const expandedLink = page
      .getByRole('link', { name: /privacy policy/i })
      .filter({ visible: true })
      .last();
    await expect(expandedLink.getAttribute('href')).resolves.toBe('/privacy-policy');

    await toggle.click();
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(bannerText(page, TEXT.cookieShort).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Accept' }).count()).resolves.toBe(0);
    // No decline action exists.
    await expect(page.getByRole('button', { name: /decline|reject|refuse/i }).count()).resolves.toBe(0);
  });

  it('appears on every screen while no consent is stored, and no analytics request is ever made', async () => {
    const page = await open({ viewport: 'desktop' });
    sessions.current.allowConsoleError(/status of 404/);
    for (const route of [...KNOWN_ROUTES, UNKNOWN_ROUTE]) {
      await visit(page, route);
      await expect(bannerText(page, TEXT.cookieShort).isVisible(), route).resolves.toBe(true);
    }
    // Give late scripts a moment, then check: not one request to Google's analytics hosts,
    // and no Google request at all outside /contact (which needs the reCAPTCHA script).
    await page.waitForTimeout(500);
    const analytics = sessions.current.googleRequests().filter((r) => ANALYTICS_HOST.test(new URL(r.url).hostname));
    expect(analytics.map((r) => r.url)).toEqual([]);
    const google = sessions.current.googleRequests().map((r) => r.url);
    expect(
      google.every((url) => url.startsWith('https://www.google.com/recaptcha/')),
      google.join('\n'),
    ).toBe(true);
    expect(await storedConsent(page)).toBeNull();
    expect(await dataLayer(page)).toBeNull();
  });

  it('Accept stores cookieConsent=true, hides the banner and loads analytics; page events follow', async () => {
    const page = await open({ viewport: 'desktop' });
    await visit(page, '/home');
    expect(sessions.current.googleRequests()).toEqual([]);
    await bannerToggle(page).click();
    await page.getByRole('button', { name: 'Accept' }).click();
    await eventually(
      () => storedConsent(page),
      (v) => v === 'true',
      'cookieConsent=true',
    );
    await eventually(
      () => bannerText(page, TEXT.cookieShort).count(),
      (n) => n === 0,
      'banner hidden',
    );
    await expect(bannerText(page, TEXT.cookieLong).count()).resolves.toBe(0);
    await eventually(
      () => gtagRequests(sessions.current),
      (urls) => urls.length === 1,
      'one gtag.js request',
    );
    expect(gtagRequests(sessions.current)[0]).toContain(`id=${MEASUREMENT_ID}`);
    await eventually(
      () => page.evaluate(() => Boolean((window as unknown as { __fakeGtag?: { loaded: boolean } }).__fakeGtag?.loaded)),
      Boolean,
      'the fake gtag.js ran',
    );
    await eventually(
      () => dataLayer(page),
      (layer) => (layer ?? []).some((call) => call[0] === 'config' && call[1] === MEASUREMENT_ID),
      `gtag('config', '${MEASUREMENT_ID}')`,
    );
    // Consent given: the next page sends its page event.
    await page.getByRole('link', { name: 'Projects', exact: true }).filter({ visible: true }).first().click();
    await page.waitForURL(/\/projects$/);
    await eventually(
      () => dataLayer(page),
      (layer) => hasEvent(layer, 'projectsPage'),
      'projectsPage event',
    );
    expect(gtagRequests(sessions.current), 'gtag.js is loaded once').toHaveLength(1);
  });

  it('with consent stored earlier: no banner, analytics load at start, page events per route', async () => {
    const page = await open({ viewport: 'phone', consent: true });
    await visit(page, '/home');
    await page.waitForTimeout(300);
    await expect(bannerText(page, TEXT.cookieShort).count()).resolves.toBe(0);
    await eventually(
      () => gtagRequests(sessions.current),
      (urls) => urls.length === 1,
      'gtag.js loaded at start',
    );
    await eventually(
      () => dataLayer(page),
      (layer) => hasEvent(layer, 'homePage'),
      'homePage event',
    );
    // GA4's page parameters: the full URL and the page's title (not Universal Analytics' page_path).
    expect(eventParams(await dataLayer(page), 'homePage')).toEqual({ page_location: page.url(), page_title: await page.title() });

    const pageEvents: [string, string][] = [
      ['/blogs', 'blogsPage'],
      ['/contact', 'contactPage'],
      ['/about', 'aboutPage'],
    ];
    for (const [route, name] of pageEvents) {
      await visit(page, route);
      await eventually(
        () => dataLayer(page),
        (layer) => hasEvent(layer, name),
        `${name} on ${route}`,
      );
    }
    sessions.current.allowConsoleError(/status of 404/);
    await visit(page, UNKNOWN_ROUTE);
    await eventually(
      () => dataLayer(page),
      (layer) => hasEvent(layer, 'pageNotFoundPage'),
      'pageNotFoundPage',
    );

    // The project detail sends the project's title made a valid GA4 name, the title as project_title.
    await visit(page, '/projects/2');
    const title = (await textOf(page.getByRole('main').getByRole('heading', { level: 1 }))).trim();
    const name = projectPageEvent(title);
    expect(name).toMatch(/^[A-Za-z][A-Za-z0-9_]{0,39}$/);
    await eventually(
      () => dataLayer(page),
      (layer) => hasEvent(layer, name),
      `page event "${name}"`,
    );
    expect(eventParams(await dataLayer(page), name)).toEqual({
      page_location: page.url(),
      page_title: await page.title(),
      project_title: title,
    });

    // Reload: still no banner, analytics again at start.
    await page.reload();
    await waitForHydration(page);
    await page.waitForTimeout(300);
    await expect(bannerText(page, TEXT.cookieShort).count()).resolves.toBe(0);
    await eventually(
      () => dataLayer(page),
      (layer) => hasEvent(layer, name),
      'page event after reload',
    );
  });

  it('sends no page event without consent', async () => {
    const page = await open({ viewport: 'desktop' });
    await visit(page, '/home');
    await visit(page, '/projects');
    await page.waitForTimeout(300);
    expect(await dataLayer(page)).toBeNull();
    expect(gtagRequests(sessions.current)).toEqual([]);
  });

  it('keeps working when the analytics script cannot load (errors stay in the console)', async () => {
    const page = await open({ viewport: 'desktop', consent: true, fakeGtag: false });
    sessions.current.allowConsoleError(/analytics|gtag|ERR_BLOCKED_BY_CLIENT|Failed to load resource/i);
    await visit(page, '/home');
    await eventually(
      () => gtagRequests(sessions.current),
      (urls) => urls.length >= 1,
      'gtag.js attempted',
    );
    await page.getByRole('link', { name: 'About', exact: true }).filter({ visible: true }).first().click();
    await page.waitForURL(/\/about$/);
    expect(sessions.current.pageErrors).toEqual([]);
  });
});
