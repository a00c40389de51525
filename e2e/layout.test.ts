import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventually, scrollY, visit, textOf, type SessionOptions } from './support/browser';
import { MENU_ENTRIES, normalize, SCROLL_THRESHOLD_PX, TEXT } from './support/site';
import { useBrowserSessions } from './support/sessions';

const sessions = useBrowserSessions();

/** A page for the test, in the session the previous test left when the options allow (sessions.ts). */
async function open(options: SessionOptions = {}): Promise<Page> {
  return (await sessions.reuse(options)).page;
}

/** The visible menu entry links, wherever the layout shows them. */
function visibleEntry(page: Page, name: string): Locator {
  return page.getByRole('link', { name, exact: true }).filter({ visible: true });
}

function menuToggle(page: Page): Locator {
  return page.getByRole('button', { name: /menu/i }).filter({ visible: true });
}

function headshot(page: Page): Locator {
  return page.getByRole('button', { name: /fun fact/i }).filter({ visible: true });
}

/** The floating scroll-to-top button of the layout (not the one under the projects grid). */
function floatingTop(page: Page): Locator {
  return page.getByRole('button', { name: /top/i }).filter({ visible: true });
}

async function focusedDescription(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName}:${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}` : 'none';
  });
}

describe('mobile layout (390x844)', () => {
  it('has a top bar with the owner name and a menu that opens, links each entry and closes on choice', async () => {
    const page = await open({ viewport: 'phone' });
    await visit(page, '/home');
    const toggle = menuToggle(page);
    await expect(toggle.count()).resolves.toBe(1);
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    // Closed: no menu entry is visible in the top bar.
    for (const entry of MENU_ENTRIES) await expect(visibleEntry(page, entry).count(), entry).resolves.toBe(0);

    await toggle.click();
    // aria-expanded follows the popover's toggle event, which the browser queues as a task after the click.
    await eventually(
      () => toggle.getAttribute('aria-expanded'),
      (v) => v === 'true',
      'menu open',
    );
    for (const entry of MENU_ENTRIES) {
      await expect(visibleEntry(page, entry).getAttribute('href'), entry).resolves.toBe(`/${entry.toLowerCase()}`);
    }
    await visibleEntry(page, 'About').click();
    await page.waitForURL(/\/about$/);
    await eventually(
      () => toggle.getAttribute('aria-expanded'),
      (v) => v === 'false',
      'menu closed',
    );
    for (const entry of MENU_ENTRIES) {
      await eventually(
        () => visibleEntry(page, entry).count(),
        (n) => n === 0,
        `${entry} hidden after choosing`,
      );
    }
    // Every entry navigates to its lowercase path.
    for (const entry of MENU_ENTRIES) {
      await toggle.click();
      await visibleEntry(page, entry).click();
      await page.waitForURL((url) => url.pathname === `/${entry.toLowerCase()}`);
      await eventually(
        () => toggle.getAttribute('aria-expanded'),
        (v) => v === 'false',
        'menu closed',
      );
    }
  });

  it('keeps the top bar as it is when the menu opens: same name, search and toggle boxes', async () => {
    const page = await open({ viewport: 'phone' });
    await visit(page, '/es/home');
    const boxes = () =>
      page.evaluate(() =>
        ['.mobile-bar .brand', '.mobile-bar .search-link', '.mobile-bar .menu-button'].map((selector) => {
          const box = document.querySelector(selector)!.getBoundingClientRect();
          return `${selector} ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}x${Math.round(box.height)}`;
        }),
      );
    const closed = await boxes();
    const toggle = page.locator('.mobile-bar .menu-button');
    await toggle.click();
    await eventually(
      () => toggle.getAttribute('aria-expanded'),
      (v) => v === 'true',
      'menu open',
    );
    expect(await boxes()).toEqual(closed);
  });

  it('shows a footer with the current year and a rights notice (in the top bar or its menu)', async () => {
    const page = await open({ viewport: 'phone' });
    await visit(page, '/home');
    const year = String(new Date().getFullYear());
    const footer = page.getByText(new RegExp(`${year}.*rights|rights.*${year}`, 'i')).filter({ visible: true });
    // The footer may sit inside the mobile menu: open it when the footer is not on screen.
    if ((await footer.count()) === 0) await menuToggle(page).click();
    await expect(footer.count()).resolves.toBeGreaterThanOrEqual(1);
  });
});

describe('desktop layout (1440x900)', () => {
  it('has a side panel with the name, headshot, role, badges, menu entries and an external profile link', async () => {
    const page = await open({ viewport: 'desktop' });
    await visit(page, '/home');
    await expect(menuToggle(page).count(), 'no menu toggle on desktop').resolves.toBe(0);
    await expect(headshot(page).count()).resolves.toBe(1);
    await expect(headshot(page).locator('img').count()).resolves.toBeGreaterThanOrEqual(1);
    for (const entry of MENU_ENTRIES) {
      await expect(visibleEntry(page, entry).getAttribute('href'), entry).resolves.toBe(`/${entry.toLowerCase()}`);
    }
    const panel = headshot(page).locator('xpath=ancestor::*[.//a[@target="_blank"]][1]');
    const profile = panel.locator('a[target="_blank"][href^="https://"]').filter({ visible: true }).first();
    await expect(profile.getAttribute('rel')).resolves.toMatch(/noopener/);
    const [popup] = await Promise.all([page.waitForEvent('popup'), profile.click()]);
    await popup.close();
    await eventually(
      () => sessions.current.clickEvents(),
      (n) => n.includes('SIDEBAR_LINKEDIN_CLICK'),
      'SIDEBAR_LINKEDIN_CLICK',
    );
    const year = String(new Date().getFullYear());
    const footer = page.getByText(new RegExp(`${year}.*rights|rights.*${year}`, 'i')).filter({ visible: true });
    await expect(footer.count()).resolves.toBeGreaterThanOrEqual(1);
  });

  it('sends SIDEBAR_NAV_{MENU} for each menu entry', async () => {
    const page = await open({ viewport: 'desktop' });
    await visit(page, '/home');
    for (const entry of MENU_ENTRIES) {
      await visibleEntry(page, entry).click();
      await page.waitForURL((url) => url.pathname === `/${entry.toLowerCase()}`);
    }
    const expected = MENU_ENTRIES.map((e) => `SIDEBAR_NAV_${e.toUpperCase()}`);
    await eventually(
      () => sessions.current.clickEvents(),
      (n) => expected.every((e) => n.includes(e)),
      expected.join(', '),
    );
    // Beacons reach the real events handler, which accepts them.
    const response = await page.request.post(new URL('/api/events', page.url()).toString(), {
      data: { name: 'SIDEBAR_NAV_PROJECTS' },
    });
    expect(response.status()).toBe(204);
  });

  it('opens the fun-fact modal from the headshot and closes it each way, giving focus back', async () => {
    const page = await open({ viewport: 'desktop' });
    await visit(page, '/about');
    const dialog = page.getByRole('dialog');
    const ways: [string, () => Promise<void>][] = [
      ['Close', () => dialog.getByRole('button', { name: 'Close', exact: true }).click()],
      ['Got it!', () => dialog.getByRole('button', { name: TEXT.gotIt }).click()],
      ['Escape', () => page.keyboard.press('Escape')],
      // The backdrop: a point in the viewport's corner, outside the dialog's panel.
      ['backdrop', () => page.mouse.click(8, 892)],
    ];
    for (const [way, close] of ways) {
      await headshot(page).click();
      await eventually(() => dialog.isVisible(), Boolean, `open before ${way}`);
      expect(normalize(await textOf(dialog)).length).toBeGreaterThan(20);
      const focusInside = await dialog.evaluate((el) => el.contains(document.activeElement));
      expect(focusInside, `focus moves into the dialog (${way})`).toBe(true);
      await close();
      await eventually(
        () => dialog.isVisible(),
        (v) => !v,
        `dialog closed by ${way}`,
      );
      await eventually(
        () => focusedDescription(page),
        (d) => /fun fact/i.test(d),
        `focus back on the headshot after ${way}`,
      );
    }
  });

  it('keeps focus inside the open modal while tabbing', async () => {
    const page = await open({ viewport: 'desktop' });
    await visit(page, '/home');
    await headshot(page).click();
    const dialog = page.getByRole('dialog');
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(await dialog.evaluate((el) => el.contains(document.activeElement)), `focus inside after ${key}`).toBe(true);
    }
  });

  it('picks the fun fact at random from five', async () => {
    const page = await open({ viewport: 'desktop' });
    await visit(page, '/home');
    const dialog = page.getByRole('dialog');
    const facts = new Set<string>();
    for (let i = 0; i < 20; i++) {
      await headshot(page).click();
      facts.add(normalize(await textOf(dialog)));
      await page.keyboard.press('Escape');
      await eventually(
        () => dialog.isVisible(),
        (v) => !v,
        'dialog closed',
      );
    }
    // 20 uniform picks from 5 give a single fact with probability 5 / 5^20.
    expect(facts.size).toBeGreaterThanOrEqual(2);
    expect(facts.size).toBeLessThanOrEqual(5);
  });
});

describe('scroll-to-top', () => {
  it.each(['phone', 'desktop'] as const)('appears past 300 px and returns to the top (%s)', async (viewport) => {
    const page = await open({ viewport });
    await visit(page, '/privacy-policy');
    expect(await scrollY(page)).toBe(0);
    await expect(floatingTop(page).count(), 'hidden at the top').resolves.toBe(0);
    await page.evaluate((y) => window.scrollTo(0, y), SCROLL_THRESHOLD_PX - 100);
    await page.waitForTimeout(250);
    await expect(floatingTop(page).count(), 'hidden at 200 px').resolves.toBe(0);
    await page.evaluate((y) => window.scrollTo(0, y), SCROLL_THRESHOLD_PX + 300);
    await eventually(
      () => floatingTop(page).count(),
      (n) => n === 1,
      'button shown past 300 px',
    );
    await floatingTop(page).click();
    // Smooth: the page passes through intermediate positions before reaching the top.
    await eventually(
      () => scrollY(page),
      (y) => y === 0,
      'back at the top',
      5_000,
    );
    await eventually(
      () => floatingTop(page).count(),
      (n) => n === 0,
      'button hidden again at the top',
    );
  });

  it('scrolls instantly for visitors who prefer reduced motion', async () => {
    const page = await open({ viewport: 'desktop', reducedMotion: 'reduce' });
    await visit(page, '/privacy-policy');
    await page.evaluate(() => window.scrollTo(0, 2000));
    await eventually(
      () => floatingTop(page).count(),
      (n) => n === 1,
      'button shown',
    );
    await floatingTop(page).click();
    await eventually(
      () => scrollY(page),
      (y) => y === 0,
      'at the top',
      300,
    );
  });

  it('scrolls smoothly when motion is allowed', async () => {
    const page = await open({ viewport: 'desktop' });
    await visit(page, '/privacy-policy');
    await page.evaluate(() => window.scrollTo(0, 3000));
    const start = await scrollY(page);
    expect(start).toBeGreaterThan(1000);
    await eventually(
      () => floatingTop(page).count(),
      (n) => n === 1,
      'button shown',
    );
    // Sample scrollY each frame after the click: a smooth scroll shows positions between start and 0.
    const samples = await page.evaluate(async () => {
      const button = [...document.querySelectorAll('button')].find(
        (b) => /top/i.test(b.getAttribute('aria-label') ?? b.textContent ?? '') && b.checkVisibility(),
      );
      if (!button) return [];
      const seen: number[] = [];
      button.click();
      for (let i = 0; i < 30; i++) {
        await new Promise((r) => requestAnimationFrame(r));
        seen.push(window.scrollY);
      }
      return seen;
    });
    expect(
      samples.some((y) => y > 0 && y < start),
      JSON.stringify(samples),
    ).toBe(true);
  });
});
