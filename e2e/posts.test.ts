/**
 * On-site posts in Chromium: the fixture posts (web/test/fixtures/posts) built in a copy of the project
 * (the shipped site has none) and served by a local stack of their own. A post opened directly keeps
 * its text through hydration, axe finds nothing in either theme, and its code takes each theme's
 * colours. The card → post → Back flow runs in every engine (e2e/engines/post-flows.ts).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { waitForHydration } from './support/browser';
import { FIXTURE_POST, startPostSite, type PostSite } from './support/post-site';
import { useBrowserSessions } from './support/sessions';

let site: PostSite | undefined;

beforeAll(async () => {
  site = await startPostSite();
}, 900_000);

afterAll(async () => {
  await site?.stop();
});

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
});
