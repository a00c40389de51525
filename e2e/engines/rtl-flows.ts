/**
 * The visitor flows in a right-to-left language, in each browser engine (chromium.test.ts,
 * firefox.test.ts, webkit.test.ts call `describeRightToLeftFlows`): the README's Arabic example,
 * added to a copy of the project by its steps and built once for every suite (tools/locale-copy.ts
 * `fixtureSiteBuild`, which e2e/rtl.test.ts uses too), served by its own local stack and reached
 * through the engine's recording proxy. Phone menu, side panel, the fun-fact modal, a contact sent
 * with an Arabic name, the language switch both ways, and the 404 fallback turning right to left.
 * Chromium's deeper checks of the same build (axe, HTML, every page's `dir`, 320 px) are in
 * e2e/rtl.test.ts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../infra/local/stack';
import { startFakeSiteverify, type FakeSiteverify } from '../../tools/fake-siteverify';
import { fixtureSiteBuild } from '../../tools/locale-copy';
import { pages as arabicPages } from '../fixtures/ar/pages';
import { ui as arabic } from '../fixtures/ar/ui';
import { eventually } from '../support/browser';
import { localized, UNKNOWN_ROUTE } from '../support/site';
import { reachesPath, engineSession, type EngineName, type EnginePage, type EngineSession, type Target } from './engine';
import { attribute, axeViolations, hydrated, isShown, mainText, openContactWithFakeCaptcha, visibleMenuEntries } from './flows';
import { OPEN_DIALOG, searchOpenAndBack, showResults } from './search-flows';

const MENU_NAMES = Object.values(arabic.menu);
const MENU_BUTTON: Target = { css: 'button.menu-button', name: new RegExp(`^${arabic.menuButton}$`) };
const HEADSHOT: Target = { css: 'button', name: new RegExp(arabic.funFact.title) };
const FAKE_CAPTCHA: Target = { css: 'button[data-fake-recaptcha]' };
const SUBMIT = 'main button[type="submit"]';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const menuEntry = (name: string): Target => ({ css: 'a', name: new RegExp(`^${escape(name)}$`) });

const direction = (page: EnginePage) => page.evaluate(() => `${document.documentElement.lang} ${document.documentElement.dir}`);
const heading = (page: EnginePage) => page.evaluate(() => (document.querySelector('main h1')?.textContent ?? '').trim());
const rect = (page: EnginePage, css: string) =>
  page.evaluate((selector) => {
    const box = [...document.querySelectorAll(selector)].find((el) => el.getBoundingClientRect().width > 0)?.getBoundingClientRect();
    return box ? { left: box.left, right: box.right, width: box.width } : null;
  }, css);

/** The served copy with the right-to-left language (set by engineSession's setup). */
interface RtlSite {
  code: string;
  siteverify?: FakeSiteverify;
  stack?: LocalStack;
}

/** What the right-to-left flows share: the engine session, the site, and a visit to one of its pages. */
interface RtlFlows {
  session: EngineSession;
  site: RtlSite;
  visit(page: EnginePage, route: string): Promise<void>;
}

/** The phone menu, the side panel and the 404 fallback, mirrored. */
function layoutFlows({ session, site, visit }: RtlFlows): void {
  it('opens the phone menu from the button at the end of the bar (left), entries right-aligned, and a choice closes it', async () => {
    const page = await session.open({ viewport: 'phone' });
    await visit(page, '/home');
    expect(await direction(page)).toBe(`${site.code} rtl`);
    const width = await page.evaluate(() => document.documentElement.clientWidth);
    const brand = await rect(page, '.mobile-bar .brand');
    const toggle = await rect(page, MENU_BUTTON.css);
    // The name starts the bar on the right; the menu button ends it on the left.
    expect(toggle!.right).toBeLessThanOrEqual(brand!.left);
    expect(brand!.right).toBeGreaterThan(width - 40);
    expect(await visibleMenuEntries(page, MENU_NAMES)).toEqual([]);
    await page.click(MENU_BUTTON);
    await eventually(
      () => visibleMenuEntries(page, MENU_NAMES),
      (names) => names.length === MENU_NAMES.length,
      'menu entries shown',
    );
    await eventually(
      () => attribute(page, MENU_BUTTON.css, 'aria-expanded'),
      (v) => v === 'true',
      'aria-expanded true',
    );
    // Each entry's text ends at the right, where a right-to-left reader starts.
    const textRight = await page.evaluate((wanted) => {
      const link = [...document.querySelectorAll('a')].find((a) => a.getBoundingClientRect().width > 0 && a.textContent?.trim() === wanted);
      if (!link) return -1;
      const range = document.createRange();
      range.selectNodeContents(link);
      return range.getBoundingClientRect().right;
    }, arabic.menu.Projects);
    expect(textRight).toBeGreaterThan(width - 60);
    await page.click(menuEntry(arabic.menu.Projects));
    await reachesPath(page, localized(site.code, '/projects'), 'the projects page');
    await eventually(
      () => heading(page),
      (h) => h === arabic.projects.title,
      'the projects heading',
    );
    await eventually(
      () => visibleMenuEntries(page, MENU_NAMES),
      (names) => names.length === 0,
      'menu closed after choosing',
    );
    expect(await attribute(page, MENU_BUTTON.css, 'aria-expanded')).toBe('false');
  });

  it('puts the side panel on the right with the page beside it, follows its links, and turns the 404 fallback rtl once hydrated', async () => {
    const page = await session.open({ viewport: 'desktop' });
    await visit(page, '/projects');
    const [panel, main, pageRight] = await Promise.all([
      rect(page, '.side-panel'),
      rect(page, 'main'),
      // The page's right edge (Firefox may put the scrollbar on either side).
      page.evaluate(() => document.documentElement.getBoundingClientRect().right),
    ]);
    expect(Math.round(panel!.right)).toBe(Math.round(pageRight));
    expect(main!.right).toBeLessThanOrEqual(panel!.left + 1);
    // Arrows along the text turn (Read more ←).
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.read-more .direction-icon')!).transform)).toBe(
      'matrix(-1, 0, 0, 1, 0, 0)',
    );
    await page.click({ css: '.side-panel a', name: new RegExp(`^${escape(arabic.menu.About)}$`) });
    await reachesPath(page, localized(site.code, '/about'), 'the about page');
    await eventually(
      () => mainText(page),
      (t) => t.includes(arabic.about.letsChat),
      'the about text',
    );

    // One fallback page serves every language's unknown address: hydrated, it takes the language's direction.
    await visit(page, UNKNOWN_ROUTE);
    await eventually(
      () => direction(page),
      (d) => d === `${site.code} rtl`,
      'lang and dir set on the fallback page',
    );
    await eventually(
      () => heading(page),
      (h) => h === arabic.notFound.heading,
      'the Arabic not-found heading',
    );
  });
}

/** The fun-fact modal, and the switch to English and back. */
function modalAndLanguageFlows({ session, site, visit }: RtlFlows): void {
  it('opens the fun-fact modal from the headshot, its close button on the left, closes it each way and gives focus back', async () => {
    const page = await session.open({ viewport: 'desktop' });
    await visit(page, '/about');
    const ways: [string, () => Promise<void>][] = [
      ['Close', () => page.click({ css: '[role="dialog"] button', name: new RegExp(`^${escape(arabic.funFact.close)}$`) })],
      ['Got it', () => page.click({ css: '[role="dialog"] button', name: new RegExp(`^${escape(arabic.funFact.gotIt)}$`) })],
      ['Escape', () => page.press('Escape')],
      // The backdrop, at the corner over the side panel.
      ['backdrop', async () => page.clickAt((await page.evaluate(() => innerWidth)) - 8, (await page.evaluate(() => innerHeight)) - 8)],
    ];
    for (const [way, close] of ways) {
      await page.click(HEADSHOT);
      await eventually(() => isShown(page, '[role="dialog"]'), Boolean, `dialog open before ${way}`);
      if (way === 'Close') {
        const [card, button] = await Promise.all([rect(page, '[role="dialog"]'), rect(page, '[role="dialog"] button')]);
        expect(button!.left - card!.left, 'the close button at the start of the line: the left').toBeLessThan(card!.width / 4);
      }
      await eventually(
        () => page.evaluate(() => Boolean(document.querySelector('[role="dialog"]')?.contains(document.activeElement))),
        Boolean,
        `focus inside (${way})`,
      );
      await close();
      await eventually(
        () => isShown(page, '[role="dialog"]'),
        (shown) => !shown,
        `dialog closed by ${way}`,
      );
      await eventually(
        () => page.evaluate(() => document.activeElement?.textContent ?? ''),
        (label) => label.includes(arabic.funFact.title),
        `focus back on the headshot after ${way}`,
      );
    }
  });

  it('switches to English and back with the switcher, each page in its own direction', async () => {
    const page = await session.open({ viewport: 'desktop' });
    await visit(page, '/about');
    expect(await attribute(page, '.side-panel a.language-link[lang="en"]', 'dir')).toBe('ltr');
    await page.click({ css: '.side-panel a.language-link[lang="en"]' });
    await reachesPath(page, '/about');
    await eventually(
      () => direction(page),
      (d) => d === 'en ltr',
      'the English page, left to right',
    );
    await hydrated(page);
    const back = `.side-panel a.language-link[lang="${site.code}"]`;
    expect(await attribute(page, back, 'dir')).toBe('rtl');
    // Its own name, right to left, inside the left-to-right panel.
    expect(await page.evaluate((css) => getComputedStyle(document.querySelector(css)!).direction, back)).toBe('rtl');
    await page.click({ css: back });
    await reachesPath(page, localized(site.code, '/about'), 'back to the Arabic page');
    await eventually(
      () => direction(page),
      (d) => d === `${site.code} rtl`,
      'the Arabic page, right to left',
    );
    await hydrated(page);
    expect(await heading(page)).toBe(arabic.about.heading);
  });
}

/** A contact sent with an Arabic name, its messages in Arabic. */
function contactFlows({ session, site, visit }: RtlFlows): void {
  it('sends an Arabic name from the contact form, its messages in Arabic, the e-mail field left to right', async () => {
    const page = await session.open({ viewport: 'phone' });
    await openContactWithFakeCaptcha(session, page, {
      visit,
      menuNames: MENU_NAMES,
      contactName: arabic.menu.Contact,
      contactPath: localized(site.code, '/contact'),
    });
    expect(await attribute(page, 'main input[name="email"]', 'dir')).toBe('ltr');
    expect(await attribute(page, 'main input[name="fullName"]', 'dir')).toBe('auto');
    expect(await attribute(page, 'main textarea[name="message"]', 'dir')).toBe('auto');
    const solveCaptcha = async () => {
      await page.click(FAKE_CAPTCHA);
      await eventually(
        () => page.evaluate((css) => !(document.querySelector(css) as HTMLButtonElement).disabled, SUBMIT),
        Boolean,
        'Send enabled',
      );
    };
    // One name alone is not a full name: the form says so in Arabic.
    await page.fill({ css: 'main input[name="fullName"]' }, 'محمد');
    await page.fill({ css: 'main input[name="email"]' }, 'm@example.com');
    await page.fill({ css: 'main textarea[name="message"]' }, 'مرحبا، أود التحدث عن مشروع.');
    await solveCaptcha();
    await page.click({ css: SUBMIT });
    await eventually(
      () => mainText(page),
      (t) => t.includes(arabic.contact.invalidName),
      arabic.contact.invalidName,
    );
    const marker = `rtl-${session.engine.name}-${Date.now()}`;
    await page.fill({ css: 'main input[name="fullName"]' }, 'فاطمة الزهراء');
    await page.fill({ css: 'main textarea[name="message"]' }, `مرحبا، أود التحدث عن مشروع React. ${marker}`);
    if (!(await page.evaluate((css) => !(document.querySelector(css) as HTMLButtonElement).disabled, SUBMIT))) await solveCaptcha();
    await page.click({ css: SUBMIT });
    await eventually(
      () => mainText(page),
      (t) => t.includes(arabic.contact.sent),
      arabic.contact.sent,
      15_000,
    );
    const mails = await eventually(
      async () => {
        const store = (await (await fetch(`${site.stack!.sesUrl}/store`)).json()) as {
          emails: { subject: string; body: { text?: string } }[];
        };
        return store.emails.filter((mail) => (mail.body.text ?? '').includes(marker));
      },
      (found) => found.length === 1,
      'the mail in the mailbox',
      10_000,
    );
    expect(mails[0]?.subject).toContain('فاطمة الزهراء');
  });
}

/** Registers the right-to-left flows for one engine, one page at a time. */
function searchFlows({ session, site, visit }: RtlFlows): void {
  it('search finds an Arabic word and a technology, in a right-to-left dialog that axe passes', async () => {
    const page = await session.open({ viewport: 'desktop' });
    await visit(page, '/home');
    const home = localized(site.code, '/home');
    await searchOpenAndBack(page, home, 'control', {
      query: 'ترميم',
      title: arabic.menu.Projects,
      path: localized(site.code, '/projects'),
      shows: arabicPages.projects.intro,
    });
    // The projects are not translated in the example: a technology finds the copied (Spanish) one.
    await searchOpenAndBack(page, home, 'shortcut', {
      query: 'graphql',
      title: 'Aplicación de diario gastronómico',
      path: localized(site.code, '/projects/4'),
      shows: 'GraphQL',
    });
    await showResults(page, 'graphql', 'Aplicación de diario gastronómico');
    expect(await page.evaluate((css) => getComputedStyle(document.querySelector(css)!).direction, OPEN_DIALOG)).toBe('rtl');
    expect(await axeViolations(page)).toEqual([]);
  }, 180_000);
}

export function describeRightToLeftFlows(name: EngineName): void {
  describe(`visitor flows in a right-to-left language in ${name}`, () => {
    const site: RtlSite = { code: '' };
    // Inside the describe: the build and the stack start when these flows do (the browser with the first suite).
    const session = engineSession(name, {
      setup: async () => {
        const build = await fixtureSiteBuild();
        site.code = build.rtl;
        site.siteverify = await startFakeSiteverify();
        const clientDir = path.join(build.dir, 'web/build/client');
        site.stack = await startLocalStack({
          port: 0,
          sesPort: 0,
          clientDir,
          recaptchaVerifyUrl: site.siteverify.url,
          recaptchaSecret: 'rtl-flows-secret',
          quiet: true,
        });
      },
      teardown: async () => {
        await site.stack?.stop();
        await site.siteverify?.stop();
      },
      timeout: 300_000,
    });
    const visit = async (page: EnginePage, route: string) => {
      await page.goto(`${site.stack!.url}${localized(site.code, route)}`);
      await hydrated(page);
    };
    layoutFlows({ session, site, visit });
    modalAndLanguageFlows({ session, site, visit });
    contactFlows({ session, site, visit });
    searchFlows({ session, site, visit });
  });
}
