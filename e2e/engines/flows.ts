/**
 * The visitor flows, written once and run in each browser engine (chromium.test.ts, firefox.test.ts,
 * webkit.test.ts call `describeVisitorFlows`). They use only the driver-neutral EnginePage, and
 * observe the network through the recording proxy, so they hold for classic WebDriver too.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, inject, it } from 'vitest';
import { ANALYTICS_HOST, baseUrl, eventually } from '../support/browser';
import { CONSENT_KEY, KNOWN_ROUTES, MENU_ENTRIES, SCROLL_THRESHOLD_PX, TEXT, VISITOR_ROUTES, normalize } from '../support/site';
import { reachesPath, pathOf, engineSession, type EngineName, type EnginePage, type EngineSession, type Target } from './engine';
import { FAKE_RECAPTCHA_JS } from '../support/fakes';
import type { Network, SeenRequest } from './network';
import { checkVitalsBeacon } from '../../contract/vitals';
import { LOCALE_CODES } from '../../web/content/locales';

/** The page background of each theme (global.css: --color-bg). */
export const BACKGROUND = { light: 'rgb(245, 247, 251)', dark: 'rgb(11, 18, 32)' } as const;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const MENU_BUTTON: Target = { css: 'button.menu-button' };
const HEADSHOT: Target = { css: 'button', name: /fun fact/i };
const BANNER_TOGGLE: Target = { css: '.cookie-banner button[aria-expanded]' };
const ACCEPT: Target = { css: '.cookie-banner button', name: /^Accept$/ };
const FLOATING_TOP: Target = { css: 'button.scroll-top-fab' };
const FAKE_CAPTCHA: Target = { css: 'button[data-fake-recaptcha]' };

function menuEntry(name: string): Target {
  return { css: 'a', name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) };
}

function hostOf(url: string): string {
  return new URL(url).hostname;
}

/**
 * Waits until React has hydrated the page (the layout marks `<html data-hydrated>`), then two frames.
 * The page itself waits for the mark, up to a second a call, and then for the frames: fewer round
 * trips than a poll from outside.
 */
export async function hydrated(page: EnginePage): Promise<void> {
  const marked = async () => {
    for (let waited = 0; document.documentElement.dataset.hydrated !== 'true'; waited += 50) {
      if (waited >= 1_000) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return true;
  };
  await eventually(() => page.evaluate(marked), Boolean, 'hydration', 15_000);
}

async function visit(page: EnginePage, path: string): Promise<void> {
  await page.goto(`${baseUrl()}${path}`);
  await hydrated(page);
}

export function mainText(page: EnginePage): Promise<string> {
  return page.evaluate(() => (document.querySelector('main')?.textContent ?? '').replace(/\s+/g, ' ').trim());
}

/** Whether an element is rendered and visible (not in a closed popover, not hidden). */
export function isShown(page: EnginePage, css: string): Promise<boolean> {
  return page.evaluate((selector) => {
    const el = document.querySelector(selector);
    if (!el) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  }, css);
}

export function attribute(page: EnginePage, css: string, name: string): Promise<string | null> {
  return page.evaluate(([selector, attr]) => document.querySelector(selector)?.getAttribute(attr) ?? null, [css, name] as const);
}

function scrollY(page: EnginePage): Promise<number> {
  return page.evaluate(() => Math.round(window.scrollY));
}

function background(page: EnginePage): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

function stored(page: EnginePage, key: string): Promise<string | null> {
  return page.evaluate((k) => localStorage.getItem(k), key);
}

/** Names of the menu entries a visitor can see now. */
export function visibleMenuEntries(page: EnginePage, names: readonly string[]): Promise<string[]> {
  return page.evaluate((wanted) => {
    return [...document.querySelectorAll('a')]
      .filter((a) => {
        const box = a.getBoundingClientRect();
        const popover = a.closest('[popover]');
        return box.width > 0 && box.height > 0 && !a.closest('[hidden]') && (!popover || popover.matches(':popover-open'));
      })
      .map((a) => (a.textContent ?? '').trim())
      .filter((text) => wanted.includes(text));
  }, names);
}

/** Names of the click events the page POSTed to /api/events, as the proxy saw them. */
export function clickEvents(network: Network): string[] {
  return network.requests
    .filter((r) => r.method === 'POST' && pathOf(r.url) === '/api/events')
    .map((r) => {
      try {
        return String((JSON.parse(r.body) as { name?: unknown }).name);
      } catch {
        return '';
      }
    });
}

/** The page views the page POSTed to /api/vitals, as the proxy saw them. */
function pageViews(network: Network): Record<string, unknown>[] {
  return network.requests
    .filter((r) => r.method === 'POST' && pathOf(r.url) === '/api/vitals')
    .map((r) => {
      try {
        return JSON.parse(r.body) as Record<string, unknown>;
      } catch {
        return {};
      }
    });
}

function analyticsRequests(network: Network): SeenRequest[] {
  return network.requests.filter((r) => ANALYTICS_HOST.test(hostOf(r.url)));
}

function gtagRequests(network: Network): SeenRequest[] {
  return network.requests.filter((r) => hostOf(r.url) === 'www.googletagmanager.com' && pathOf(r.url) === '/gtag/js');
}

/** The gtag.js script elements the page added (what makes the browser ask for it). */
function gtagScripts(page: EnginePage): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLScriptElement>('script[src^="https://www.googletagmanager.com/gtag/js"]')].map((s) => s.src),
  );
}

async function titleInHtml(path: string): Promise<string> {
  const html = await (await fetch(`${baseUrl()}${path}`)).text();
  return (
    /<title>([^<]*)<\/title>/
      .exec(html)?.[1]
      ?.trim()
      .replace(/&amp;/g, '&')
      .replace(/&#x27;/g, "'") ?? ''
  );
}

function uniqueLastName(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let out = '';
  for (let i = 0; i < 8; i++) out += letters[Math.floor(Math.random() * letters.length)];
  return out.charAt(0).toUpperCase() + out.slice(1);
}

async function mailsContaining(marker: string): Promise<{ subject: string; replyTo: string[]; body: { text?: string } }[]> {
  const store = (await (await fetch(`${inject('sesUrl')}/store`)).json()) as {
    emails: { subject: string; replyTo: string[]; body: { text?: string } }[];
  };
  return store.emails.filter((mail) => `${mail.subject}\n${mail.body.text ?? ''}`.includes(marker));
}

/** axe-core's violations on the settled page (axe injected as a plain script: it works over any driver). */
export async function axeViolations(page: EnginePage): Promise<string[]> {
  await eventually(
    () => page.evaluate(() => document.getAnimations().every((a) => a.playState !== 'running')),
    Boolean,
    'animations finished',
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.run(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
  });
}

/** How far down the old page a navigation starts from in the scroll flows. */
const FAR_DOWN_PX = 1000;

interface ScrollFrames {
  /** scrollY when the click reached the page (the driver may scroll a target into view first). */
  atClick: number | null;
  /** From the click on, each frame: which page's heading was in the document ('old', the one scrolled down, or 'new') and scrollY. */
  frames: { page: 'old' | 'new'; y: number }[];
}

/**
 * Scrolls the page to FAR_DOWN_PX and starts recording, on every animation frame after the next
 * click, which page is in the document (by its `<h1>`) and the scroll position: what the visitor
 * saw, frame by frame, from the moment they clicked.
 */
async function scrollFarDownAndRecord(page: EnginePage): Promise<void> {
  await page.evaluate((y) => window.scrollTo(0, y), FAR_DOWN_PX);
  await eventually(
    () => scrollY(page),
    (y) => y === FAR_DOWN_PX,
    `scrolled to ${FAR_DOWN_PX} px`,
  );
  await page.evaluate(() => {
    const heading = () => document.querySelector('main h1');
    const old = heading();
    const record: ScrollFrames = { atClick: null, frames: [] };
    (window as unknown as { scrollFrames: ScrollFrames }).scrollFrames = record;
    const tick = () => {
      record.frames.push({ page: heading() === old ? 'old' : 'new', y: Math.round(window.scrollY) });
      if (record.frames.length < 2_000) requestAnimationFrame(tick);
    };
    document.addEventListener(
      'click',
      () => {
        record.atClick = Math.round(window.scrollY);
        tick();
      },
      { capture: true, once: true },
    );
  });
}

/** How long a new page must stay at the top once it is shown, sampled every 100 ms. */
const AT_TOP_SETTLE_MS = 1_000;
/** The longest the samples go on after the URL changed, shown or not: WebKitGTK keeps showing the old page for up to about a second, longer on a busy machine. */
const AT_TOP_LIMIT_MS = 5_000;

/**
 * After a click made far down a page: waits for the URL to reach `path`, then samples scrollY every
 * 100 ms until the new page is shown (client-side: its heading in the frames recorded in the page;
 * a new document: hydrated) and has stayed at the top for a second, or 5 s have passed. The page must
 * reach the top and stay there; in the frames recorded in the page (client-side navigations), the old
 * page never moves from where the visitor clicked (no jump before the new page shows) and the new page
 * is never shown scrolled down. The samples wait for the page to show rather than a fixed time:
 * WebKitGTK keeps showing the old page for up to about a second after the URL changes while it
 * captures the view transition's old state (docs/decisions.md, Scroll), longer on a busy machine.
 */
async function expectNewPageAtTop(page: EnginePage, path: RegExp, clientSide: boolean): Promise<void> {
  await reachesPath(page, path);
  const samples: number[] = [];
  const until = Date.now() + AT_TOP_LIMIT_MS;
  let settledSince: number | null = null;
  let settled = false;
  while (!settled && Date.now() < until) {
    const [y, shown] = await page.evaluate(
      (client): [number, boolean] => [
        Math.round(window.scrollY),
        client
          ? Boolean((window as unknown as { scrollFrames?: ScrollFrames }).scrollFrames?.frames.some((f) => f.page === 'new'))
          : document.documentElement.dataset.hydrated === 'true',
      ],
      clientSide,
    );
    samples.push(y);
    settledSince = shown && y === 0 ? (settledSince ?? Date.now()) : null;
    settled = settledSince !== null && Date.now() - settledSince >= AT_TOP_SETTLE_MS;
    if (!settled) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const firstTop = samples.indexOf(0);
  expect(firstTop, `scrollY sampled every 100 ms after the URL changed: ${samples.join(', ')}`).toBeGreaterThanOrEqual(0);
  expect(samples.slice(firstTop), `at the top and staying there: ${samples.join(', ')}`).toEqual(samples.slice(firstTop).map(() => 0));
  if (clientSide) await expectFramesOfClientSideNavigation(page);
  expect(settled, `shown and at the top for ${AT_TOP_SETTLE_MS} ms within ${AT_TOP_LIMIT_MS} ms: ${samples.join(', ')}`).toBe(true);
}

/** The frames recorded in the page (scrollFarDownAndRecord): the old page unmoved, the new one only at the top. */
async function expectFramesOfClientSideNavigation(page: EnginePage): Promise<void> {
  const record = await page.evaluate(() => (window as unknown as { scrollFrames?: ScrollFrames }).scrollFrames ?? null);
  expect(record, 'the same document throughout (a client-side navigation)').not.toBeNull();
  const { atClick, frames } = record ?? { atClick: null, frames: [] };
  expect(atClick, 'scrollY when the click reached the page').toBeGreaterThan(SCROLL_THRESHOLD_PX);
  const shown = frames.map((f) => `${f.page}@${f.y}`).join(' ');
  expect(
    frames.some((f) => f.page === 'new'),
    `the new page rendered: ${shown}`,
  ).toBe(true);
  expect(
    frames.filter((f) => f.page === 'old').every((f) => f.y === atClick),
    `the old page stayed at ${String(atClick)}: ${shown}`,
  ).toBe(true);
  expect(
    frames.filter((f) => f.page === 'new').every((f) => f.y === 0),
    `the new page only at the top: ${shown}`,
  ).toBe(true);
}

/** Stores values in the site's localStorage before the visitor's first page (a returning visitor). */
async function seed(page: EnginePage, values: Record<string, string>): Promise<void> {
  await page.goto(`${baseUrl()}/robots.txt`);
  await page.evaluate((entries) => {
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
  }, values);
}

/** Every route's text, title, status and axe violations, and / reaching /home. */
function routeFlows(session: EngineSession, name: EngineName): void {
  it('lists every known route', () => {
    const listed = VISITOR_ROUTES.map((r) => r.path);
    for (const route of KNOWN_ROUTES) expect(listed, route).toContain(route);
  });

  // axe checks each page in the same visit: a second pass over every route would load each again, to the
  // same state. Not in Chromium, where e2e/a11y.test.ts runs axe (with more rules) on every one of these
  // pages at this size and theme, the cookie banner showing: the same page in the same state twice.
  const axe = name !== 'chromium';
  it(`shows every route's text, title and status, starting at the top, with the cookie banner and no analytics request${axe ? ', and no axe violation' : ''}`, async () => {
    const page = await session.open({ viewport: 'phone', fresh: true });
    const violations: string[] = [];
    for (const route of VISITOR_ROUTES) {
      await visit(page, route.path);
      const url = `${baseUrl()}${route.path}`;
      const documentRequest = session.network.requests.filter((r) => r.method === 'GET' && r.url === url).at(-1);
      expect(documentRequest?.status, `${route.path} status`).toBe(route.status);
      const text = await mainText(page);
      if (typeof route.text === 'string') expect(text, route.path).toContain(route.text);
      else expect(text, route.path).toMatch(route.text);
      const title = await page.evaluate(() => document.title);
      expect(title, `${route.path} title`).not.toBe('');
      expect(title, `${route.path} title`).toBe(route.title ?? (await titleInHtml(route.path)));
      expect(await scrollY(page), `${route.path} starts at the top`).toBe(0);
      expect(await isShown(page, '.cookie-banner'), `${route.path} cookie banner`).toBe(true);
      if (axe) for (const violation of await axeViolations(page)) violations.push(`${route.path}: ${violation}`);
    }
    expect(violations, violations.join('\n')).toEqual([]);
    // No analytics before consent; no Google request at all but the captcha script on /contact.
    expect(analyticsRequests(session.network).map((r) => r.url)).toEqual([]);
    // (Only the host pages load from: the browsers' own background requests go to other Google hosts.)
    const google = session.network.requests.filter((r) => hostOf(r.url) === 'www.google.com').map((r) => r.url);
    expect(
      google.every((url) => url.startsWith('https://www.google.com/recaptcha/')),
      google.join('\n'),
    ).toBe(true);
    expect(await stored(page, CONSENT_KEY)).toBeNull();
  }, 240_000);

  it('redirects / to /home', async () => {
    const page = await session.open({ viewport: 'desktop' });
    await visit(page, '/');
    await reachesPath(page, '/home');
    expect(await mainText(page)).toMatch(/Good (Morning|Afternoon|Evening)/);
  });
}

/** The phone menu (also before the scripts arrive) and the fun-fact modal. */
function menuAndModalFlows(session: EngineSession): void {
  it('opens the phone menu, follows an entry and shows it closed after', async () => {
    const page = await session.open({ viewport: 'phone' });
    await visit(page, '/home');
    expect(await visibleMenuEntries(page, MENU_ENTRIES)).toEqual([]);
    expect(await attribute(page, MENU_BUTTON.css, 'aria-expanded')).toBe('false');
    await page.click(MENU_BUTTON);
    await eventually(
      () => visibleMenuEntries(page, MENU_ENTRIES),
      (names) => names.length === MENU_ENTRIES.length,
      'menu entries shown',
    );
    // aria-expanded follows the popover's toggle event, which the browser queues as a task after the click.
    await eventually(
      () => attribute(page, MENU_BUTTON.css, 'aria-expanded'),
      (v) => v === 'true',
      'aria-expanded true',
    );
    await page.click(menuEntry('About'));
    await reachesPath(page, '/about');
    await eventually(
      () => mainText(page),
      (t) => t.includes(TEXT.letsChat),
      'the about page',
    );
    await eventually(
      () => visibleMenuEntries(page, MENU_ENTRIES),
      (names) => names.length === 0,
      'menu closed after choosing',
    );
    expect(await attribute(page, MENU_BUTTON.css, 'aria-expanded')).toBe('false');
  });

  it('opens the phone menu before the scripts arrive, and its entries work', async () => {
    const page = await session.open({ viewport: 'phone', fresh: true });
    // The entry module alone: hydration cannot start without it (and held requests stay few).
    const scripts = session.network.hold(/^\/assets\/entry\.client-.+\.js$/);
    await page.goto(`${baseUrl()}/home`, 'dom');
    await eventually(() => isShown(page, 'h1'), Boolean, 'the prerendered heading');
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated ?? null)).toBeNull();
    await page.click(MENU_BUTTON);
    await eventually(
      () => visibleMenuEntries(page, MENU_ENTRIES),
      (names) => names.length === MENU_ENTRIES.length,
      'menu open without scripts',
    );
    await page.click(menuEntry('Projects'));
    await reachesPath(page, '/projects');
    await eventually(
      () => mainText(page),
      (t) => t.includes(TEXT.moreToCome),
      'the projects page',
    );
    expect(await visibleMenuEntries(page, MENU_ENTRIES), 'the new page starts with the menu closed').toEqual([]);
    expect(scripts.held(), 'the scripts were asked for and held').toBeGreaterThan(0);
    scripts.release();
    await hydrated(page);
  });

  it('opens the fun-fact modal and closes it each way, giving focus back', async () => {
    const page = await session.open({ viewport: 'desktop' });
    await visit(page, '/about');
    const ways: [string, () => Promise<void>][] = [
      ['Close', () => page.click({ css: '[role="dialog"] button', name: /^Close$/ })],
      ['Got it!', () => page.click({ css: '[role="dialog"] button', name: /^Got it!$/ })],
      ['Escape', () => page.press('Escape')],
      // The backdrop: a point in the viewport's corner, outside the dialog's panel.
      ['backdrop', async () => page.clickAt(8, (await page.evaluate(() => innerHeight)) - 8)],
    ];
    for (const [way, close] of ways) {
      await page.click(HEADSHOT);
      await eventually(() => isShown(page, '[role="dialog"]'), Boolean, `dialog open before ${way}`);
      expect(normalize(await page.evaluate(() => document.querySelector('[role="dialog"]')?.textContent)).length).toBeGreaterThan(20);
      await eventually(
        () => page.evaluate(() => Boolean(document.querySelector('[role="dialog"]')?.contains(document.activeElement))),
        Boolean,
        `focus inside the dialog (${way})`,
      );
      await close();
      await eventually(
        () => isShown(page, '[role="dialog"]'),
        (shown) => !shown,
        `dialog closed by ${way}`,
      );
      await eventually(
        // The headshot is named by its content (its visible line is part of its name).
        () => page.evaluate(() => document.activeElement?.textContent ?? ''),
        (label) => /fun fact/i.test(label),
        `focus back on the headshot after ${way}`,
      );
    }
  });
}

/** Scroll-to-top, and pages opened from far down starting at the top. */
function scrollFlows(session: EngineSession): void {
  it('scrolls back to the top with the button, and a page opened from far down starts at the top', async () => {
    const page = await session.open({ viewport: 'phone' });
    await visit(page, '/privacy-policy');
    expect(await isShown(page, FLOATING_TOP.css)).toBe(false);
    await page.evaluate((y) => window.scrollTo(0, y), SCROLL_THRESHOLD_PX + 300);
    await eventually(() => isShown(page, FLOATING_TOP.css), Boolean, 'scroll-to-top shown past 300 px');
    await page.click(FLOATING_TOP);
    await eventually(
      () => scrollY(page),
      (y) => y === 0,
      'back at the top',
    );
    await eventually(
      () => isShown(page, FLOATING_TOP.css),
      (shown) => !shown,
      'button hidden at the top',
    );

    await visit(page, '/projects');
    await page.evaluate(() => document.querySelectorAll('main a[href^="/projects/"]')[4]?.scrollIntoView());
    expect(await scrollY(page)).toBeGreaterThan(SCROLL_THRESHOLD_PX);
    await page.click({ css: 'main a[href^="/projects/"]', name: /read more/i, last: true });
    await reachesPath(page, /^\/projects\/\d$/, 'a project page');
    await eventually(
      () => scrollY(page),
      (y) => y === 0,
      'the project page starts at the top',
    );
  });

  for (const locale of ['en', 'es'] as const) {
    const prefix = locale === 'en' ? '' : `/${locale}`;
    const readMore = locale === 'en' ? /read more/i : /leer más/i;
    it(`a project opened by "Read more" from ${FAR_DOWN_PX} px down ${prefix}/projects starts at the top, the old page unmoved (${locale})`, async () => {
      const page = await session.open({ viewport: 'phone' });
      await visit(page, `${prefix}/projects`);
      await scrollFarDownAndRecord(page);
      // A link inside the viewport, so the driver's click scrolls nothing itself.
      const marked = await page.evaluate(() => {
        const link = [...document.querySelectorAll('main a.read-more')].find((a) => {
          const box = a.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        });
        link?.setAttribute('data-flow-target', '');
        return Boolean(link);
      });
      expect(marked, `a "Read more" in view at ${FAR_DOWN_PX} px`).toBe(true);
      await page.click({ css: 'main a.read-more[data-flow-target]', name: readMore });
      await expectNewPageAtTop(page, new RegExp(`^${prefix}/projects/\\d$`), true);
    });
  }

  it(`a menu entry chosen ${FAR_DOWN_PX} px down a page opens its page at the top (phone menu and desktop panel)`, async () => {
    const phone = await session.open({ viewport: 'phone' });
    await visit(phone, '/projects');
    await scrollFarDownAndRecord(phone);
    await phone.click(MENU_BUTTON);
    await eventually(
      () => visibleMenuEntries(phone, MENU_ENTRIES),
      (names) => names.length === MENU_ENTRIES.length,
      'menu entries shown',
    );
    await phone.click(menuEntry('About'));
    await expectNewPageAtTop(phone, /^\/about$/, true);

    const desktop = await session.open({ viewport: 'desktop' });
    await visit(desktop, '/es/projects');
    await scrollFarDownAndRecord(desktop);
    await desktop.click({ css: '.side-panel a', name: /^Blog$/ });
    await expectNewPageAtTop(desktop, /^\/es\/blogs$/, true);
  });

  it(`the language switcher used ${FAR_DOWN_PX} px down a page opens the other language at the top`, async () => {
    const page = await session.open({ viewport: 'desktop' });
    await visit(page, '/projects');
    await scrollFarDownAndRecord(page);
    await page.click({ css: '.side-panel a.language-link', name: /^Español$/ });
    await expectNewPageAtTop(page, /^\/es\/projects$/, false);
    await hydrated(page);
    await scrollFarDownAndRecord(page);
    await page.click({ css: '.side-panel a.language-link', name: /^English$/ });
    await expectNewPageAtTop(page, /^\/projects$/, false);
  });
}

/** The cookie banner and consent, and the theme. */
function consentAndThemeFlows(session: EngineSession): void {
  it('shows the cookie banner collapsed, expands it, Accept loads analytics, and the choice is remembered', async () => {
    const page = await session.open({ viewport: 'phone', fresh: true });
    await visit(page, '/home');
    expect(await isShown(page, '.cookie-banner')).toBe(true);
    expect(await mainText(page)).not.toContain(TEXT.cookieShort);
    expect(normalize(await page.evaluate(() => document.querySelector('.cookie-banner')?.textContent))).toContain(TEXT.cookieShort);
    expect(await attribute(page, BANNER_TOGGLE.css, 'aria-expanded')).toBe('false');
    expect(await isShown(page, '.cookie-banner__accept')).toBe(false);
    await page.click(BANNER_TOGGLE);
    await eventually(
      () => attribute(page, BANNER_TOGGLE.css, 'aria-expanded'),
      (v) => v === 'true',
      'banner expanded',
    );
    expect(normalize(await page.evaluate(() => document.querySelector('.cookie-banner')?.textContent))).toContain(TEXT.cookieLong);
    expect(gtagRequests(session.network), 'no analytics before consent').toEqual([]);
    expect(await gtagScripts(page), 'no analytics before consent').toEqual([]);
    await page.click(ACCEPT);
    await eventually(
      () => stored(page, CONSENT_KEY),
      (v) => v === 'true',
      'consent stored',
    );
    await eventually(
      () => isShown(page, '.cookie-banner'),
      (shown) => !shown,
      'banner gone',
    );
    await eventually(
      () => gtagScripts(page),
      (srcs) => srcs.length === 1,
      'gtag.js added after consent',
    );
    expect((await gtagScripts(page))[0]).toContain('id=G-TEST000000');
    if (session.engine.interceptsHttps) {
      await eventually(
        () => gtagRequests(session.network).length,
        (n) => n === 1,
        'gtag.js requested after consent',
      );
      await eventually(
        () => page.evaluate(() => Boolean((window as unknown as { __fakeGtag?: { loaded: boolean } }).__fakeGtag?.loaded)),
        Boolean,
        'the fake gtag.js ran',
      );
    }

    await page.reload();
    await hydrated(page);
    await eventually(
      () => gtagScripts(page),
      (srcs) => srcs.length === 1,
      'gtag.js added at start',
    );
    expect(await isShown(page, '.cookie-banner'), 'remembered: no banner').toBe(false);
    await visit(page, '/about');
    expect(await isShown(page, '.cookie-banner')).toBe(false);
  });

  it('keeps a chosen theme across pages and reloads, and System follows the device again', async () => {
    const page = await session.open({ viewport: 'desktop' });
    await visit(page, '/home');
    expect(await background(page)).toBe(BACKGROUND.light);
    await page.click({ css: '.side-panel label', name: /^Dark$/ });
    await eventually(
      () => background(page),
      (bg) => bg === BACKGROUND.dark,
      'dark background',
    );
    expect(await stored(page, 'theme')).toBe('dark');
    await page.click({ css: '.side-panel a', name: /^Projects$/ });
    await reachesPath(page, '/projects');
    expect(await background(page)).toBe(BACKGROUND.dark);
    await page.reload();
    // The stored choice is painted before the scripts run (the inline theme script).
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    expect(await background(page)).toBe(BACKGROUND.dark);
    await hydrated(page);
    expect(await page.evaluate(() => (document.querySelector('.side-panel input[value="dark"]') as HTMLInputElement | null)?.checked)).toBe(
      true,
    );
    await page.click({ css: '.side-panel label', name: /^System$/ });
    await eventually(
      () => background(page),
      (bg) => bg === BACKGROUND.light,
      'light again',
    );
    expect(await stored(page, 'theme')).toBeNull();
  });

  it('follows a dark system, and a stored light choice wins over it', async () => {
    const page = await session.open({ viewport: 'phone', dark: true });
    await visit(page, '/about');
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), 'the system is dark').toBe(true);
    expect(await background(page)).toBe(BACKGROUND.dark);
    await seed(page, { theme: 'light' });
    await visit(page, '/about');
    expect(await background(page)).toBe(BACKGROUND.light);
  });
}

/** Click events and page views reaching the API. */
function eventFlows(session: EngineSession): void {
  it('sends a click event that reaches /api/events', async () => {
    const page = await session.open({ viewport: 'desktop' });
    await visit(page, '/home');
    await page.click({ css: '.side-panel a', name: /^Projects$/ });
    await eventually(
      () => clickEvents(session.network),
      (names) => names.includes('SIDEBAR_NAV_PROJECTS'),
      'SIDEBAR_NAV_PROJECTS',
    );
    const beacon = session.network.requests.find((r) => pathOf(r.url) === '/api/events' && r.body.includes('SIDEBAR_NAV_PROJECTS'));
    await eventually(
      () => beacon?.status,
      (status) => status === 204,
      'the events handler accepted it',
    );
  });

  it('counts a click on a tracked link before hydration exactly once', async () => {
    const page = await session.open({ viewport: 'desktop', fresh: true });
    const scripts = session.network.hold(/^\/assets\/entry\.client-.+\.js$/);
    await page.goto(`${baseUrl()}/home`, 'dom');
    await eventually(() => isShown(page, 'h1'), Boolean, 'the prerendered heading');
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated ?? null)).toBeNull();
    await page.click({ css: '.side-panel a', name: /^Projects$/ });
    // The prerendered link loads the next document.
    await reachesPath(page, '/projects');
    await eventually(
      () => mainText(page),
      (t) => t.includes(TEXT.moreToCome),
      'the projects page',
    );
    await eventually(
      () => clickEvents(session.network),
      (names) => names.includes('SIDEBAR_NAV_PROJECTS'),
      'SIDEBAR_NAV_PROJECTS before hydration',
    );
    expect(scripts.held(), 'the scripts were asked for and held').toBeGreaterThan(0);
    scripts.release();
    await hydrated(page);
    await page.evaluate(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 800)));
    expect(clickEvents(session.network)).toEqual(['SIDEBAR_NAV_PROJECTS']);
  });

  it('sends one page view for the first load and one for a client-side navigation', async () => {
    // Fresh: the web-vitals chunk is counted as the browser asks for it, which a cached copy would not.
    const page = await session.open({ viewport: 'desktop', fresh: true });
    await visit(page, '/es/home');
    // web-vitals arrives once the page is idle, never with the first load.
    await eventually(
      () => session.network.requests.filter((r) => /^\/assets\/vitals-[^/]+\.js$/.test(pathOf(r.url))).length,
      (n) => n === 1,
      'the web-vitals chunk',
    );
    await page.click({ css: '.side-panel a[href="/es/projects"]' });
    await reachesPath(page, '/es/projects');
    // The previous test's page sends its own page view as it closes, into this test's recording: this
    // test's pages are the Spanish ones.
    const ours = () => pageViews(session.network).filter((view) => view.lang === 'es');
    await eventually(ours, (views) => views.length === 1, 'the first page view');
    // Leaving the document (pagehide) sends the client-side one.
    await page.goto(`${baseUrl()}/robots.txt`);
    await eventually(ours, (views) => views.length === 2, 'the client-side page view');
    // Once each: neither the boot script nor a second listener sends either page view again.
    await page.evaluate(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 800)));
    const views = ours();
    expect(views, JSON.stringify(views)).toHaveLength(2);
    expect(views[0]).toMatchObject({ route: '/home', lang: 'es', device: 'desktop', nav: 'load' });
    expect(views[1]).toMatchObject({ route: '/projects', lang: 'es', device: 'desktop', nav: 'client' });
    for (const view of views) expect(checkVitalsBeacon(view, LOCALE_CODES).ok, JSON.stringify(view)).toBe(true);
    await eventually(
      async () =>
        session.network.requests.filter((r) => pathOf(r.url) === '/api/vitals' && r.body.includes('"lang":"es"')).map((r) => r.status),
      (statuses) => statuses.length === 2 && statuses.every((status) => status === 204),
      'the vitals handler accepted both',
    );
  });

  it('counts a page left before its scripts arrived once, from the boot script', async () => {
    const page = await session.open({ viewport: 'desktop', fresh: true });
    const scripts = session.network.hold(/^\/assets\/entry\.client-.+\.js$/);
    await page.goto(`${baseUrl()}/es/projects/2`, 'dom');
    await eventually(() => isShown(page, 'h1'), Boolean, 'the prerendered heading');
    // The boot script asks for the scripts only after the first paint: once one is held, the page is shown.
    await eventually(
      () => scripts.held(),
      (held) => held > 0,
      'a held script',
    );
    // A painted page is not yet a recorded paint: on a busy machine the paint entry comes a frame later.
    await eventually(
      () => page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length),
      (n) => n > 0,
      'the first contentful paint entry',
    );
    // What the browser's Navigation Timing says (WebKitGTK behind the recording proxy gives a negative
    // responseStart, which web-vitals ignores, and so does the boot script).
    const responseStart = await page.evaluate(
      () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseStart ?? 0,
    );
    // Leaving the page (pagehide) before the app started: the boot script sends the page view.
    await page.goto(`${baseUrl()}/robots.txt`);
    scripts.release();
    const ours = () => pageViews(session.network).filter((view) => view.route === '/projects/:projectId' && view.lang === 'es');
    await eventually(ours, (views) => views.length === 1, 'the page view');
    await page.evaluate(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 800)));
    const views = ours();
    expect(views, JSON.stringify(views)).toHaveLength(1);
    expect(views[0]).toMatchObject({ route: '/projects/:projectId', lang: 'es', device: 'desktop', nav: 'load' });
    // The FCP (Paint Timing: every engine here) and TTFB the browser's timeline holds, as web-vitals would read them.
    expect(views[0]).toEqual(expect.objectContaining({ fcp: expect.any(Number) }));
    if (responseStart > 0) expect(views[0]).toEqual(expect.objectContaining({ ttfb: expect.any(Number) }));
    else expect(views[0]).not.toHaveProperty('ttfb');
    expect(checkVitalsBeacon(views[0], LOCALE_CODES).ok, JSON.stringify(views[0])).toBe(true);
    // No web-vitals: the app never started on that page.
    expect(session.network.requests.filter((r) => /^\/assets\/vitals-[^/]+\.js$/.test(pathOf(r.url)))).toHaveLength(0);
  });
}

/** How a flow reaches its site's contact page: its visit, its menu's entry names, the contact entry's name and the page's path. */
export interface ContactEntry {
  visit(page: EnginePage, route: string): Promise<void>;
  menuNames: readonly string[];
  contactName: string;
  contactPath: string;
}

/**
 * Opens the contact page with the fake captcha in place of Google's, and waits for its box. Classic
 * WebDriver cannot serve the fake api.js in place of Google's: it is run in the page before the contact
 * page mounts (arriving from the menu), and the widget takes the grecaptcha already there, as it would
 * after the real script loaded.
 */
export async function openContactWithFakeCaptcha(session: EngineSession, page: EnginePage, entry: ContactEntry): Promise<void> {
  if (session.engine.interceptsHttps) {
    await entry.visit(page, '/contact');
  } else {
    await entry.visit(page, '/home');
    await page.run(FAKE_RECAPTCHA_JS);
    await page.click(MENU_BUTTON);
    await eventually(
      () => visibleMenuEntries(page, entry.menuNames),
      (names) => names.length === entry.menuNames.length,
      'menu open',
    );
    await page.click(menuEntry(entry.contactName));
    await reachesPath(page, entry.contactPath, 'the contact page');
  }
  await eventually(() => isShown(page, FAKE_CAPTCHA.css), Boolean, 'the fake captcha', 10_000);
}

/** The contact form and the video poster. */
function contactAndVideoFlows(session: EngineSession): void {
  it('sends the contact form through the fake captcha to the local mailbox', async () => {
    const page = await session.open({ viewport: 'phone' });
    await openContactWithFakeCaptcha(session, page, { visit, menuNames: MENU_ENTRIES, contactName: 'Contact', contactPath: '/contact' });
    const lastName = uniqueLastName();
    const values = {
      name: `Ada ${lastName}`,
      email: `ada.${lastName.toLowerCase()}@example.org`,
      message: `Hello from ${session.engine.name}, marker ${lastName}.`,
    };
    await page.fill({ css: 'main input[name="fullName"]' }, values.name);
    await page.fill({ css: 'main input[name="email"]' }, values.email);
    await page.fill({ css: 'main textarea[name="message"]' }, values.message);
    expect(await page.evaluate(() => (document.querySelector('main button[type="submit"]') as HTMLButtonElement).disabled)).toBe(true);
    await page.evaluate((token) => {
      (window as unknown as { __fakeRecaptcha: { nextToken: string } }).__fakeRecaptcha.nextToken = token;
    }, `e2e-${session.engine.name}-${lastName}`);
    await page.click(FAKE_CAPTCHA);
    await eventually(
      () => page.evaluate(() => !(document.querySelector('main button[type="submit"]') as HTMLButtonElement).disabled),
      Boolean,
      'Send enabled',
    );
    await page.click({ css: 'main button[type="submit"]' });
    await eventually(
      () => mainText(page),
      (t) => t.includes(TEXT.sent),
      TEXT.sent,
      15_000,
    );
    const mails = await eventually(
      () => mailsContaining(lastName),
      (m) => m.length === 1,
      'the mail in the mailbox',
      10_000,
    );
    expect(mails[0]?.replyTo).toEqual([values.email]);
    expect(mails[0]?.body.text ?? '').toContain(values.message);
    const post = session.network.requests.find((r) => r.method === 'POST' && pathOf(r.url) === '/api/contact');
    expect(JSON.parse(post?.body ?? '{}')).toEqual({
      fullName: values.name,
      email: values.email,
      message: values.message,
      'g-recaptcha-response': `e2e-${session.engine.name}-${lastName}`,
    });
  });

  it('turns a poster into a playing video', async () => {
    const page = await session.open({ viewport: 'desktop' });
    await visit(page, '/projects');
    expect(await page.evaluate(() => document.querySelectorAll('main video').length)).toBe(0);
    await page.click({ css: 'main a.video-poster' });
    await eventually(
      () =>
        page.evaluate(() => {
          const video = document.querySelector('main video') as HTMLVideoElement | null;
          return video ? { paused: video.paused, time: video.currentTime, error: video.error?.code ?? null } : null;
        }),
      (state) => state !== null && (state.error !== null || (!state.paused && state.time > 0)),
      'the video playing',
      15_000,
    ).then((state) => expect(state).toMatchObject({ paused: false, error: null }));
    expect(pathOf(await page.url())).toBe('/projects');
  });
}

/** Registers the visitor flows for one engine: one engine and one page at a time. */
export function describeVisitorFlows(name: EngineName): void {
  describe(`visitor flows in ${name}`, () => {
    const session = engineSession(name);
    routeFlows(session, name);
    menuAndModalFlows(session);
    scrollFlows(session);
    consentAndThemeFlows(session);
    eventFlows(session);
    contactAndVideoFlows(session);
  });
}
