/**
 * `npx tsx scripts/screenshots.ts` (after `npm run build`): full-page screenshots of every page at
 * phone (390×844) and desktop (1440×900) sizes, in the light and the dark theme, into
 * docs/screenshots/ as {size}-{page}.png and {size}-{page}-dark.png. It serves the build with the
 * local stack on free ports and drives the Chromium the tests use
 * (tools/chromium.ts: CHROMIUM_PATH, else an installed one).
 * Nothing leaves the machine: requests to other hosts are aborted, and the contact form's captcha is the
 * local stand-in (`LOCAL_CAPTCHA=fake npm start`'s, tools/fake-recaptcha.ts), so the form shows its box
 * rather than the captcha's load error.
 *
 * Then the right-to-left example: web/content/README.md's Arabic line added by its steps in a copy of
 * the project, with the Arabic texts of e2e/fixtures/ar (tools/locale-copy.ts), built and shot as
 * {size}-ar-home.png and {size}-ar-contact.png. `--rtl` shoots only those. SCREENSHOTS_DIR writes
 * elsewhere than docs/screenshots/ (to compare a change's pictures with the committed ones).
 *
 * `--posts`: the shipped content has no post, so this builds a copy of the project with the fixture
 * posts (web/test/fixtures/posts; the tests' shared build, tools/locale-copy.ts) and shoots a post page
 * in each language instead.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../tools/chromium';
import { startLocalStack } from '../infra/local/stack';
import { fixtureSiteBuild } from '../tools/locale-copy';
import { FAKE_RECAPTCHA_JS } from '../tools/fake-recaptcha';

/** The local stack the pictures are taken on (the captcha's stand-in loaded by every page). */
const STACK = { port: 0, sesPort: 0, quiet: true, pageScript: FAKE_RECAPTCHA_JS } as const;

const OUT_DIR = path.resolve(
  process.env.SCREENSHOTS_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshots'),
);

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
  await page.waitForFunction(() =>
    Boolean(
      (window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter?.state.initialized,
    ),
  );
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // What arrives late, so two runs give the same pictures: the captcha script (refused here, so a
  // contact page ends with its box saying so) and the images once the window is as tall as the page.
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => !document.querySelector('.contact-form__captcha-note:not([role="alert"])'));
}

/**
 * The lazy images (video posters) the tall window has brought into view, loaded and decoded. Only
 * the images laid out: a lazy one in a hidden part (the side panel's headshot on a phone) never loads.
 */
async function imagesLoaded(page: Page) {
  await page.waitForFunction(() =>
    [...document.images].filter((image) => image.getClientRects().length > 0).every((image) => image.complete),
  );
  await page.evaluate(() =>
    Promise.all(
      [...document.images].filter((image) => image.getClientRects().length > 0).map((image) => image.decode().catch(() => undefined)),
    ).then(() => undefined),
  );
}

const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: CHROMIUM_ARGS,
  headless: true,
});

/** Shoots `pages` of the site at `origin` at each size in each theme; returns how many files. */
async function shoot(origin: string, pages: Record<string, string>): Promise<number> {
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
        storageState: { cookies: [], origins: [{ origin, localStorage: [{ name: 'cookieConsent', value: 'true' }] }] },
      });
      await context.route('**/*', (route) => {
        const { hostname } = new URL(route.request().url());
        return hostname === '127.0.0.1' ? route.continue() : route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      for (const [name, route] of Object.entries(pages)) {
        await page.goto(`${origin}${route}`, { waitUntil: 'load' });
        await settle(page);
        const file = `${size}-${name}${scheme === 'dark' ? '-dark' : ''}.png`;
        // A window as tall as the page rather than fullPage: the fixed side panel then spans it all.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        await page.setViewportSize({ width: device.viewport.width, height });
        await imagesLoaded(page);
        await page.screenshot({ path: path.join(OUT_DIR, file) });
        await page.setViewportSize(device.viewport);
        count += 1;
      }
      await context.close();
    }
  }
  return count;
}

/** Shoots `pages` of the build in `clientDir` (the shipped one when none), served on free ports while they are shot. */
async function shootServed(pages: Record<string, string>, clientDir?: string): Promise<number> {
  const stack = await startLocalStack({ ...STACK, clientDir });
  try {
    return await shoot(stack.url, pages);
  } finally {
    await stack.stop();
  }
}

try {
  mkdirSync(OUT_DIR, { recursive: true });
  // The fixture posts and the Arabic example: in a copy of the project (the build the browser tests share).
  const fixture = () => fixtureSiteBuild().then(({ rtl, dir }) => ({ rtl, clientDir: path.join(dir, 'web/build/client') }));
  let count = 0;
  if (process.argv.includes('--posts')) {
    count += await shootServed(POST_PAGES, (await fixture()).clientDir);
  } else {
    if (!process.argv.includes('--rtl')) count += await shootServed(SITE_PAGES);
    const { rtl, clientDir } = await fixture();
    count += await shootServed({ [`${rtl}-home`]: `/${rtl}/home`, [`${rtl}-contact`]: `/${rtl}/contact` }, clientDir);
  }
  console.log(`screenshots: ${count} files in ${path.relative(process.cwd(), OUT_DIR) || '.'}/`);
} finally {
  await browser.close();
}
