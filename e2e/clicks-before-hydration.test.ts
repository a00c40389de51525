/**
 * Clicks before the app has hydrated: the page's boot script counts a tracked link's click (its
 * `data-event`) until React takes over, and no click is counted twice. The page's scripts are held back
 * (as on a slow phone) so the click lands on the prerendered link.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventName } from '../contract/event-names';
import { projects } from '../web/content/projects';
import { blogs } from '../web/content/blogs';
import { baseUrl, eventually, visit, waitForHydration } from './support/browser';
import { holdScripts } from './support/hold-scripts';
import { useBrowserSessions } from './support/sessions';

const sessions = useBrowserSessions();

async function arrive(page: Page, path: string): Promise<void> {
  await page.goto(`${baseUrl()}${path}`, { waitUntil: 'commit' });
  await page.locator('h1').first().waitFor({ state: 'visible' });
}

const isHydrated = (page: Page) => page.evaluate(() => document.documentElement.dataset.hydrated === 'true');

/** A quiet moment for any late or second beacon to show up. */
const settle = (page: Page) => page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 800)));

const project = projects[0]!;
const CASES: { name: string; path: string; link: (page: Page) => Locator; event: string }[] = [
  {
    name: 'a menu entry (same-tab navigation)',
    path: '/home',
    link: (page) => page.getByRole('link', { name: 'Projects', exact: true }).filter({ visible: true }).first(),
    event: eventName('SIDEBAR_NAV', 'Projects'),
  },
  {
    name: "the home page's button",
    path: '/home',
    link: (page) => page.locator('main a[data-event="HOME_EXPLORE_PROJECTS_CLICK"]'),
    event: 'HOME_EXPLORE_PROJECTS_CLICK',
  },
  {
    name: "a project's Read more",
    path: '/projects',
    link: (page) => page.locator(`main a[href="/projects/${project.id}"]`).first(),
    event: eventName('PROJECT_VIEW', project.title),
  },
  {
    name: 'an article (new tab)',
    path: '/blogs',
    link: (page) => page.locator('main a.blog-card').first(),
    event: eventName('BLOG_READ', blogs[0]!.title),
  },
];

describe('clicks before hydration', () => {
  for (const { name, path, link, event } of CASES) {
    it(`counts ${name} exactly once`, async () => {
      const { page, context } = await sessions.open({ viewport: 'desktop' });
      const scripts = await holdScripts(page);
      // A link that opens a new tab: the new tab's page is not ours to wait for.
      context.on('page', (popup) => void popup.close().catch(() => {}));
      await arrive(page, path);
      // The page has asked for its scripts and they are waiting: the click lands on the prerendered link.
      await scripts.firstHeld;
      await link(page).click();
      expect(scripts.held(), 'the scripts were held back').toBeGreaterThan(0);
      await eventually(
        async () => sessions.current.clickEvents(),
        (sent) => sent.includes(event),
        event,
      );
      // Now let the app come and take over: the click is not sent again.
      scripts.release();
      await waitForHydration(page);
      await settle(page);
      expect(sessions.current.clickEvents()).toEqual([event]);
    });
  }

  it('leaves clicks to the app once it has hydrated: one beacon each, none from the boot script', async () => {
    const { page } = await sessions.open({ viewport: 'desktop' });
    await visit(page, '/home');
    expect(await isHydrated(page)).toBe(true);
    await page.locator('main a[data-event="HOME_EXPLORE_PROJECTS_CLICK"]').click();
    await page.waitForURL((url) => url.pathname === '/projects');
    await page.locator(`main a[href="/projects/${project.id}"]`).first().click();
    await page.waitForURL((url) => url.pathname === `/projects/${project.id}`);
    await settle(page);
    expect(sessions.current.clickEvents()).toEqual(['HOME_EXPLORE_PROJECTS_CLICK', eventName('PROJECT_VIEW', project.title)]);
  });
});
