/**
 * The on-site post flow in each browser engine (chromium.test.ts, firefox.test.ts and webkit.test.ts
 * call `describePostFlows`): a card on /blogs opens its post in the same tab, the post's text (read
 * from its prerendered page: it is in no script) shows, and Back returns to /blogs with its list.
 * The shipped site has no post, so this serves the build with the fixture posts (e2e/support/post-site.ts).
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/browser';
import { FIXTURE_POST, startPostSite, type PostSite } from '../support/post-site';
import { reachesPath, engineSession, type EngineName, type EnginePage } from './engine';
import { axeViolations, clickEvents, hydrated, mainText } from './flows';
import { escapeCloses, searchOpenAndBack, showResults } from './search-flows';

/** The one project whose technologies hold GraphQL, by its title in each language (web/content). */
const SEARCH_PROJECT = { en: 'Dining Tracker App', es: 'Aplicación de diario gastronómico' } as const;

/** A search flow's time: each search fetches the dialog, then a page and Back; WebKitGTK on a busy machine needs more than the default minute. */
const SEARCH_FLOW_MS = 180_000;

/** What /blogs of the fixture lists: its two English posts, then the three external articles. */
const BLOG_CARDS = 5;

/** The text of the post's body, or '' while it is not on the page. */
function postText(page: EnginePage): Promise<string> {
  return page.evaluate(() => document.querySelector('[data-post-body]')?.textContent ?? '');
}

function cardCount(page: EnginePage): Promise<number> {
  return page.evaluate(() => document.querySelectorAll('main a.blog-card').length);
}

/** From /blogs, a card opens its post in the same tab and document, and Back returns to the list. */
async function cardToPostAndBack(page: EnginePage, network: Parameters<typeof clickEvents>[0]): Promise<void> {
  expect(await cardCount(page)).toBe(BLOG_CARDS);
  // Kept only while the same document stays in this tab: a new tab or a full load would lose it.
  await page.evaluate(() => void ((window as unknown as { postFlow: boolean }).postFlow = true));
  await page.click({ css: 'main a.blog-card', name: new RegExp(FIXTURE_POST.title) });
  await reachesPath(page, FIXTURE_POST.path);
  await eventually(
    () => postText(page),
    (text) => text.includes(FIXTURE_POST.marker),
    "the post's text",
    10_000,
  );
  expect(await page.evaluate(() => document.querySelector('main h1')?.textContent)).toBe(FIXTURE_POST.title);
  expect(await page.evaluate(() => (window as unknown as { postFlow?: boolean }).postFlow ?? false), 'the same tab and document').toBe(
    true,
  );
  await eventually(
    () => clickEvents(network),
    (names) => names.includes('BLOG_READ_WRITING_ON_THE_SITE_ITSELF'),
    'BLOG_READ sent',
  );

  await page.back();
  await reachesPath(page, '/blogs', '/blogs after Back');
  await eventually(
    () => cardCount(page),
    (count) => count === BLOG_CARDS,
    'the list of /blogs',
  );
  expect(await mainText(page)).toContain(FIXTURE_POST.title);
  expect(await postText(page)).toBe('');
}

export function describePostFlows(name: EngineName): void {
  describe(`on-site post flows in ${name}`, () => {
    let site: PostSite | undefined;
    // The site with the fixture posts (its build may be made first), then the file's shared engine and proxy.
    const session = engineSession(name, {
      setup: async () => void (site = await startPostSite()),
      teardown: async () => await site?.stop(),
      timeout: 900_000,
    });

    async function visit(path: string): Promise<EnginePage> {
      const page = await session.open({ viewport: 'desktop' });
      await page.goto(`${site!.origin}${path}`);
      await hydrated(page);
      return page;
    }

    it('card → post in the same tab, its text shown → Back to /blogs with its list', async () => {
      await cardToPostAndBack(await visit('/blogs'), session.network);
    });

    it(
      'search: a word of a post and a technology each find their page, which opens in the same tab; Back returns; Escape closes',
      async () => {
        const page = await visit('/home');
        await searchOpenAndBack(page, '/home', 'control', {
          query: 'fixturemarkr',
          title: FIXTURE_POST.title,
          path: FIXTURE_POST.path,
          shows: FIXTURE_POST.marker,
        });
        await eventually(
          () => clickEvents(session.network),
          (names) => names.includes('SEARCH_RESULT_OPEN'),
          'SEARCH_RESULT_OPEN sent',
        );
        await searchOpenAndBack(page, '/home', 'shortcut', {
          query: 'graphq',
          title: SEARCH_PROJECT.en,
          path: '/projects/4',
          shows: 'GraphQL',
        });
        await escapeCloses(page);
        // Nothing the visitor typed ever leaves the browser: no request holds it, in its address or its body.
        const typed = session.network.requests.filter((request) => /fixturemarkr|graphq/i.test(`${request.url} ${request.body}`));
        expect(typed.map((request) => request.url)).toEqual([]);
      },
      SEARCH_FLOW_MS,
    );

    it(
      'search: axe finds nothing with the dialog open and its results shown',
      async () => {
        const page = await visit('/home');
        await showResults(page, 'graphq', SEARCH_PROJECT.en);
        expect(await axeViolations(page)).toEqual([]);
        // The language's index came as a hashed script, cached for a year like every other asset.
        const served = await page.evaluate(async () => {
          const entry = performance.getEntriesByType('resource').find((e) => /\/assets\/[^/]*search-index-en-[^/]*\.js$/.test(e.name));
          if (!entry) return null;
          const response = await fetch(entry.name);
          return { type: response.headers.get('content-type'), cache: response.headers.get('cache-control') };
        });
        expect(served).toEqual({ type: expect.stringMatching(/javascript/), cache: expect.stringMatching(/max-age=31536000.*immutable/) });
      },
      SEARCH_FLOW_MS,
    );

    it(
      'search in Spanish: accents optional, results in Spanish at Spanish paths',
      async () => {
        const page = await visit('/es/home');
        await searchOpenAndBack(page, '/es/home', 'control', {
          query: 'palabra articulo',
          title: FIXTURE_POST.spanishTitle,
          path: `/es${FIXTURE_POST.path}`,
          shows: FIXTURE_POST.spanishText,
        });
        await searchOpenAndBack(page, '/es/home', 'shortcut', {
          query: 'aplicacion graphql',
          title: SEARCH_PROJECT.es,
          path: '/es/projects/4',
          shows: 'GraphQL',
        });
      },
      SEARCH_FLOW_MS,
    );

    it('a post opened directly keeps its text through hydration (Spanish)', async () => {
      const page = await visit(`/es${FIXTURE_POST.path}`);
      expect(await postText(page)).toContain(FIXTURE_POST.spanishText);
    });
  });
}
