/**
 * `npx tsx scripts/screenshots.ts` (after `npm run build`): full-page screenshots of every page at
 * phone (390×844) and desktop (1440×900) sizes, in the light and the dark theme, into
 * docs/screenshots/ as {size}-{page}.png and {size}-{page}-dark.png. It serves the build with the
 * local stack on free ports and drives the Chromium the tests use
 * (tools/chromium.ts: CHROMIUM_PATH, else an installed one).
 * Nothing leaves the machine: requests to other hosts are aborted (the captcha box stays empty).
 * `--posts`: the shipped content has no post, so this builds a copy of the project with the fixture
 * posts (web/test/fixtures/posts, tools/project-copy.ts) and shoots a post page in each language instead.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../tools/chromium';
import { startLocalStack } from '../infra/local/stack';
import { copyProject, POST_FIXTURE } from '../tools/project-copy';

const OUT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshots');

const POST_PAGES: Record<string, string> = { post: '/blogs/every-feature', 'es-post': '/es/blogs/every-feature' };

const SITE_PAGES: Record<string, string> = {
  home: '/home',
  projects: '/projects',
  'project-1': '/projects/1',
  'project-4': '/projects/4',
  blogs: '/blogs',
  contact: '/contact',
  about: '/about',
  error: '/error',
  'privacy-policy': '/privacy-policy',
  'not-found': '/no-such-page',
  // The Spanish site: a page of each kind a visitor lands on first.
  'es-home': '/es/home',
  'es-project-1': '/es/projects/1',
  'es-contact': '/es/contact',
  'es-not-found': '/es/no-such-page',
};

const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
  desktop: { viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 },
} as const;


async function settle(page: Page) {
  await page.waitForFunction(
    () => Boolean((window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter?.state.initialized),
  );
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

const posts = process.argv.includes('--posts') ? copyProject('screenshots-posts-', POST_FIXTURE) : undefined;
if (posts) {
  const built = await posts.build();
  if (built.code !== 0) throw new Error(`The build with the fixture posts failed:\n${built.output}`);
}
const PAGES = posts ? POST_PAGES : SITE_PAGES;
const stack = await startLocalStack({ port: 0, sesPort: 0, quiet: true, ...(posts ? { clientDir: path.join(posts.dir, 'web/build/client') } : {}) });
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: CHROMIUM_ARGS,
  headless: true,
});
try {
  mkdirSync(OUT_DIR, { recursive: true });
  let count = 0;
  for (const [size, device] of Object.entries(SIZES)) {
    for (const scheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({
        ...device,
        colorScheme: scheme,
        reducedMotion: 'reduce',
        timezoneId: 'UTC',
        locale: 'en-US',
        // A returning visitor who accepted: the banner would cover the bottom of each page.
        storageState: { cookies: [], origins: [{ origin: stack.url, localStorage: [{ name: 'cookieConsent', value: 'true' }] }] },
      });
      await context.route('**/*', (route) => {
        const { hostname } = new URL(route.request().url());
        return hostname === '127.0.0.1' ? route.continue() : route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      for (const [name, route] of Object.entries(PAGES)) {
        await page.goto(`${stack.url}${route}`, { waitUntil: 'load' });
        await settle(page);
        const file = `${size}-${name}${scheme === 'dark' ? '-dark' : ''}.png`;
        // A window as tall as the page rather than fullPage: the fixed side panel then spans it all.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        await page.setViewportSize({ width: device.viewport.width, height });
        await page.screenshot({ path: path.join(OUT_DIR, file) });
        await page.setViewportSize(device.viewport);
        count += 1;
      }
      await context.close();
    }
  }
  console.log(`screenshots: ${count} files in docs/screenshots/`);
} finally {
  await browser.close();
  await stack.stop();
  posts?.remove();
}
