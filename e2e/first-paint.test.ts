/**
 * The first paint needs nothing but the HTML: no stylesheet blocks rendering, no script is fetched
 * or run before it, and every inline script a page carries is one the constant CSP admits. Checked
 * on every built page with the browser's own HTML parser, and for real with every script held back.
 */
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, waitForHydration } from './support/browser';
import { useBrowserSessions } from './support/sessions';
import { KNOWN_ROUTES, UNKNOWN_ROUTE } from './support/site';

const sessions = useBrowserSessions();

interface PageFacts {
  blockingStylesheets: string[];
  scriptFiles: string[];
  earlyScriptFetches: string[];
  inlineScripts: string[];
}

/** What the browser's parser finds in one page's HTML, before anything runs. */
async function factsOf(page: Page, html: string): Promise<PageFacts> {
  return page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'text/html');
    const executable = (s: HTMLScriptElement) =>
      ['', 'module', 'text/javascript', 'application/javascript'].includes((s.getAttribute('type') ?? '').toLowerCase());
    const scripts = [...doc.querySelectorAll('script')].filter(executable);
    return {
      // Render-blocking: a stylesheet link, not disabled, whose media (if any) matches this screen.
      blockingStylesheets: [...doc.querySelectorAll<HTMLLinkElement>('link[rel~="stylesheet"]')]
        .filter((l) => !l.hasAttribute('disabled') && (!l.media || matchMedia(l.media).matches))
        .map((l) => l.getAttribute('href') ?? ''),
      scriptFiles: scripts.filter((s) => s.hasAttribute('src')).map((s) => s.getAttribute('src') ?? ''),
      earlyScriptFetches: [
        ...doc.querySelectorAll<HTMLLinkElement>('link[rel~="modulepreload"][href], link[rel~="preload"][as="script"][href]'),
      ].map((l) => l.getAttribute('href') ?? ''),
      inlineScripts: scripts.filter((s) => !s.hasAttribute('src') && s.text !== '').map((s) => s.text),
    };
  }, html);
}

const sha256 = (text: string) => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
/** The inline scripts a page's Content-Security-Policy (as the server sent it) admits: its script-src hashes. */
function admittedHashes(csp: string | null): string[] {
  const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp ?? '')?.[1] ?? '';
  return [...scriptSrc.matchAll(/'(sha256-[^']+)'/g)].map((match) => match[1]!);
}

describe('the first paint', () => {
  it('needs no stylesheet request and no script on any page, and every inline script is admitted by the constant CSP', async () => {
    const { page } = await sessions.open();
    await page.goto(`${baseUrl()}/robots.txt`);
    for (const route of [...KNOWN_ROUTES, UNKNOWN_ROUTE]) {
      const answer = await fetch(`${baseUrl()}${route}`);
      // Hashed here, independently of the stack's code, against the policy the browser would enforce.
      const admitted = admittedHashes(answer.headers.get('content-security-policy'));
      expect(admitted.length, route).toBeGreaterThan(0);
      const html = await answer.text();
      const facts = await factsOf(page, html);
      expect(facts.blockingStylesheets, route).toEqual([]);
      expect(facts.scriptFiles, route).toEqual([]);
      expect(facts.earlyScriptFetches, route).toEqual([]);
      expect(facts.inlineScripts.length, route).toBeGreaterThan(0);
      for (const text of facts.inlineScripts) expect(admitted, `${route}: ${text.slice(0, 60)}`).toContain(sha256(text));
      // The styles are in the page itself.
      // (A "<" may be in the CSS itself, e.g. a range media query, @media (width<=24rem); only </style ends it.)
      expect(html, route).toMatch(/<style>(?:(?!<\/style)[\s\S]){1000,}<\/style>/);
    }
  });

  it('paints the heading with its styles while every script is held back, then hydrates once released', async () => {
    const { page } = await sessions.open({ viewport: 'phone' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const scriptRequests: string[] = [];
    await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
      scriptRequests.push(new URL(route.request().url()).pathname);
      await held;
      await route.continue();
    });
    await page.goto(`${baseUrl()}/projects`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, undefined, {
      timeout: 10_000,
    });
    const painted = await page.evaluate(() => {
      const h1 = document.querySelector('h1');
      const box = h1?.getBoundingClientRect();
      return {
        heading: h1?.textContent ?? '',
        visible: Boolean(box && box.width > 0 && box.height > 0),
        // The site's colours and layout, not the browser's defaults.
        bodyBackground: getComputedStyle(document.body).backgroundColor,
        bodyMargin: getComputedStyle(document.body).margin,
        hydrated: Object.keys(document.body).some((key) => key.startsWith('__reactFiber$')),
      };
    });
    expect(painted).toMatchObject({ heading: 'Projects', visible: true, bodyMargin: '0px', hydrated: false });
    expect(painted.bodyBackground).not.toBe('rgba(0, 0, 0, 0)');
    // The scripts were asked for only after that paint (the boot script starts them), and were held.
    await expect.poll(() => scriptRequests.length).toBeGreaterThan(0);
    release();
    await waitForHydration(page);
    // The module preloads waited in their template and were started then: each is a live link, fetched.
    const preloads = await page.evaluate(() => ({
      held: [...(document.querySelector('template[data-deferred-preloads]') as HTMLTemplateElement).content.querySelectorAll('link')].map(
        (l) => l.getAttribute('href') ?? '',
      ),
      live: [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href') ?? ''),
    }));
    expect(preloads.held.length).toBeGreaterThan(0);
    expect(preloads.live).toEqual(expect.arrayContaining(preloads.held));
    expect(scriptRequests).toEqual(expect.arrayContaining(preloads.held));
  });

  it("starts the scripts only once the page's largest image (its preloaded poster) has arrived, or after a second at most", async () => {
    const { page } = await sessions.open({ viewport: 'phone' });
    const scriptRequests: number[] = [];
    page.on('request', (request) => {
      if (/\/assets\/[^/]+\.js$/.test(new URL(request.url()).pathname)) scriptRequests.push(Date.now());
    });
    // The preloaded poster arrives 600 ms late: no script may be asked for before it is in.
    const html = await (await fetch(`${baseUrl()}/projects`)).text();
    const preloaded = /<link rel="preload" as="image" href="([^"]+)"/.exec(html)?.[1];
    expect(preloaded).toMatch(/^\/videos\/.+\.webp$/);
    let posterServedAt = 0;
    await page.route(`${baseUrl()}${preloaded}`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      posterServedAt = Date.now();
      await route.continue();
    });
    await page.goto(`${baseUrl()}/projects`, { waitUntil: 'domcontentloaded' });
    await waitForHydration(page);
    expect(posterServedAt).toBeGreaterThan(0);
    expect(Math.min(...scriptRequests)).toBeGreaterThanOrEqual(posterServedAt);

    // A poster that never arrives holds the scripts back one second, not for good.
    const { page: stalled } = await sessions.open({ viewport: 'phone' });
    await stalled.route(/\/videos\/[^/]+\.webp$/, () => new Promise<void>(() => {}));
    await stalled.goto(`${baseUrl()}/projects`, { waitUntil: 'domcontentloaded' });
    await waitForHydration(stalled);
  });
});
