import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openSession, visit } from './support/browser';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Counts the view transitions the page starts (Chromium supports them). */
const COUNT_TRANSITIONS = `
  window.__viewTransitions = 0;
  const start = Document.prototype.startViewTransition;
  if (start) {
    Document.prototype.startViewTransition = function (...args) {
      window.__viewTransitions += 1;
      return start.apply(this, args);
    };
  }
`;

describe('page changes', () => {
  it.each([
    ['no-preference', 1],
    ['reduce', 0],
  ] as const)('with motion %s start %i view transition per in-app navigation', async (reducedMotion, expected) => {
    const session = await openSession(browser, { viewport: 'desktop', reducedMotion });
    const { page } = session;
    try {
      await page.addInitScript(COUNT_TRANSITIONS);
      await visit(page, '/home');
      await page.locator('.side-panel').getByRole('link', { name: 'About' }).click();
      await page.waitForURL('**/about');
      await page.getByRole('heading', { level: 1, name: 'About me' }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { __viewTransitions: number }).__viewTransitions)).toBe(expected);
      session.assertHealthy();
    } finally {
      await session.close();
    }
  });
});
