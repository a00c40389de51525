/**
 * On-site posts in Chromium: the fixture posts (web/test/fixtures/posts) built in a copy of the project
 * (the shipped site has none) and served by a local stack of their own. A post opened directly keeps
 * its text through hydration, axe finds nothing in either theme, and its code takes each theme's
 * colours. The card → post → Back flow runs in every engine (e2e/engines/post-flows.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { REPO } from '../tools/project-copy';
import { eventually, waitForHydration } from './support/browser';
import { FIXTURE_POST, startPostSite, type PostSite } from './support/post-site';
import { useBrowserSessions } from './support/sessions';
import { scratchDir } from '../tools/scratch';

let site: PostSite | undefined;
/** Where the fixture site's stack keeps the page views it accepts, as `npm start` does. */
const pageViewsFile = path.join(scratchDir('portfolio-post-views-'), 'page-views.jsonl');

beforeAll(async () => {
  site = await startPostSite({ pageViewsFile });
}, 900_000);

afterAll(async () => {
  await site?.stop();
});

/** The page views the fixture site's stack kept so far. */
function keptPageViews(): Record<string, unknown>[] {
  const lines = existsSync(pageViewsFile) ? readFileSync(pageViewsFile, 'utf8').split('\n').filter(Boolean) : [];
  return lines.map((line) => (JSON.parse(line) as { pageView: Record<string, unknown> }).pageView);
}

const sessions = useBrowserSessions();

async function open(path: string): Promise<Page> {
  const { page } = await sessions.open();
  await page.goto(`${site!.origin}${path}`, { waitUntil: 'load' });
  await waitForHydration(page);
  return page;
}

const bodyText = (page: Page) => page.locator('[data-post-body]').innerText();

describe('on-site posts', () => {
  it('keeps the text of a post opened directly through hydration, and axe finds nothing in either theme', async () => {
    const page = await open(`/es${FIXTURE_POST.path}`);
    expect(await bodyText(page)).toContain(FIXTURE_POST.spanishText);
    expect(await page.locator('pre.shiki span').count()).toBeGreaterThan(3);
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page)).toEqual([]);
    // The code takes its dark theme's colours (github-dark's keyword #F97583; github-light's is #D73A49).
    const keyword = () => page.evaluate(() => getComputedStyle(document.querySelector('pre.shiki .line span')!).color);
    expect(await keyword()).toBe('rgb(249, 117, 131)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await keyword()).toBe('rgb(215, 58, 73)');
  });

  it('counts page views of a post and of a tag page under their own patterns, and npm run visitors reports them', async () => {
    const page = await open(`/es${FIXTURE_POST.path}`);
    // The app's page-view code (loaded when the page is idle) counts the client-side navigation to come;
    // a page left before it starts is counted by the boot script alone, as one load.
    await eventually(
      () => page.evaluate(() => document.documentElement.getAttribute('data-page-views')),
      (who) => who === 'app',
      "the app's page-view code started",
    );
    await page.locator('a.post-tag').first().click();
    await page.waitForURL((url) => url.pathname.startsWith('/es/blogs/tags/'));
    // The next client-side navigation sends the tag page's view (the post's went on the way to the tag
    // page); leaving the document would too, but a beacon sent as a page unloads may be lost on a busy machine.
    await page.locator('.side-panel a[href="/es/about"]').first().click();
    await page.waitForURL((url) => url.pathname === '/es/about');
    // The file also holds the page views of this file's other tests (a page sends its view as it closes).
    const tagView = (views: Record<string, unknown>[]) => views.findIndex((view) => view.route === '/blogs/tags/:tag');
    await eventually(
      async () => keptPageViews(),
      (views) => tagView(views) >= 0,
      "the tag page's page view",
    );
    const views = keptPageViews();
    expect(views[tagView(views)]).toEqual(expect.objectContaining({ route: '/blogs/tags/:tag', lang: 'es', nav: 'client' }));
    expect(views.slice(0, tagView(views))).toContainEqual(expect.objectContaining({ route: '/blogs/:slug', lang: 'es', nav: 'load' }));
    expect(views.some((view) => view.route === '*')).toBe(false);

    // npm run visitors -- --local, as the owner runs it, on what this stack kept.
    const visitors = spawnSync(process.execPath, ['--import', 'tsx', 'infra/scripts/visitors/cli.ts', '--local', '--json', '--days', '1'], {
      cwd: REPO,
      env: { ...process.env, PAGE_VIEWS_FILE: pageViewsFile },
      encoding: 'utf8',
    });
    expect(visitors.status, visitors.stderr).toBe(0);
    const out = visitors.stdout;
    const routes = (JSON.parse(out) as { pageViewsByDay: { route: string }[] }).pageViewsByDay.map((row) => row.route);
    expect(routes).toEqual(expect.arrayContaining(['/blogs/:slug', '/blogs/tags/:tag']));
    expect(routes).not.toContain('*');
  });
});
