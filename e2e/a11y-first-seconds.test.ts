/**
 * Accessibility in the first seconds: what a visitor meets before the page's own scripts have
 * arrived (held back here by e2e/support/hold-scripts.ts until the test ends) must pass axe too, on every route,
 * at both sizes and in both themes: the prerendered page, with its waiting states (the headshot's
 * "Loading…", the disabled theme control).
 */
import { holdScripts } from './support/hold-scripts';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { baseUrl, type ViewportName } from './support/browser';
import { useBrowserSessions } from './support/sessions';
import { KNOWN_ROUTES, UNKNOWN_ROUTE } from './support/site';

const sessions = useBrowserSessions();

/**
 * Every route in both themes at desktop size, where the side panel (the headshot, the badges, the
 * theme control) shows as well as the page; at phone size the bar and the menu button on the home page
 * in both themes (the pages themselves are the same markup at both sizes). axe takes seconds a page
 * on this machine, so the cases are chosen to cover each part once per theme.
 */
const CASES = [
  ...(['light', 'dark'] as const).map((colorScheme) => ['desktop' as ViewportName, colorScheme, [...KNOWN_ROUTES, UNKNOWN_ROUTE]] as const),
  ...(['light', 'dark'] as const).map((colorScheme) => ['phone' as ViewportName, colorScheme, ['/home']] as const),
];

describe.each(CASES)('axe-core before the scripts arrive, at %s size, %s theme', (viewport, colorScheme, routes) => {
  // One test per route: axe takes seconds per page on a busy machine.
  it.each(routes)('reports no violation on %s', async (route) => {
    const session = await sessions.open({ viewport, colorScheme });
    session.allowConsoleError(/status of 404/);
    const { page } = session;
    const scripts = await holdScripts(page);
    try {
      await page.goto(`${baseUrl()}${route}`, { waitUntil: 'domcontentloaded' });
      // The page is painted: a known page's layout, or the 404 fallback page's reserved area (it serves
      // every language, so it shows none until the scripts run).
      await page.locator('main, .page-placeholder').first().waitFor({ state: 'visible' });
      // The boot script has asked for the scripts (after the first paint), and they are held.
      await expect.poll(() => scripts.held(), { timeout: 10_000 }).toBeGreaterThan(0);
      const found = await axeViolations(page);
      await expect(page.evaluate(() => document.documentElement.dataset.hydrated)).resolves.toBeUndefined();
      expect(found, found.join('\n')).toEqual([]);
    } finally {
      scripts.release();
    }
  });
});
