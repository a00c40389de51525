import { describe, expect, it } from 'vitest';
import { axeViolations as violations } from './support/axe';
import { visit, type ViewportName } from './support/browser';
import { useBrowserSessions } from './support/sessions';
import { localized, ROUTES_OF_EVERY_LOCALE, UNKNOWN_ROUTE } from './support/site';
import { LOCALE_CODES } from '../web/content/locales';

// axe judges each page as loaded, whatever the HTTP cache held: the tests of one size share a session,
// the theme and the stored consent set again for each test (sessions.ts).
const sessions = useBrowserSessions();

const VIEWPORT_NAMES: ViewportName[] = ['phone', 'desktop'];
/** Both themes, chosen by the system setting (the theme control's stored choice applies the same CSS). */
const COLOR_SCHEMES = ['light', 'dark'] as const;
const CASES = VIEWPORT_NAMES.flatMap((viewport) => COLOR_SCHEMES.map((scheme) => [viewport, scheme] as const));
/**
 * Every page of every language is checked once per theme and once per layout (phone in the light
 * theme, desktop in the dark one): a page's own content looks the same at either size, and each theme's
 * colours meet each layout. The layout's own parts (phone bar, side panel, banner, overlays) are checked
 * in all four pairings below. All four pairings on every page would take CI's time for no new finding.
 */
const EVERY_PAGE_CASES = new Set(['phone light', 'desktop dark']);

async function violationsOnPages(viewport: ViewportName, colorScheme: 'light' | 'dark', routes: string[]): Promise<void> {
  const session = await sessions.reuse({ viewport, colorScheme });
  session.allowConsoleError(/status of 404/);
  const found: string[] = [];
  for (const route of routes) {
    await visit(session.page, route);
    // The banner appears after hydration; axe checks it too.
    await session.page.locator('.cookie-banner').waitFor({ timeout: 5_000 });
    for (const v of await violations(session.page)) found.push(`${route}: ${v}`);
  }
  expect(found, found.join('\n')).toEqual([]);
  session.assertHealthy();
}

describe.each(CASES)('axe-core at %s size, %s theme', (viewport, colorScheme) => {
  if (EVERY_PAGE_CASES.has(`${viewport} ${colorScheme}`)) {
    // One test per language (every page, its /search list of pages and its 404 page), so each stays within the test time limit.
    it.each(LOCALE_CODES)(
      'reports no violation on any page in %s (cookie banner showing)',
      async (locale) => {
        const routes = [
          ...ROUTES_OF_EVERY_LOCALE.filter((r) => r.locale === locale).map((r) => r.route),
          localized(locale, '/search'),
          localized(locale, UNKNOWN_ROUTE),
        ];
        await violationsOnPages(viewport, colorScheme, routes);
      },
      180_000,
    );
  } else {
    it("reports no violation on each language's home page (cookie banner showing)", async () => {
      await violationsOnPages(
        viewport,
        colorScheme,
        LOCALE_CODES.map((locale) => localized(locale, '/home')),
      );
    });
  }

  it('reports no violation with consent stored (no banner), the banner expanded, and the layout overlays open', async () => {
    const session = await sessions.reuse({ viewport, colorScheme, consent: true });
    const page = session.page;
    const found: string[] = [];
    await visit(page, '/home');
    for (const v of await violations(page)) found.push(`/home with consent: ${v}`);
    if (viewport === 'phone') {
      await page.getByRole('button', { name: /menu/i }).filter({ visible: true }).click();
      for (const v of await violations(page)) found.push(`mobile menu open: ${v}`);
    } else {
      await page
        .getByRole('button', { name: /fun fact/i })
        .filter({ visible: true })
        .click();
      await page.getByRole('dialog').waitFor();
      for (const v of await violations(page)) found.push(`fun-fact modal open: ${v}`);
    }
    expect(found, found.join('\n')).toEqual([]);
    session.assertHealthy();
  });

  it('reports no violation with the cookie banner expanded', async () => {
    const session = await sessions.reuse({ viewport, colorScheme });
    const page = session.page;
    await visit(page, '/contact');
    await page
      .locator('button[aria-expanded]')
      .filter({ hasText: /^\s*\+\s*$/ })
      .click();
    await page.getByRole('button', { name: 'Accept' }).waitFor();
    const found = await violations(page);
    expect(found, found.join('\n')).toEqual([]);
    session.assertHealthy();
  });
});
