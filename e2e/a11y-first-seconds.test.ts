/**
 * Accessibility in the first seconds: what a visitor meets before the page's own scripts have
 * arrived (held back here by e2e/support/hold-scripts.ts, never let through) must pass axe too, on every route,
 * at both sizes and in both themes: the prerendered page, with its waiting states (the headshot's
 * "Loading…", the disabled theme control).
 */
import { holdScripts, ownScriptsArrived } from './support/hold-scripts';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { baseUrl, type Session, type ViewportName } from './support/browser';
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

/**
 * The page's own scripts stay held for every test that reuses the session: each test's page asks for
 * them anew (the HTTP cache is off) and they never arrive, and a page left with its scripts still
 * waiting takes them along (its requests are cancelled with it, never continued).
 */
let scripts: Awaited<ReturnType<typeof holdScripts>>;
async function holdTheScripts(session: Session): Promise<void> {
  scripts = await holdScripts(session.page);
}

describe.each(CASES)('axe-core before the scripts arrive, at %s size, %s theme', (viewport, colorScheme, routes) => {
  // One test per route: axe takes seconds per page on a busy machine. They share a session per size.
  it.each(routes)('reports no violation on %s', async (route) => {
    const session = await sessions.reuse({ viewport, colorScheme }, holdTheScripts);
    session.allowConsoleError(/status of 404/);
    const { page } = session;
    const url = `${baseUrl()}${route}`;
    const heldBefore = scripts.heldFor(url);
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    // The page is painted: a known page's layout, or the 404 fallback page's reserved area (it serves
    // every language, so it shows none until the scripts run).
    await page.locator('main, .page-placeholder').first().waitFor({ state: 'visible' });
    // The boot script of this page has asked for the scripts (after the first paint), and they are held.
    await expect.poll(() => scripts.heldFor(url), { timeout: 10_000 }).toBeGreaterThan(heldBefore);
    const found = await axeViolations(page);
    await expect(page.evaluate(() => document.documentElement.dataset.hydrated)).resolves.toBeUndefined();
    expect(await ownScriptsArrived(page), 'scripts of its own that arrived').toBe(0);
    expect(found, found.join('\n')).toEqual([]);
  });
});
