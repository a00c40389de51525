/**
 * What the visitor flows need from a browser, in one small driver-neutral shape, with two
 * implementations: playwright-core (Chromium over CDP, Firefox ESR over WebDriver BiDi) and classic
 * WebDriver (WebKitGTK). Every engine's requests go through the recording proxy of network.ts.
 */
import {
  chromium,
  type Browser as ChromiumBrowser,
  type BrowserContext as ChromiumContext,
  type ElementHandle,
  type Page,
} from 'playwright-core';
// Debian's Firefox ESR works with playwright-core 1.61.1 but not with the newer version the Chromium
// tests use (1.65 sends a BiDi command this Firefox lacks at newContext), so Firefox has its own
// copy under an npm alias.
import { firefox, type Browser as FirefoxBrowser, type BrowserContext as FirefoxContext } from 'playwright-core-firefox';
import { CHROMIUM_ARGS, chromiumPath } from '../../tools/chromium';
import { afterEach, beforeAll } from 'vitest';
import { eventually } from '../support/browser';
import { startNetwork, type Network, type NetworkOptions } from './network';
import { isElementRef, startWebKitDriver, type ElementRef, type WebDriverSession } from './webdriver';

export const ENGINES = ['chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof ENGINES)[number];

export const FIREFOX_ESR = '/usr/bin/firefox-esr';

/** The screen sizes the flows use. WebKitGTK's window is never narrower than about 450 px: still a phone layout. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1440, height: 900 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

export interface PageOptions {
  viewport: ViewportName;
  /** A dark system colour scheme (prefers-color-scheme: dark). */
  dark?: boolean;
  /**
   * A new browser context, not one an earlier page left (keptPages): a cold HTTP cache, for a first
   * visit or scripts held back (a cached script is never asked for). WebKit's pages are always new.
   */
  fresh?: boolean;
}

/** An element to act on, found in the page: CSS, then the accessible name, then visible only. */
export interface Target {
  css: string;
  /** Matches the element's accessible name (aria-label, its label, or its text). */
  name?: RegExp;
  /** Only rendered, visible elements (default true). */
  visible?: boolean;
  /** Which match, when several (default the first). */
  last?: boolean;
}

/** The keys a flow presses, with their WebDriver code points (https://www.w3.org/TR/webdriver2/#keyboard-actions). */
const WEBDRIVER_KEYS = { Escape: '\uE00C', Tab: '\uE004', ArrowDown: '\uE015', ArrowUp: '\uE013', Enter: '\uE007', '/': '/' } as const;
export type PressKey = keyof typeof WEBDRIVER_KEYS;

export interface EnginePage {
  readonly engine: EngineName;
  /** Opens a URL and waits for its load event, or only for the document ('dom': scripts may be held back). */
  goto(url: string, until?: 'load' | 'dom'): Promise<void>;
  url(): Promise<string>;
  /** Runs a self-contained function in the page (no outer variables: pass them as `arg`). */
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** Runs a classic script's source in the page (e.g. axe-core), outside the page's CSP. */
  run(source: string): Promise<void>;
  click(target: Target): Promise<void>;
  /** Replaces a field's value by typing into it. */
  fill(target: Target, text: string): Promise<void>;
  /** Presses a key where the focus is ('Escape', 'Tab', an arrow, Enter, or '/', the search shortcut). */
  press(key: PressKey): Promise<void>;
  /** A mouse click at a point of the viewport (CSS pixels). */
  clickAt(x: number, y: number): Promise<void>;
  /** The browser's Back: done once the previous entry shows, in a new document or (a router's entry) the same one. */
  back(): Promise<void>;
  reload(): Promise<void>;
  /** PNG of the viewport. */
  screenshot(): Promise<Buffer>;
  /** Closes the page; with `reusable`, its context may serve the next page (keptPages). */
  close(reusable?: boolean): Promise<void>;
}

export interface Engine {
  readonly name: EngineName;
  /** Whether the recording proxy sees (and can fake) HTTPS requests: not from WebKitGTK, whose HTTPS requests it can only refuse. */
  readonly interceptsHttps: boolean;
  /** One page at a time: close it before opening the next (Firefox over BiDi needs this). */
  open(options: PageOptions): Promise<EnginePage>;
  close(): Promise<void>;
}

/** Runs in the page: the element a Target names, or null. */
function findInPage(target: { css: string; name: string | null; flags: string; visible: boolean; last: boolean }): Element | null {
  const nameOf = (el: Element): string => {
    const aria = el.getAttribute('aria-label');
    if (aria) return aria;
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy)
      return labelledBy
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length > 0) return [...labels].map((l) => l.textContent ?? '').join(' ');
    return el.textContent ?? '';
  };
  const pattern = target.name === null ? null : new RegExp(target.name, target.flags);
  const matches = [...document.querySelectorAll(target.css)].filter((el) => {
    if (target.visible) {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.display === 'none') return false;
      if (el.closest('[hidden]') || (el.closest('[popover]') && !el.closest('[popover]')?.matches(':popover-open'))) return false;
    }
    return pattern === null || pattern.test(nameOf(el).replace(/\s+/g, ' ').trim());
  });
  return (target.last ? matches[matches.length - 1] : matches[0]) ?? null;
}

function serialTarget(target: Target) {
  return {
    css: target.css,
    name: target.name ? target.name.source : null,
    flags: target.name ? target.name.flags : '',
    visible: target.visible ?? true,
    last: target.last ?? false,
  };
}

function describeTarget(target: Target): string {
  return `${target.css}${target.name ? ` named ${String(target.name)}` : ''}`;
}

/** Retries finding a target for a few seconds: pages settle after load (hydration, transitions). */
async function findWithRetry<T>(find: () => Promise<T | null>, target: Target, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No element ${describeTarget(target)} on the page`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A page in a new browser context, and what a later page needs to take it over. */
interface OwnPage {
  /** Its close() ends the context. */
  page: EnginePage;
  resize(viewport: ViewportName): Promise<void>;
  /** Deletes the cookies and leaves the document for about:blank: its timers stop, its pagehide beacons go. */
  leave(): Promise<void>;
}

/**
 * An engine's pages, each in a context of its own or in one an earlier page left: a new context costs
 * Chromium or Firefox a new process, about half a second of CPU. A page closed as reusable,
 * once its localStorage, sessionStorage and cookies are cleared, is kept for the next page of its colour
 * scheme (fixed for a context) that does not ask for a fresh one; only when every address it opened
 * was of the origin its last document is in, the storage a script there can clear. Else it closes.
 */
function keptPages(start: (options: { viewport: ViewportName; dark: boolean }) => Promise<OwnPage>) {
  const kept = new Map<boolean, { own: OwnPage; viewport: ViewportName }>();
  return {
    async open({ viewport, dark = false, fresh = false }: PageOptions): Promise<EnginePage> {
      let reused = kept.get(dark);
      kept.delete(dark);
      if (reused && fresh) {
        await reused.own.page.close();
        reused = undefined;
      }
      const own = reused?.own ?? (await start({ viewport, dark }));
      if (reused && reused.viewport !== viewport) await own.resize(viewport);
      const origins = new Set<string>();
      return {
        ...own.page,
        goto(url, until) {
          origins.add(new URL(url).origin);
          return own.page.goto(url, until);
        },
        async close(reusable = false) {
          const cleared = reusable
            ? await (async () => {
                const origin = await own.page.evaluate(() => {
                  localStorage.clear();
                  sessionStorage.clear();
                  return location.origin;
                });
                await own.leave();
                return origin;
              })().catch(() => undefined)
            : undefined;
          if (cleared !== undefined && [...origins].every((origin) => origin === cleared)) kept.set(dark, { own, viewport });
          else await own.page.close();
        },
      };
    },
    async close(): Promise<void> {
      for (const { own } of kept.values()) await own.page.close();
      kept.clear();
    },
  };
}

type AnyContext = ChromiumContext | FirefoxContext;
type AnyBrowser = ChromiumBrowser | FirefoxBrowser;

/** Both playwright-core copies share this API; the older copy's Page is used through the newer one's type. */
function playwrightPage(engine: EngineName, context: AnyContext, page: Page): EnginePage {
  const handle = (target: Target) =>
    findWithRetry(async () => {
      const found = await page.evaluateHandle(findInPage, serialTarget(target));
      const element = found.asElement();
      if (!element) await found.dispose();
      return element as ElementHandle | null;
    }, target);
  return {
    engine,
    async goto(url, until = 'load') {
      const waitUntil = until === 'load' ? 'load' : 'domcontentloaded';
      try {
        await page.goto(url, { waitUntil });
      } catch (error) {
        // Firefox over BiDi sometimes reports a navigation away from a page still loading as two, the
        // second to the same address (microsoft/playwright#42050, #41216): that second one is the visit.
        if (!(error instanceof Error) || !error.message.includes(`interrupted by another navigation to "${url}"`)) throw error;
        await page.waitForURL(url, { waitUntil });
      }
    },
    url: async () => page.url(),
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    async run(source) {
      await page.evaluate(source);
    },
    async click(target) {
      // The flows wait for what a click leads to themselves (as over WebDriver).
      await (await handle(target)).click({ noWaitAfter: true });
    },
    async fill(target, text) {
      await (await handle(target)).fill(text);
    },
    press: (key) => page.keyboard.press(key),
    clickAt: (x, y) => page.mouse.click(x, y),
    async back() {
      await page.goBack({ waitUntil: 'load' });
    },
    async reload() {
      await page.reload({ waitUntil: 'load' });
    },
    screenshot: () => page.screenshot(),
    close: () => context.close(),
  };
}

async function playwrightEngine(name: 'chromium' | 'firefox', network: Network): Promise<Engine> {
  const browsers = new Map<'light' | 'dark', Promise<AnyBrowser>>();
  const launch = (dark: boolean): Promise<AnyBrowser> => {
    if (name === 'chromium') {
      return chromium.launch({
        executablePath: chromiumPath(),
        headless: true,
        // Loopback too: Chromium leaves it out of a proxy unless told.
        args: [...CHROMIUM_ARGS, `--proxy-server=http://${network.address}`, '--proxy-bypass-list=<-loopback>'],
      });
    }
    const [host = '', port = ''] = network.address.split(':');
    return firefox.launch({
      channel: 'moz-firefox',
      executablePath: FIREFOX_ESR,
      headless: true,
      firefoxUserPrefs: {
        'network.proxy.type': 1,
        'network.proxy.http': host,
        'network.proxy.http_port': Number(port),
        'network.proxy.ssl': host,
        'network.proxy.ssl_port': Number(port),
        'network.proxy.no_proxies_on': '',
        'network.proxy.allow_hijacking_localhost': true,
        // Playwright's colorScheme emulation is not available over BiDi here: the system's scheme is a pref.
        'ui.systemUsesDarkTheme': dark ? 1 : 0,
        'layout.css.prefers-color-scheme.content-override': dark ? 0 : 1,
      },
    });
  };
  const browserFor = (dark: boolean) => {
    const key = dark ? 'dark' : 'light';
    let browser = browsers.get(key);
    if (!browser) {
      browser = launch(dark);
      browsers.set(key, browser);
    }
    return browser;
  };
  const pages = keptPages(async ({ viewport, dark }) => {
    const browser = await browserFor(name === 'firefox' && dark);
    const context = await browser.newContext({
      viewport: VIEWPORTS[viewport],
      locale: 'en-US',
      timezoneId: 'UTC',
      // The fake Google scripts come from a throwaway local certificate (see network.ts).
      ignoreHTTPSErrors: true,
      ...(name === 'chromium' ? { colorScheme: dark ? 'dark' : 'light', reducedMotion: 'no-preference' } : {}),
    } as never);
    const page = (await context.newPage()) as unknown as Page;
    return {
      page: playwrightPage(name, context, page),
      resize: (next) => page.setViewportSize(VIEWPORTS[next]),
      async leave() {
        await context.clearCookies();
        await page.goto('about:blank');
      },
    };
  });
  return {
    name,
    interceptsHttps: true,
    open: pages.open,
    async close() {
      await pages.close();
      for (const browser of browsers.values()) await (await browser.catch(() => undefined))?.close();
    },
  };
}

function webDriverPage(session: WebDriverSession): EnginePage {
  const evaluate = <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> =>
    session.execute<R>(`return (${fn.toString()}).apply(null, arguments);`, [arg ?? null]);
  const element = (target: Target) =>
    findWithRetry(async () => {
      const found = await evaluate(findInPage, serialTarget(target));
      return isElementRef(found) ? (found as unknown as ElementRef) : null;
    }, target);
  /**
   * Runs a navigation and waits for the new document: the old one is marked first, so a document
   * without the mark is the new one; then for its load event ('load') or its parsed DOM ('dom').
   * With `sameDocument`, a changed address in the marked document also ends it: Back to an entry the
   * page's router pushed (history.pushState) stays in the same document.
   */
  const navigation = async (start: () => Promise<void>, until: 'load' | 'dom' = 'load', sameDocument = false) => {
    const before = await evaluate(() => {
      (window as unknown as { __e2eLeaving?: boolean }).__e2eLeaving = true;
      return location.href;
    }).catch(() => undefined);
    await start();
    const deadline = Date.now() + 30_000;
    for (;;) {
      // In a new document still loading, the page reports its next readyState itself (or after a second):
      // fewer round trips than a poll, each of which costs WebKitGTK's processes.
      const state = await evaluate(
        (wanted) =>
          new Promise<{ leaving: boolean; ready: DocumentReadyState; href: string }>((resolve) => {
            const leaving = Boolean((window as unknown as { __e2eLeaving?: boolean }).__e2eLeaving);
            const report = () => resolve({ leaving, ready: document.readyState, href: location.href });
            if (leaving || document.readyState === 'complete' || (wanted === 'dom' && document.readyState === 'interactive'))
              return report();
            document.addEventListener('readystatechange', report, { once: true });
            setTimeout(report, 1_000);
          }),
        until,
      ).catch(() => undefined);
      if (
        state &&
        !state.leaving &&
        state.href !== 'about:blank' &&
        (state.ready === 'complete' || (until === 'dom' && state.ready === 'interactive'))
      )
        return;
      if (sameDocument && state?.leaving && before !== undefined && state.href !== before && state.ready === 'complete') return;
      if (Date.now() > deadline) throw new Error(`The page did not finish loading within 30 s (${JSON.stringify(state)})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return {
    engine: 'webkit',
    goto: (url, until) => navigation(() => session.navigate(url), until),
    url: () => session.currentUrl(),
    evaluate,
    async run(source) {
      await session.execute(`${source}\n;return true;`);
    },
    async click(target) {
      await session.click(await element(target));
    },
    async fill(target, text) {
      const field = await element(target);
      // As a visitor does: into the field, select all, delete, type, with the keyboard actions
      // (WebKitWebDriver calls these fields "not interactable" for Element Clear and Send Keys, and
      // now and then for Element Click too while the page settles, so the field is focused in the page).
      await evaluate((el) => {
        const input = el as unknown as HTMLInputElement;
        input.scrollIntoView({ block: 'center' });
        input.focus();
        input.select();
      }, field as never);
      await session.typeKeys(['\uE003', ...text]);
    },
    press: (key) => session.typeKeys([WEBDRIVER_KEYS[key]]),
    clickAt: (x, y) => session.clickAt(x, y),
    back: () => navigation(() => session.back(), 'load', true),
    reload: () => navigation(() => session.refresh()),
    screenshot: () => session.screenshot(),
    close: () => session.close(),
  };
}

/**
 * WebKit over WebDriver: a new session (a new MiniBrowser) for every page. Kept between tests
 * (keptPages) it saved about a second of wall time a test, but its flows then failed now and then
 * (a command with no answer for a minute; "element not interactable" after the window was resized).
 */
async function webKitEngine(network: Network): Promise<Engine> {
  const driver = await startWebKitDriver();
  return {
    name: 'webkit',
    interceptsHttps: false,
    async open({ viewport, dark = false }) {
      const session = await driver.newSession({ proxy: { http: network.address, ssl: network.secureAddress }, dark });
      const { width, height } = VIEWPORTS[viewport];
      // The window includes no browser chrome in automation mode; its minimum width wins on a phone size.
      await session.setWindowRect(width, height);
      return webDriverPage(session);
    },
    close: () => driver.stop(),
  };
}

export function launchEngine(name: EngineName, network: Network): Promise<Engine> {
  return name === 'webkit' ? webKitEngine(network) : playwrightEngine(name, network);
}

/** What a suite of flows in one engine works with (engineSession). */
export interface EngineSession {
  /** The recording proxy every request of the engine goes through. */
  readonly network: Network;
  readonly engine: Engine;
  /** Closes the page open (reusable), resets the proxy's recording and fakes, and opens a new page: one page at a time. */
  open(options: PageOptions, fakes?: Partial<NetworkOptions>): Promise<EnginePage>;
}

export interface SessionHooks {
  /** Runs before the proxy and the engine start (a site and its stack), in the same beforeAll. */
  setup?: () => Promise<void>;
  /** Runs after the engine and the proxy stop (at the end of the file: they are shared). */
  teardown?: () => Promise<void>;
  /** The beforeAll's time limit (a shared build may be made in `setup`), else the project's. */
  timeout?: number;
}

/** The engine and its proxy, started by the first suite of a test file and shared by its others, and their sites' teardowns. */
let shared: { network?: Network; engine?: Promise<Engine>; teardowns: (() => Promise<void>)[] } = { teardowns: [] };

/**
 * Stops the engine and proxy a test file's suites shared, then their sites (a page closing may still
 * send a beacon): the file calls it in its own afterAll, which runs after every suite's. One launch
 * serves all its suites (a browser's start costs seconds of CPU).
 */
export async function stopSharedEngine(): Promise<void> {
  const { network, engine, teardowns } = shared;
  shared = { teardowns: [] };
  await (await engine?.catch(() => undefined))?.close();
  await network?.stop();
  for (const teardown of teardowns) await teardown();
}

/**
 * Registers, in the describe it is called in, what every suite of flows needs in one engine: `setup`,
 * then the file's shared recording proxy and engine (started by its first suite), the page each test
 * opened closed after it, and `teardown` once the engine has stopped. The suites run one after another,
 * so one page at a time. Read `network` and `engine` inside tests and hooks only.
 */
export function engineSession(name: EngineName, { setup, teardown, timeout }: SessionHooks = {}): EngineSession {
  let network: Network | undefined;
  let engine: Engine | undefined;
  let current: EnginePage | undefined;
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`The ${name} session's ${what} is not started: read it inside a test or hook.`);
    return value;
  };
  beforeAll(async () => {
    if (teardown) shared.teardowns.push(teardown);
    await setup?.();
    network = shared.network ??= await startNetwork();
    engine = await (shared.engine ??= launchEngine(name, network));
  }, timeout);
  // A page a test passed with may serve the next test: one that failed, or that a retry will repeat, closes.
  afterEach(async ({ task }) => {
    await current?.close(task.result?.state === 'pass');
    current = undefined;
  });
  return {
    get network() {
      return started(network, 'recording proxy');
    },
    get engine() {
      return started(engine, 'engine');
    },
    async open(options, fakes) {
      await current?.close(true);
      current = undefined;
      started(network, 'recording proxy').reset(fakes);
      current = await started(engine, 'engine').open(options);
      return current;
    },
  };
}

/** The path of a URL. */
export function pathOf(url: string): string {
  return new URL(url).pathname;
}

/** Waits until the page's address is `path` (or matches it); `what` names it in a timeout's message. */
export function reachesPath(page: EnginePage, path: string | RegExp, what: string = String(path)): Promise<string> {
  return eventually(
    async () => pathOf(await page.url()),
    (p) => (typeof path === 'string' ? p === path : path.test(p)),
    what,
  );
}
