/**
 * A right-to-left language, added to a copy of the project by web/content/README.md's steps (the
 * README's Arabic example, with Arabic interface strings and page texts laid over the copied ones:
 * tools/locale-copy.ts), built, and served by its own local stack. In Chromium: `lang` and `dir` on
 * every page before any script and after hydration, axe on every page both ways, 0 HTML errors, the
 * mirrored layout (side panel, menu, buttons and arrows on the reading side; no horizontal scroll at
 * 320 and 390 px). The visitor flows on the same build (menu, panel, modal, contact send, language
 * switch both ways) run in every engine, Chromium included: e2e/engines/rtl-flows.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../infra/local/stack';
import { htmlErrors } from '../tools/html-conformance';
import { startFakeSiteverify, type FakeSiteverify } from '../tools/fake-siteverify';
import { fixtureSiteBuild } from '../tools/locale-copy';
import { ui as arabic } from './fixtures/ar/ui';
import { axeViolations } from './support/axe';
import { eventually, launchBrowser, openSession, waitForHydration, type Session, type SessionOptions } from './support/browser';
import { holdScripts, ownScriptsArrived } from './support/hold-scripts';
import { KNOWN_ROUTES, localized, UNKNOWN_ROUTE } from './support/site';

let copy = '';
let code = '';
let stack: LocalStack;
let siteverify: FakeSiteverify;
let browser: Browser;
const sessions: Session[] = [];

beforeAll(async () => {
  // Built once for this suite and the engines' (e2e/engines/rtl-flows.ts), kept while nothing changes.
  ({ rtl: code, dir: copy } = await fixtureSiteBuild());
  siteverify = await startFakeSiteverify();
  stack = await startLocalStack({
    port: 0,
    sesPort: 0,
    clientDir: path.join(copy, 'web/build/client'),
    recaptchaVerifyUrl: siteverify.url,
    recaptchaSecret: 'rtl-test-secret',
    quiet: true,
  });
  browser = await launchBrowser();
}, 180_000);

// Each test's pages close when it ends: a page left open keeps Chromium working (its animations, its
// timers) through the rest of the file, about a third of this file's CPU time when they were all kept.
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close().catch(() => undefined)));
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await siteverify?.stop();
});

/** Every page of the language, and an unknown address under its prefix (the 404 fallback). */
const routes = () => [...KNOWN_ROUTES.map((route) => localized(code, route)), localized(code, UNKNOWN_ROUTE)];

async function open(options: SessionOptions & { width?: number } = {}): Promise<Page> {
  const session = await openSession(browser, options);
  sessions.push(session);
  session.allowConsoleError(/status of 404/);
  if (options.width) await session.page.setViewportSize({ width: options.width, height: 800 });
  return session.page;
}

/** Opens a path of the copy's stack; with scripts, waits for hydration. */
async function go(page: Page, route: string, { hydrate = true } = {}): Promise<number> {
  const response = await page.goto(`${stack.url}${route}`, { waitUntil: 'load' });
  if (hydrate) await waitForHydration(page);
  return response?.status() ?? 0;
}

const htmlDirection = (page: Page) => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);

describe('a right-to-left language added by the README steps', () => {
  it('has lang and dir on every page without scripts; the 404 fallback gives each language its own', async () => {
    const page = await open({ javaScriptEnabled: false, viewport: 'phone' });
    for (const route of routes()) {
      await go(page, route, { hydrate: false });
      if (route.endsWith(UNKNOWN_ROUTE)) {
        // One fallback page serves every language's unknown addresses: its words say which with `lang` and `dir`.
        expect(await page.locator(`.fallback-page__language[lang="${code}"]`).getAttribute('dir')).toBe('rtl');
        expect(await page.locator('.fallback-page__language[lang="en"]').getAttribute('dir')).toBe('ltr');
        await expect(page.locator(`.fallback-page__language[lang="${code}"] a`).textContent()).resolves.toBe(arabic.notFound.goHome);
      } else {
        expect(await htmlDirection(page), route).toEqual([code, 'rtl']);
      }
    }
  });

  it('passes axe on every page before its scripts arrive (held back), with lang and dir already there', async () => {
    const found: string[] = [];
    // One page for every route: its scripts are held and never let through, so none of them runs
    // (a page left with its scripts waiting takes those requests along, never continued).
    const page = await open({ viewport: 'desktop' });
    const scripts = await holdScripts(page);
    for (const route of routes()) {
      const url = `${stack.url}${route}`;
      const heldBefore = scripts.heldFor(url);
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      await page.locator('main, .page-placeholder').first().waitFor({ state: 'visible' });
      await expect.poll(() => scripts.heldFor(url), { timeout: 10_000 }).toBeGreaterThan(heldBefore);
      if (!route.endsWith(UNKNOWN_ROUTE)) expect(await htmlDirection(page), route).toEqual([code, 'rtl']);
      for (const v of await axeViolations(page)) found.push(`${route}: ${v}`);
      expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
      expect(await ownScriptsArrived(page), route).toBe(0);
    }
    expect(found, found.join('\n')).toEqual([]);
  }, 120_000);

  it('has lang and dir on every page after hydration (the 404 fallback included), and axe finds nothing', async () => {
    const page = await open({ viewport: 'desktop', colorScheme: 'dark' });
    const found: string[] = [];
    for (const route of routes()) {
      const status = await go(page, route);
      expect(status, route).toBe(route.endsWith(UNKNOWN_ROUTE) ? 404 : 200);
      expect(await htmlDirection(page), route).toEqual([code, 'rtl']);
      await page.locator('.cookie-banner').waitFor({ timeout: 5_000 });
      for (const v of await axeViolations(page)) found.push(`${route}: ${v}`);
    }
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(arabic.notFound.heading);
    expect(found, found.join('\n')).toEqual([]);
  }, 120_000);

  it('has 0 HTML errors on every page of the language and on the 404 fallback', async () => {
    const client = path.join(copy, 'web/build/client');
    const pages = [
      '__spa-fallback.html',
      ...readdirSync(path.join(client, code), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.html'))
        .map((f) => path.join(code, f)),
    ];
    expect(pages.length).toBeGreaterThanOrEqual(KNOWN_ROUTES.length + 1);
    const errors: string[] = [];
    for (const name of pages) errors.push(...(await htmlErrors(readFileSync(path.join(client, name), 'utf8'), name)));
    expect(errors, errors.join('\n')).toEqual([]);
  });

  it('mirrors the desktop layout: the side panel on the right, its mark on the right edge, scroll-to-top on the left', async () => {
    const page = await open({ viewport: 'desktop' });
    await go(page, localized(code, '/projects'));
    const width = page.viewportSize()!.width;
    const panel = (await page.locator('.side-panel').boundingBox())!;
    expect(Math.round(panel.x + panel.width)).toBe(width);
    const main = (await page.locator('main').boundingBox())!;
    expect(main.x + main.width).toBeLessThanOrEqual(panel.x + 1);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.menu-link.active')!).boxShadow)).toMatch(
      / -3px 0px 0px 0px inset$/,
    );
    // Arrows that point along the text turn; the headshot and the video poster do not.
    expect(
      await page
        .locator('.read-more .direction-icon')
        .first()
        .evaluate((el) => getComputedStyle(el).transform),
    ).toBe('matrix(-1, 0, 0, 1, 0, 0)');
    expect(await page.locator('.headshot').evaluate((el) => getComputedStyle(el).transform)).toBe('none');
    expect(
      await page
        .locator('.video-poster')
        .first()
        .evaluate((el) => getComputedStyle(el).transform),
    ).toBe('none');
    // The technology list reads left to right inside the right-to-left card.
    expect(
      await page
        .locator('.facts bdi')
        .first()
        .evaluate((el) => getComputedStyle(el).direction),
    ).toBe('ltr');
    await page.mouse.wheel(0, 2000);
    const fab = page.locator('.scroll-top-fab');
    await fab.waitFor();
    const box = (await fab.boundingBox())!;
    // At the end of the line, the left edge (1.75rem from it), away from the panel.
    expect(Math.round(box.x)).toBe(28);
    // The same arrow on the default language's page is not turned.
    await go(page, '/projects');
    expect(
      await page
        .locator('.read-more .direction-icon')
        .first()
        .evaluate((el) => getComputedStyle(el).transform),
    ).toBe('none');
  });

  it('isolates a blog title left in another language, and on paper the address after a link', async () => {
    const page = await open({ viewport: 'desktop' });
    await go(page, localized(code, '/blogs'));
    // The copied language's (Latin) titles: each reads left to right inside the right-to-left card, which keeps its side.
    const card = page.locator('.blog-card .card-title').last();
    expect(await card.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    const title = card.locator('bdi');
    expect(await title.textContent()).toMatch(/^[\p{Script=Latin}\p{N}\p{P}\p{Zs}]+$/u);
    expect(await title.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
    const [cardBox, titleBox] = [(await card.boundingBox())!, (await title.boundingBox())!];
    expect(Math.abs(cardBox.x + cardBox.width - (titleBox.x + titleBox.width))).toBeLessThan(2);
    await go(page, localized(code, '/about'));
    await page.emulateMedia({ media: 'print' });
    const after = await page
      .locator('main a[href^="http"]')
      .first()
      .evaluate((el) => {
        const style = getComputedStyle(el, '::after');
        return [style.content, style.direction, style.unicodeBidi];
      });
    expect(after[0]).toMatch(/\(https?:|attr\(href\)/);
    expect(after.slice(1)).toEqual(['ltr', 'isolate']);
  });

  for (const width of [320, 390]) {
    it(`has no horizontal scroll at ${width} px on any page, and its phone menu opens on the reading side and closes on a choice`, async () => {
      const page = await open({ viewport: 'phone', width });
      for (const route of routes()) {
        await go(page, route);
        const [scrollWidth, clientWidth] = await page.evaluate(() => [
          document.documentElement.scrollWidth,
          document.documentElement.clientWidth,
        ]);
        expect(scrollWidth, `${route} at ${width} px`).toBeLessThanOrEqual(clientWidth);
      }
      await go(page, localized(code, '/home'));
      const brand = (await page.locator('.mobile-bar .brand').boundingBox())!;
      const toggle = page.getByRole('button', { name: arabic.menuButton });
      const toggleBox = (await toggle.boundingBox())!;
      // The name starts on the right, the menu button ends the bar on the left.
      expect(toggleBox.x).toBeLessThan(brand.x);
      expect(brand.x + brand.width).toBeGreaterThan(width - 40);
      await toggle.click();
      const entry = page.getByRole('link', { name: arabic.menu.Projects }).filter({ visible: true });
      await entry.waitFor();
      const entryText = await entry.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return range.getBoundingClientRect().right;
      });
      expect(entryText).toBeGreaterThan(width - 60);
      await entry.click();
      await page.waitForURL(`${stack.url}${localized(code, '/projects')}`);
      await eventually(
        () => toggle.getAttribute('aria-expanded'),
        (v) => v === 'false',
        'the menu closed',
      );
      await eventually(
        () => page.getByRole('heading', { level: 1 }).textContent(),
        (t) => t === arabic.projects.title,
        'the projects page',
      );
    });
  }
});
