import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventName } from '../contract/event-names';
import { baseUrl, eventually, scrollY, visit, waitForHydration, textOf, type SessionOptions } from './support/browser';
import { KNOWN_ROUTES, normalize, TEXT, UNKNOWN_ROUTE } from './support/site';
import { useBrowserSessions } from './support/sessions';

const sessions = useBrowserSessions();

/**
 * A page for the test, in the session the previous test left when the options allow (sessions.ts): what
 * these tests check is the same on a first visit and a later one. The greeting tests (their own time
 * zone, so their own session) each fix the clock before their first visit.
 */
async function open(options: SessionOptions = {}): Promise<Page> {
  return (await sessions.reuse(options)).page;
}

function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** The cards of /projects as a visitor sees them: title and the Read more target. */
async function projectCards(page: Page): Promise<{ title: string; href: string }[]> {
  const links = page.getByRole('main').getByRole('link', { name: /read more/i });
  const count = await links.count();
  const cards: { title: string; href: string }[] = [];
  for (let i = 0; i < count; i++) {
    const link = links.nth(i);
    const href = (await link.getAttribute('href')) ?? '';
    // The card is the closest ancestor holding a heading; its heading is the project's title.
    const title = await link.evaluate((el) => {
      let node: Element | null = el.parentElement;
      while (node && !node.querySelector('h1, h2, h3, h4')) node = node.parentElement;
      return node?.querySelector('h1, h2, h3, h4')?.textContent?.trim() ?? '';
    });
    cards.push({ title, href });
  }
  return cards;
}

describe('HTTP status and prerendered HTML through the local server', () => {
  it('answers 200 with a prerendered page, its own title, description and OpenGraph tags for every route', async () => {
    const titles = new Map<string, string>();
    for (const route of KNOWN_ROUTES) {
      const response = await fetch(`${baseUrl()}${route}`, { redirect: 'manual' });
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type'), route).toMatch(/text\/html/);
      const html = await response.text();
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1]?.trim() ?? '';
      expect(title, `${route} has a <title>`).not.toBe('');
      expect(html, `${route} has a meta description`).toMatch(/<meta[^>]+name="description"[^>]+content="[^"]+"/);
      expect(html, `${route} has og:title`).toMatch(/<meta[^>]+property="og:title"[^>]+content="[^"]+"/);
      titles.set(route, title);
    }
    // Each page has its own title (the project pages name their project).
    const distinct = new Set(titles.values());
    expect(distinct.size, JSON.stringify(Object.fromEntries(titles))).toBe(titles.size);
  });

  it('puts the content in the HTML before any script runs', async () => {
    const expectations: [string, string][] = [
      ['/projects', TEXT.moreToCome],
      ['/blogs', 'Insights &amp; Inspiration'],
      ['/contact', TEXT.contactHeading],
      ['/error', TEXT.errorHeading],
      ['/privacy-policy', TEXT.privacyUpdated],
    ];
    for (const [route, text] of expectations) {
      const html = await (await fetch(`${baseUrl()}${route}`)).text();
      expect(html, route).toContain(text);
    }
  });

  it('without scripts, the search control is a link to /search, which lists every page by kind', async () => {
    for (const [locale, kinds] of [
      ['', ['Page', 'Project', 'Article']],
      ['/es', ['Página', 'Proyecto', 'Artículo']],
    ] as const) {
      const home = await (await fetch(`${baseUrl()}${locale}/home`)).text();
      expect(
        home.match(new RegExp(`<a class="search-link" href="${locale}/search"`, 'g')),
        'in the side panel and the phone bar',
      ).toHaveLength(2);
      const response = await fetch(`${baseUrl()}${locale}/search`);
      expect(response.status).toBe(200);
      const list = await response.text();
      for (const kind of kinds) expect(list).toContain(`>${kind}</h2>`);
      for (const id of [1, 2, 3, 4, 5]) expect(list).toContain(`href="${locale}/projects/${id}"`);
      for (const path of ['/home', '/about', '/contact', '/privacy-policy']) expect(list).toContain(`href="${locale}${path}"`);
    }
  });

  it('answers 404 for an unknown path and an unknown project id', async () => {
    for (const path of [UNKNOWN_ROUTE, '/projects/99', '/projects/abc', '/home/extra']) {
      const response = await fetch(`${baseUrl()}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/text\/html/);
    }
  });
});

describe('routes in the browser', () => {
  it('redirects / to /home, replacing the history entry', async () => {
    const page = await open();
    await visit(page, '/about');
    await visit(page, '/');
    expect(pathOf(page)).toBe('/home');
    await page.goBack();
    await waitForHydration(page);
    // Back leads to the page before, not to "/" (which would bounce to /home again).
    expect(pathOf(page)).toBe('/about');
  });

  it("redirects a client-side link to / (the 404 page's Go home) to /home, replacing history", async () => {
    const page = await open();
    sessions.current.allowConsoleError(/status of 404/);
    expect(await visit(page, UNKNOWN_ROUTE)).toBe(404);
    const historyBefore = await page.evaluate(() => history.length);
    await page.getByRole('link', { name: TEXT.goHome }).click();
    await page.waitForURL(/\/home$/);
    await eventually(
      () => textOf(page.getByRole('main')),
      (t) => /Good (Morning|Afternoon|Evening)/.test(t),
      'the greeting',
    );
    expect(await page.evaluate(() => history.length)).toBe(historyBefore + 1);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === UNKNOWN_ROUTE);
  });

  it.each([
    ['11:59', 'Good Morning'],
    ['12:00', 'Good Afternoon'],
    ['17:59', 'Good Afternoon'],
    ['18:00', 'Good Evening'],
    ['23:30', 'Good Evening'],
    ['00:10', 'Good Morning'],
  ])('greets by local hour at %s: %s (and hydrates without a mismatch)', async (time, greeting) => {
    // The visitor's local hour, not the server's: a time zone far from UTC proves it.
    const page = await open({ timezoneId: 'Asia/Tokyo' });
    await page.clock.setFixedTime(new Date(`2026-03-10T${time}:00+09:00`));
    await visit(page, '/home');
    const main = page.getByRole('main');
    await eventually(
      () => textOf(main),
      (text) => text.includes(greeting),
      `the greeting "${greeting}"`,
    );
    const others = TEXT.greetings.filter((g) => g !== greeting);
    const text = await textOf(main);
    for (const other of others) expect(text).not.toContain(other);
  });

  it('shows the home intro and a button to /projects that sends its click event', async () => {
    const page = await open();
    await visit(page, '/home');
    const main = page.getByRole('main');
    const toProjects = main.locator('a[href="/projects"]');
    await expect(toProjects.count()).resolves.toBeGreaterThan(0);
    expect(normalize(await textOf(main)).length).toBeGreaterThan(60);
    await toProjects.first().click();
    await page.waitForURL(/\/projects$/);
    await eventually(
      () => sessions.current.clickEvents(),
      (names) => names.includes('HOME_EXPLORE_PROJECTS_CLICK'),
      'HOME_EXPLORE_PROJECTS_CLICK',
    );
  });

  it('shows five project cards with Need, Solution, Tech and Read more, then More to come! and a scroll-to-top button', async () => {
    const page = await open();
    await visit(page, '/projects');
    const main = page.getByRole('main');
    const cards = await projectCards(page);
    expect(cards.map((c) => c.href).sort()).toEqual(['/projects/1', '/projects/2', '/projects/3', '/projects/4', '/projects/5']);
    for (const card of cards) expect(card.title, card.href).not.toBe('');
    const text = await textOf(main);
    for (const label of ['Need', 'Solution', 'Tech']) {
      expect(text.match(new RegExp(`\\b${label}\\b`, 'g'))?.length ?? 0, label).toBeGreaterThanOrEqual(5);
    }
    // At least two projects have a demo video (a poster linking to the file) and at least one has none.
    const videos = main.getByRole('link', { name: /^Play: Demo video of / });
    const videoCount = await videos.count();
    expect(videoCount).toBeGreaterThanOrEqual(2);
    expect(videoCount).toBeLessThan(5);
    for (let i = 0; i < videoCount; i++) {
      await expect(videos.nth(i).getAttribute('href')).resolves.toMatch(/^\/videos\/.+\.mp4$/);
      await expect(videos.nth(i).locator('img').getAttribute('src')).resolves.toMatch(/^\/videos\/.+\.(webp|jpg)$/);
    }
    // No player is built until the visitor asks for one; a click plays the video in place.
    expect(await main.locator('video').count()).toBe(0);
    const frame = await videos.first().boundingBox();
    await videos.first().click();
    const player = main.locator('video');
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.autoplay && v.muted && v.controls)).toBe(true);
    expect(await player.evaluate((v) => v === document.activeElement)).toBe(true);
    expect(await player.boundingBox()).toEqual(frame);
    expect(page.url()).toMatch(/\/projects$/);
    // "More to come!" comes after the grid, followed by a scroll-to-top button.
    const order = await page.evaluate((more) => {
      const all = [...document.querySelectorAll('main *')];
      const moreIndex = all.findIndex((el) => el.children.length === 0 && el.textContent?.trim() === more);
      const lastReadMore = all.map((el) => el.tagName === 'A' && /^Read more/.test(el.textContent?.trim() ?? '')).lastIndexOf(true);
      const topButton = all.findIndex(
        (el, i) => i > moreIndex && el.tagName === 'BUTTON' && /top/i.test(el.getAttribute('aria-label') ?? el.textContent ?? ''),
      );
      return { moreIndex, lastReadMore, topButton };
    }, TEXT.moreToCome);
    expect(order.moreIndex).toBeGreaterThan(-1);
    expect(order.moreIndex).toBeGreaterThan(order.lastReadMore);
    expect(order.topButton).toBeGreaterThan(order.moreIndex);
  });

  it("shows each project's detail with the rules for projects 1 and 4, and sends the detail click events", async () => {
    const page = await open();
    await visit(page, '/projects');
    const cards = await projectCards(page);
    for (const card of cards) {
      const id = Number(card.href.split('/').pop());
      await visit(page, card.href);
      const main = page.getByRole('main');
      expect(normalize(await textOf(main.getByRole('heading', { level: 1 })))).toBe(normalize(card.title));
      const text = await textOf(main);
      for (const label of ['Need', 'Solution', 'Technologies', 'Description']) expect(text, `${id}: ${label}`).toContain(label);
      const website = main.getByRole('link', { name: /^website$/i });
      const github = main.getByRole('link', { name: /^github$/i });
      expect(await website.count(), `project ${id} Website link`).toBe(id === 1 ? 0 : 1);
      expect(await github.count(), `project ${id} GitHub link`).toBe(id === 4 ? 0 : 1);
      const contact = main.getByRole('link', { name: /^contact$/i });
      if (id === 1) {
        await expect(contact.getAttribute('href')).resolves.toBe('/contact');
        const sentence = await contact.evaluate((el) => el.parentElement?.textContent ?? '');
        expect(normalize(sentence)).toContain(`Contact ${TEXT.contactMeFor}`);
      } else {
        expect(await contact.count(), `project ${id} has no Contact link`).toBe(0);
      }
      for (const link of [website, github]) {
        if ((await link.count()) === 0) continue;
        await expect(link.getAttribute('target')).resolves.toBe('_blank');
        await expect(link.getAttribute('rel')).resolves.toMatch(/noopener/);
      }
    }
    // Click events of the detail page (external links open a blocked new tab; the page stays).
    const expected: string[] = [];
    const two = cards.find((c) => c.href === '/projects/2')!;
    await visit(page, '/projects/2');
    const [popup1] = await Promise.all([
      page.waitForEvent('popup'),
      page
        .getByRole('main')
        .getByRole('link', { name: /^website$/i })
        .click(),
    ]);
    await popup1.close();
    const [popup2] = await Promise.all([
      page.waitForEvent('popup'),
      page
        .getByRole('main')
        .getByRole('link', { name: /^github$/i })
        .click(),
    ]);
    await popup2.close();
    expected.push(eventName('PROJECTS_WEBSITE', two.title), eventName('PROJECTS_GITHUB', two.title));
    const one = cards.find((c) => c.href === '/projects/1')!;
    await visit(page, '/projects/1');
    await page
      .getByRole('main')
      .getByRole('link', { name: /^contact$/i })
      .click();
    await page.waitForURL(/\/contact$/);
    expected.push(eventName('PROJECTS_CONTACT', one.title));
    await eventually(
      () => sessions.current.clickEvents(),
      (names) => expected.every((e) => names.includes(e)),
      expected.join(', '),
    );
  });

  it('sends PROJECT_VIEW_{TITLE} from Read more, and a failing events endpoint never stops the navigation', async () => {
    const page = await open();
    await visit(page, '/projects');
    const cards = await projectCards(page);
    const first = cards[0]!;
    await page
      .getByRole('main')
      .getByRole('link', { name: /read more/i })
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === first.href);
    await eventually(
      () => sessions.current.clickEvents(),
      (n) => n.includes(eventName('PROJECT_VIEW', first.title)),
      'PROJECT_VIEW event',
    );

    sessions.current.allowConsoleError(/status of 500|ERR_FAILED|api\/events/);
    for (const failure of ['500', 'abort'] as const) {
      await page.route('**/api/events', (route) =>
        failure === '500' ? route.fulfill({ status: 500, body: 'boom' }) : route.abort('failed'),
      );
      await visit(page, '/projects');
      const target = cards[cards.length - 1]!;
      await page
        .getByRole('main')
        .locator(`a[href="${target.href}"]`)
        .filter({ hasText: /read more/i })
        .click();
      await page.waitForURL((url) => url.pathname === target.href);
      await eventually(
        async () => normalize(await textOf(page.getByRole('main').getByRole('heading', { level: 1 }))),
        (title) => title === normalize(target.title),
        `the detail of ${target.title}`,
      );
      await page.unroute('**/api/events');
    }
  });

  it('navigates an unknown project id to /error', async () => {
    const page = await open();
    sessions.current.allowConsoleError(/status of 404/);
    await page.goto(`${baseUrl()}/projects/99`);
    await page.waitForURL(/\/error$/);
    await waitForHydration(page);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: TEXT.errorHeading }).isVisible()).resolves.toBe(true);
  });

  it('shows /error with its exact message and a link back to projects', async () => {
    const page = await open();
    expect(await visit(page, '/error')).toBe(200);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: TEXT.errorHeading }).isVisible()).resolves.toBe(true);
    expect(normalize(await textOf(main))).toContain(TEXT.errorMessage);
    const back = main.getByRole('link', { name: TEXT.backToProjects });
    await expect(back.getAttribute('href')).resolves.toBe('/projects');
    await back.click();
    await page.waitForURL(/\/projects$/);
  });

  it('shows the blogs: heading, three article cards opening in a new tab, and the Client blogs link', async () => {
    const page = await open();
    await visit(page, '/blogs');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: TEXT.blogsHeading }).isVisible()).resolves.toBe(true);
    const text = await textOf(main);
    expect(text.match(/\d+ min read/g)?.length, 'three read lengths').toBe(3);
    // A quoted description per card.
    expect(text.match(/["“][^"”]{10,}["”]/g)?.length ?? 0, 'three quoted descriptions').toBeGreaterThanOrEqual(3);
    const external = main.locator('a[target="_blank"]');
    const hrefs = await external.evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    expect(
      hrefs.every((h) => /^https:\/\//.test(h)),
      hrefs.join(' '),
    ).toBe(true);
    for (const rel of await external.evaluateAll((links) => links.map((a) => a.getAttribute('rel') ?? ''))) {
      expect(rel).toMatch(/noopener/);
    }
    const client = main.getByRole('link', { name: /client blogs/i });
    await expect(client.getAttribute('target')).resolves.toBe('_blank');
    const articleLinks = external.filter({ hasNotText: /client blogs/i });
    expect(new Set(await articleLinks.evaluateAll((ls) => ls.map((a) => (a as HTMLAnchorElement).href))).size).toBe(3);

    const firstTitle = normalize(
      await articleLinks.first().evaluate((el) => {
        let node: Element | null = el;
        while (node && !node.querySelector('h2, h3, h4') && !/^H[234]$/.test(node.tagName)) node = node.parentElement;
        const heading = node && (/^H[234]$/.test(node.tagName) ? node : node.querySelector('h2, h3, h4'));
        return heading?.textContent ?? '';
      }),
    );
    expect(firstTitle).not.toBe('');
    const [popup] = await Promise.all([page.waitForEvent('popup'), articleLinks.first().click()]);
    await popup.close();
    const [popup2] = await Promise.all([page.waitForEvent('popup'), client.click()]);
    await popup2.close();
    const expected = [eventName('BLOG_READ', firstTitle), 'BLOGS_CLIENT_BLOGS'];
    await eventually(
      () => sessions.current.clickEvents(),
      (n) => expected.every((e) => n.includes(e)),
      expected.join(', '),
    );
  });

  it('shows the contact page heading, intro and labelled form', async () => {
    const page = await open();
    await visit(page, '/contact');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: TEXT.contactHeading }).isVisible()).resolves.toBe(true);
    for (const label of ['Full name', 'Email', 'Message']) {
      await expect(main.getByLabel(label, { exact: true }).isVisible(), label).resolves.toBe(true);
    }
    await expect(main.getByRole('button', { name: 'Send' }).isDisabled()).resolves.toBe(true);
  });

  it('shows the privacy policy: last updated September 27, 2024, 11 sections each with an h2', async () => {
    const page = await open();
    await visit(page, '/privacy-policy');
    const main = page.getByRole('main');
    expect(await textOf(main)).toContain(TEXT.privacyUpdated);
    const sections = main.locator('section');
    expect(await sections.count()).toBe(11);
    const headings = await sections.evaluateAll((all) => all.map((s) => s.querySelectorAll(':scope h2').length));
    expect(headings).toEqual(Array(11).fill(1));
  });

  it("keeps the cards' and the policy's long texts (in the HTML only) at hydration, and brings them on a client navigation", async () => {
    const page = await open();
    await visit(page, '/projects');
    const longTexts = (where: string) =>
      page.locator(`${where} [data-page-text]`).evaluateAll((all) => all.map((el) => (el.textContent ?? '').trim()));
    const loaded = await longTexts('main');
    expect(loaded, 'a need and a solution per card').toHaveLength(10);
    for (const text of loaded) expect(text.length).toBeGreaterThan(40);
    // To the privacy policy and back by the router (no document load): the texts come from the pages' HTML.
    await page.evaluate(() => void ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.locator('footer a[href="/privacy-policy"]').first().click();
    await eventually(
      () => page.locator('main section').count(),
      (count) => count === 11,
      "the policy's 11 sections after a client navigation",
    );
    expect(await textOf(page.getByRole('main'))).toContain('reCAPTCHA');
    await page.goBack();
    await eventually(
      () => longTexts('main'),
      (texts) => texts.length === 10 && texts.every((text, i) => text === loaded[i]),
      "the cards' texts after a client navigation back",
    );
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  // The tests at phone size come last, together: they share one session (the others another).
  it('the scroll-to-top button under the grid returns to the top', async () => {
    const page = await open({ viewport: 'phone' });
    await visit(page, '/projects');
    const more = page.getByText(TEXT.moreToCome, { exact: true });
    await more.scrollIntoViewIfNeeded();
    expect(await scrollY(page)).toBeGreaterThan(300);
    // The last button named like "top" in main is the one under the grid.
    await page.getByRole('main').getByRole('button', { name: /top/i }).last().click();
    await eventually(
      () => scrollY(page),
      (y) => y === 0,
      'scrollY 0',
    );
  });

  it('shows the 404 page for any other path, after hydration, with a Go home link to /', async () => {
    const page = await open({ viewport: 'phone' });
    sessions.current.allowConsoleError(/status of 404/);
    expect(await visit(page, '/some/deep/unknown-path')).toBe(404);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: TEXT.notFoundHeading }).isVisible()).resolves.toBe(true);
    await expect(main.getByRole('link', { name: TEXT.goHome }).getAttribute('href')).resolves.toBe('/');
    expect(pathOf(page)).toBe('/some/deep/unknown-path');
  });

  it("shows the about page: intro, Let's Chat! to /contact, the cards, and a profile link on small screens", async () => {
    const page = await open({ viewport: 'phone' });
    await visit(page, '/about');
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: TEXT.letsChat }).getAttribute('href')).resolves.toBe('/contact');
    const text = (await textOf(main)).toLowerCase();
    for (const card of ['technologies', 'tools', 'practices', 'education']) expect(text, card).toContain(card);
    const profile = main.locator('a[target="_blank"][href^="https://"]');
    await expect(profile.first().isVisible(), 'profile link visible on a phone').resolves.toBe(true);
  });

  it('starts every route at the top, on load and after client-side navigation', async () => {
    const page = await open({ viewport: 'phone' });
    for (const route of KNOWN_ROUTES) {
      await visit(page, route);
      expect(await scrollY(page), route).toBe(0);
    }
    // Scroll down the projects, follow a Read more far below: the detail starts at the top.
    await visit(page, '/projects');
    const last = page
      .getByRole('main')
      .getByRole('link', { name: /read more/i })
      .last();
    await last.scrollIntoViewIfNeeded();
    expect(await scrollY(page)).toBeGreaterThan(300);
    await last.click();
    await page.waitForURL(/\/projects\/\d$/);
    await eventually(
      () => scrollY(page),
      (y) => y === 0,
      'scrollY 0 after navigation',
    );
  });
});
