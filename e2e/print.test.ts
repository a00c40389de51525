import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openSession, visit } from './support/browser';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Selectors of the layout chrome and on-screen controls that paper must not show. */
const CHROME = ['.mobile-bar', '.side-panel', '.cookie-banner', '.site-footer', '.skip-link', '.theme-control', 'button'];

async function visibleChrome(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const selector of CHROME) {
    for (const element of await page.locator(selector).all()) {
      if (await element.isVisible()) found.push(selector);
    }
  }
  return found;
}

describe.each(['/about', '/projects/3'])('printing %s', (path) => {
  // Dark theme stored and a phone-sized window: paper still gets black on white, no chrome.
  it.each(['desktop', 'phone'] as const)('gives a clean black-on-white document (%s window, dark theme)', async (viewport) => {
    const session = await openSession(browser, { viewport, storedTheme: 'dark', colorScheme: 'dark' });
    const { page } = session;
    try {
      await visit(page, path);
      await page.getByText('We use cookies.', { exact: true }).waitFor();
      await page.emulateMedia({ media: 'print' });

      expect(await visibleChrome(page)).toEqual([]);
      const colors = await page.evaluate(() => ({
        background: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.querySelector('h1')!).color,
      }));
      expect(colors).toEqual({ background: 'rgb(255, 255, 255)', text: 'rgb(0, 0, 0)' });

      // The owner's name heads the page, since the side panel is not printed.
      const header = page.locator('.print-header');
      expect(await header.isVisible()).toBe(true);
      expect(await header.innerText()).toContain('Alex Example');

      // External links are followed by their address.
      const external = page.locator('main a[href^="http"]').first();
      const href = await external.getAttribute('href');
      const after = await external.evaluate((a) => getComputedStyle(a, '::after').content);
      expect(after).toBe(`" (${href})"`);

      await page.emulateMedia({ media: 'screen' });
      expect(await header.isVisible()).toBe(false);
      session.assertHealthy();
    } finally {
      await session.close();
    }
  });
});
