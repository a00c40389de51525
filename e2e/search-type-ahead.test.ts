/**
 * A visitor who types at once: the search dialog's code comes over the network when it is asked for, and
 * the keys typed before it arrives are kept (a hidden field focused by the click or key press itself,
 * web/app/search/type-ahead.ts) and handed to the dialog. The dialog's chunk is held back here until
 * the typing is done, as on a slow phone.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventually, visit } from './support/browser';
import { useBrowserSessions } from './support/sessions';

const sessions = useBrowserSessions();

const OPEN_DIALOG = 'dialog.search-dialog[open]';

/** Holds the dialog's own chunk until `release()`. */
async function holdDialog(page: Page): Promise<{ release: () => void; held: Promise<void> }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let heard!: () => void;
  const held = new Promise<void>((resolve) => (heard = resolve));
  await page.route(/\/assets\/SearchDialog-[^/]+\.js$/, async (route: Route) => {
    heard();
    await gate;
    await route.continue().catch(() => {});
  });
  return { release, held };
}

async function searchReady(page: Page): Promise<void> {
  await page.locator('a.search-link[aria-haspopup="dialog"]').first().waitFor({ state: 'attached' });
}

describe('search: typing before the dialog has come', () => {
  it('keeps the keys typed after / while the dialog is on its way, and searches them', async () => {
    const { page } = await sessions.open({ viewport: 'desktop' });
    await visit(page, '/projects');
    await searchReady(page);
    const dialog = await holdDialog(page);
    await page.keyboard.press('/');
    await dialog.held;
    await page.keyboard.type('react', { delay: 20 });
    expect(await page.locator(OPEN_DIALOG).count(), 'the dialog is still on its way').toBe(0);
    dialog.release();
    const field = page.locator(`${OPEN_DIALOG} input[type="search"]`);
    await eventually(
      () => field.inputValue(),
      (value) => value === 'react',
      'the typed word in the dialog',
    );
    await eventually(() => page.evaluate(() => document.activeElement?.closest('dialog') !== null), Boolean, 'focus in the dialog');
    await page.locator(`${OPEN_DIALOG} a.search-result`).first().waitFor();
    // Typing goes on in the dialog's own field, and the hidden one is gone.
    await page.keyboard.type(' router');
    await eventually(
      () => field.inputValue(),
      (value) => value === 'react router',
      'typing goes on in the dialog',
    );
    expect(await page.locator('body > input.visually-hidden').count()).toBe(0);
  });

  it("on a phone, a tap on the bar's control takes the keys at once, and nothing stays behind", async () => {
    const { page } = await sessions.open({ viewport: 'phone' });
    await visit(page, '/es/home');
    await searchReady(page);
    const dialog = await holdDialog(page);
    await page.locator('.mobile-bar a.search-link').tap();
    await dialog.held;
    await page.keyboard.type('diseno');
    dialog.release();
    await eventually(
      () => page.locator(`${OPEN_DIALOG} input[type="search"]`).inputValue(),
      (value) => value === 'diseno',
      'the typed word in the dialog',
    );
    await page.keyboard.press('Escape');
    await eventually(
      () => page.locator(OPEN_DIALOG).count(),
      (count) => count === 0,
      'the dialog closed',
    );

    // Asked for again (its code is here now, so it opens at once) and given up: nothing stays behind.
    await page.keyboard.press('/');
    await eventually(
      () => page.locator(OPEN_DIALOG).count(),
      (count) => count === 1,
      'the dialog open again',
    );
    await page.keyboard.press('Escape');
    await eventually(
      () => page.locator(OPEN_DIALOG).count(),
      (count) => count === 0,
      'the dialog closed again',
    );
    expect(await page.locator('body > input.visually-hidden').count()).toBe(0);
  });

  it('Escape before the dialog has come gives it up: it never opens, and focus is back on the control', async () => {
    const { page } = await sessions.open({ viewport: 'desktop' });
    await visit(page, '/home');
    await searchReady(page);
    const dialog = await holdDialog(page);
    await page.locator('.side-panel a.search-link').click();
    await dialog.held;
    await page.keyboard.press('Escape');
    dialog.release();
    await page.waitForResponse(/\/assets\/SearchDialog-[^/]+\.js$/);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(await page.locator(OPEN_DIALOG).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.matches('.side-panel a.search-link') ?? false)).toBe(true);
    expect(await page.locator('body > input.visually-hidden').count()).toBe(0);
  });
});
