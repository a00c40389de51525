/**
 * Pull requests' previews in Chromium, as the preview distribution serves them: the fixture posts' build
 * (tools/locale-copy.ts fixtureSiteBuild) made twice for two previews' own paths (PREVIEW_PATH, as the
 * preview workflow builds it), each under its prefix of a directory shaped like the preview bucket, with
 * the not-found page main's deploy writes at its root, behind infra/local/preview-cdn.ts: the
 * distribution's viewer-request function (the code CloudFront runs), the live security headers (CSP),
 * and its error response for a missing key. A reviewer opens the comment's address, clicks through home,
 * a project, a post and the app's 404 page, every file from the preview's own prefix, with no CSP
 * violation and no beacon; two previews work side by side in one browser context.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PreviewCdn, startPreviewCdn, writeNotFoundPage } from '../infra/local/preview-cdn';
import { fixtureSiteBuild } from '../tools/locale-copy';
import { waitForHydration } from './support/browser';
import { FIXTURE_POST } from './support/post-site';
import { useBrowserSessions } from './support/sessions';
import { scratchDir } from '../tools/scratch';

const FIRST = 'pr-7/abc1234';
const SECOND = 'pr-8/def5678';
const label = (preview: string) => `Preview: pull request ${preview.slice(3, preview.indexOf('/'))}, ${preview}`;

let cdn: PreviewCdn | undefined;

beforeAll(async () => {
  const bucket = scratchDir('preview-bucket-');
  // One build at a time: each is a full production build of the fixture site.
  for (const preview of [FIRST, SECOND]) {
    const built = await fixtureSiteBuild({ PREVIEW_PATH: preview, PREVIEW_LABEL: label(preview) });
    mkdirSync(path.join(bucket, path.dirname(preview)));
    symlinkSync(path.join(built.dir, 'web/build/client'), path.join(bucket, preview));
  }
  writeNotFoundPage(bucket);
  cdn = await startPreviewCdn(bucket);
}, 1_800_000);

afterAll(async () => {
  await cdn?.stop();
});

const sessions = useBrowserSessions();

/** Records every CSP violation of every page of the context, from the first script on. */
async function watchCsp(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
}

const cspViolations = (page: Page) => page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []);

async function clickTo(page: Page, link: string, url: RegExp): Promise<void> {
  await page.locator(`${link}:visible`).first().click();
  await page.waitForURL(url);
  await waitForHydration(page);
}

/** Opens a preview from its comment's address and checks the page it lands on. */
async function openPreview(page: Page, preview: string): Promise<void> {
  const response = await page.goto(`${cdn!.origin}/${preview}/`, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe(`/${preview}/home`);
  // The live response headers policy's CSP: inline scripts only by their hashes (a violation would be
  // recorded by watchCsp and reported on the console).
  const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(response!.headers()['content-security-policy'] ?? '')?.[1] ?? '';
  expect(scriptSrc).toMatch(/'sha256-/);
  expect(scriptSrc).not.toMatch(/unsafe-inline/);
  await waitForHydration(page);
  await expect.poll(() => page.locator('[data-preview-marker]').innerText()).toBe(label(preview));
}

/** Every request a page of the context made to the preview distribution, as "METHOD /path". */
function requestsOf(context: BrowserContext): string[] {
  const seen: string[] = [];
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === cdn!.origin) seen.push(`${request.method()} ${url.pathname}`);
  });
  return seen;
}

describe("a pull request's preview", () => {
  it("opens from the comment's address and clicks through home, a project, a post and the app's 404, all under its path", async () => {
    const { context, page } = await sessions.open();
    await watchCsp(context);
    const requests = requestsOf(context);
    await openPreview(page, FIRST);
    const base = `/${FIRST}`;
    await clickTo(page, `a[href="${base}/projects"]`, new RegExp(`${base}/projects$`));
    await clickTo(page, `a[href^="${base}/projects/"]`, new RegExp(`${base}/projects/\\d+$`));
    await clickTo(page, `a[href="${base}/blogs"]`, new RegExp(`${base}/blogs$`));
    await clickTo(page, `a[href="${base}${FIXTURE_POST.path}"]`, new RegExp(`${base}${FIXTURE_POST.path}$`));
    expect(await page.locator('h1').first().innerText()).toContain(FIXTURE_POST.title);
    await expect.poll(() => page.locator('[data-post-body]').innerText()).toContain(FIXTURE_POST.marker);
    await clickTo(page, `a[href="${base}/home"]`, new RegExp(`${base}/home$`));
    // Another language's root sends on to that language's home, under the preview's path.
    await page.goto(`${cdn!.origin}${base}/es`, { waitUntil: 'commit' });
    await page.waitForURL(new RegExp(`${base}/es/home$`));
    await waitForHydration(page);
    await page.goBack();
    await page.waitForURL(new RegExp(`${base}/home$`));
    await waitForHydration(page);

    // A link to a page the preview does not have: the client router shows the app's own 404 page.
    await page.evaluate(
      (to) =>
        (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter.navigate(to),
      '/no-such-page',
    );
    await page.waitForURL(new RegExp(`${base}/no-such-page$`));
    await expect.poll(() => page.locator('#not-found-title').innerText()).toBe('Oops! Page not found.');
    await clickTo(page, 'section.error-page a.button', new RegExp(`${base}/home$`));

    expect(await cspViolations(page)).toEqual([]);
    // Every file came from the preview's own prefix; nothing was refused, and no beacon or analytics was sent.
    expect(requests.length).toBeGreaterThan(5);
    expect(requests.filter((request) => !request.startsWith(`GET ${base}/`))).toEqual([]);
    expect(cdn!.refused).toEqual([]);
  });

  it('two previews open side by side in one browser context, each from its own files', async () => {
    const { context, page: first } = await sessions.open();
    await watchCsp(context);
    const requests = requestsOf(context);
    const second = await context.newPage();
    const secondErrors: string[] = [];
    second.on('console', (message) => {
      if (message.type() === 'error') secondErrors.push(message.text());
    });
    second.on('pageerror', (error) => secondErrors.push(error.message));
    await openPreview(first, FIRST);
    await openPreview(second, SECOND);
    // Back and forth: each tab stays in its own preview, whatever the other opened last.
    await clickTo(first, `a[href="/${FIRST}/projects"]`, new RegExp(`/${FIRST}/projects$`));
    await clickTo(second, `a[href="/${SECOND}/blogs"]`, new RegExp(`/${SECOND}/blogs$`));
    await first.reload({ waitUntil: 'load' });
    await waitForHydration(first);
    expect(new URL(first.url()).pathname).toBe(`/${FIRST}/projects`);
    await clickTo(first, `a[href^="/${FIRST}/projects/"]`, new RegExp(`/${FIRST}/projects/\\d+$`));
    await clickTo(second, `a[href="/${SECOND}${FIXTURE_POST.path}"]`, new RegExp(`/${SECOND}${FIXTURE_POST.path}$`));
    expect(await first.locator('[data-preview-marker]').innerText()).toBe(label(FIRST));
    expect(await second.locator('[data-preview-marker]').innerText()).toBe(label(SECOND));
    expect([...(await cspViolations(first)), ...(await cspViolations(second))]).toEqual([]);
    expect(secondErrors).toEqual([]);
    expect(requests.filter((request) => !request.startsWith(`GET /${FIRST}/`) && !request.startsWith(`GET /${SECOND}/`))).toEqual([]);
    await second.close();
  });

  it('a direct load of a missing address answers 404 with a readable page; outside a preview, a short 404', async () => {
    const { page, allowConsoleError } = await sessions.open();
    // The browser reports each 404 document it loads.
    allowConsoleError(/status of 404/);
    const missing = await page.goto(`${cdn!.origin}/${FIRST}/no-such-page`, { waitUntil: 'load' });
    expect(missing?.status()).toBe(404);
    expect(await page.locator('h1').innerText()).toBe('Not a page of this preview');
    expect(await page.content()).not.toContain('AccessDenied');
    const outside = await fetch(`${cdn!.origin}/home`);
    expect(outside.status).toBe(404);
    expect(await outside.text()).toMatch(/^Not a preview: open the address in the pull request's preview comment/);
    expect((await fetch(`${cdn!.origin}/${FIRST}`, { redirect: 'manual' })).headers.get('location')).toBe(`/${FIRST}/`);
  });
});
