import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, openSession, visit, waitForHydration, type SessionOptions } from './support/browser';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The page background of each theme (global.css: --color-bg). */
const BACKGROUND = { light: 'rgb(245, 247, 251)', dark: 'rgb(11, 18, 32)' } as const;

/**
 * Records, in the first animation frame (which runs right before the first paint), the body's
 * background colour and the theme attribute: what the first painted frame shows.
 */
const RECORD_FIRST_FRAME = `
  requestAnimationFrame(() => {
    window.__firstFrame = {
      background: document.body ? getComputedStyle(document.body).backgroundColor : 'no body yet',
      theme: document.documentElement.getAttribute('data-theme'),
    };
  });
`;

interface FirstFrame {
  background: string;
  theme: string | null;
}

/** Opens a page with every app script held back: what the visitor sees before hydration. */
async function openWithoutScripts(options: SessionOptions, path: string) {
  const session = await openSession(browser, options);
  await session.page.route('**/assets/**/*.js', (route) => route.abort());
  await session.page.addInitScript(RECORD_FIRST_FRAME);
  await session.page.goto(`${baseUrl()}${path}`, { waitUntil: 'load' });
  return session;
}

async function firstFrame(page: Page): Promise<FirstFrame> {
  await page.waitForFunction(() => (window as unknown as { __firstFrame?: unknown }).__firstFrame !== undefined);
  return page.evaluate(() => (window as unknown as { __firstFrame: FirstFrame }).__firstFrame);
}

function background(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

function colorScheme(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.documentElement).colorScheme);
}

describe('theme by system setting', () => {
  it.each(['light', 'dark'] as const)('follows a %s system before and after hydration', async (scheme) => {
    const before = await openWithoutScripts({ colorScheme: scheme }, '/about');
    try {
      expect(await firstFrame(before.page)).toEqual({ background: BACKGROUND[scheme], theme: null });
      expect(await background(before.page)).toBe(BACKGROUND[scheme]);
    } finally {
      await before.close();
    }

    const after = await openSession(browser, { colorScheme: scheme });
    try {
      await visit(after.page, '/about');
      expect(await background(after.page)).toBe(BACKGROUND[scheme]);
      // Form controls and scrollbars follow: the page declares both schemes.
      expect(await colorScheme(after.page)).toBe('light dark');
      const system = after.page.locator('.side-panel').getByRole('radio', { name: 'System' });
      expect(await system.isChecked()).toBe(true);
      after.assertHealthy();
    } finally {
      await after.close();
    }
  });

  it('offers a theme-color per scheme', async () => {
    const response = await fetch(`${baseUrl()}/home`);
    const html = await response.text();
    expect(html).toMatch(/<meta name="theme-color" media="\(prefers-color-scheme: light\)" content="#[0-9a-f]{6}"\/>/);
    expect(html).toMatch(/<meta name="theme-color" media="\(prefers-color-scheme: dark\)" content="#[0-9a-f]{6}"\/>/);
    expect(html).toContain('<meta name="color-scheme" content="light dark"/>');
  });
});

describe('a stored choice', () => {
  it.each([
    ['dark', 'light'],
    ['light', 'dark'],
  ] as const)('paints %s from the first frame on a %s system, scripts held back', async (stored, system) => {
    const session = await openWithoutScripts({ colorScheme: system, storedTheme: stored }, '/projects/2');
    try {
      expect(await firstFrame(session.page)).toEqual({ background: BACKGROUND[stored], theme: stored });
      expect(await colorScheme(session.page)).toBe(stored);
    } finally {
      await session.close();
    }
  });
});

describe('the theme control', () => {
  it('changes the theme, and the choice holds across a navigation and a reload with no frame in the old theme', async () => {
    const session = await openSession(browser, { viewport: 'desktop', colorScheme: 'light' });
    const { page } = session;
    try {
      await visit(page, '/home');
      const panel = page.locator('.side-panel');
      await panel.getByRole('radio', { name: 'Dark' }).click();
      expect(await background(page)).toBe(BACKGROUND.dark);
      expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

      await panel.getByRole('link', { name: 'Projects' }).click();
      await page.waitForURL('**/projects');
      expect(await background(page)).toBe(BACKGROUND.dark);
      expect(await panel.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);

      await page.addInitScript(RECORD_FIRST_FRAME);
      await page.reload({ waitUntil: 'load' });
      expect(await firstFrame(page)).toEqual({ background: BACKGROUND.dark, theme: 'dark' });
      await waitForHydration(page);
      expect(await panel.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);

      // System forgets the choice: the light system setting is back.
      await panel.getByRole('radio', { name: 'System' }).click();
      expect(await background(page)).toBe(BACKGROUND.light);
      expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
      session.assertHealthy();
    } finally {
      await session.close();
    }
  });

  it('works by keyboard: arrow keys move the choice', async () => {
    const session = await openSession(browser, { viewport: 'desktop', colorScheme: 'dark' });
    const { page } = session;
    try {
      await visit(page, '/home');
      const system = page.locator('.side-panel').getByRole('radio', { name: 'System' });
      await system.focus();
      await page.keyboard.press('ArrowLeft');
      expect(await page.locator('.side-panel').getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);
      await page.keyboard.press('ArrowLeft');
      expect(await background(page)).toBe(BACKGROUND.light);
      session.assertHealthy();
    } finally {
      await session.close();
    }
  });

  it('is in the phone menu too', async () => {
    const session = await openSession(browser, { viewport: 'phone', colorScheme: 'light' });
    const { page } = session;
    try {
      await visit(page, '/blogs');
      await page.getByRole('button', { name: /menu/i }).filter({ visible: true }).click();
      const menu = page.locator('.mobile-menu');
      await menu.getByRole('radio', { name: 'Dark' }).click();
      expect(await background(page)).toBe(BACKGROUND.dark);
      await page.reload({ waitUntil: 'load' });
      expect(await background(page)).toBe(BACKGROUND.dark);
      session.assertHealthy();
    } finally {
      await session.close();
    }
  });
});

describe('the captcha widget', () => {
  it('is asked for its dark theme when the page is dark', async () => {
    const session = await openSession(browser, { colorScheme: 'dark' });
    const { page } = session;
    try {
      await visit(page, '/contact');
      // The fake api.js records the parameters grecaptcha.render received.
      const theme = await page.waitForFunction(() => {
        const calls = (window as unknown as { __recaptchaRenders?: { theme?: string }[] }).__recaptchaRenders;
        return calls && calls.length > 0 ? calls[calls.length - 1]?.theme : undefined;
      });
      expect(await theme.jsonValue()).toBe('dark');
      session.assertHealthy();
    } finally {
      await session.close();
    }
  });
});
