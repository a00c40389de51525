/**
 * The site in every declared language, through the local server and in Chromium: each language's
 * pages, their language tags and alternates, the switcher both ways, the 404s, the sitemap, the
 * contact form's messages, and no text of the default language on another language's page.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, LOCALE_CODES, LOCALES, localeDirection, type Locale } from '../web/content/locales';
import { catalogue as english } from '../web/content/catalogue';
import { loadCatalogue } from '../web/content/check';
import { projects } from '../web/content/projects';
import { catalogue as spanish } from '../web/content/es';
import type { Catalogue } from '../web/content/types';
import { baseUrl, eventually, textOf, visit, waitForHydration } from './support/browser';
import { FAKE_CAPTCHA_LABEL } from './support/fakes';
import { useBrowserSessions } from './support/sessions';
import { KNOWN_ROUTES, localized, OTHER_LOCALES, ROUTES_OF_EVERY_LOCALE, UNKNOWN_ROUTE } from './support/site';
import { tablePagePaths } from '../contract/page-paths';

const sessions = useBrowserSessions();
const SITE = 'https://portfolio.example.com';

async function html(path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${baseUrl()}${path}`, { redirect: 'manual' });
  return { status: response.status, text: await response.text() };
}

/** The `<link rel="alternate" hreflang>` tags of a page, as hreflang → href. */
function alternates(page: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of page.matchAll(/<link\b[^>]*rel="alternate"[^>]*>/gi)) {
    const lang = /hreflang="([^"]+)"/i.exec(match[0])?.[1];
    const href = /href="([^"]+)"/i.exec(match[0])?.[1];
    if (lang && href) found.set(lang, href);
  }
  return found;
}

const attribute = (page: string, pattern: RegExp) => pattern.exec(page)?.[1];

/** Every string value of an object (functions are templates, not shown as such). */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value && typeof value === 'object') return Object.values(value).flatMap(texts);
  return [];
}

/** Every declared language's content, the default first. */
const CATALOGUES = new Map<string, Catalogue>(
  await Promise.all(LOCALE_CODES.map(async (locale) => [locale, await loadCatalogue(locale)] as const)),
);
const catalogueOf = (locale: string): Catalogue => CATALOGUES.get(locale)!;

/**
 * Strings of the other languages that must not appear on a page in `locale`: their interface
 * strings and the owner's texts, leaving out what the languages share (names, brands, technologies)
 * and words too short to tell apart from a part of another word.
 */
function otherLanguagesOnly(locale: string): string[] {
  const own = new Set(texts(catalogueOf(locale)));
  const others = [...CATALOGUES].filter(([code]) => code !== locale).map(([, catalogue]) => catalogue);
  return [...new Set(others.flatMap((c) => [...texts(c.ui), ...texts(c.pages), ...c.projects.map((p) => p.title), ...c.funFacts]))]
    .filter((text) => !own.has(text) && (text.length >= 8 || text.includes(' ')))
    .filter((text) => !/^https?:|^\//.test(text));
}

describe('every language through the local server', () => {
  it('answers 200 for every page of every language, with <html lang>, a canonical to itself, og:locale and reciprocal alternates', async () => {
    for (const { locale, route } of ROUTES_OF_EVERY_LOCALE) {
      const { status, text } = await html(route);
      expect(status, route).toBe(200);
      expect(attribute(text, /<html[^>]*\blang="([^"]+)"/), route).toBe(locale);
      expect(attribute(text, /<html[^>]*\bdir="([^"]+)"/), route).toBe(localeDirection(locale));
      expect(attribute(text, /<meta property="og:locale" content="([^"]+)"/), route).toBe(LOCALES[locale as Locale].ogLocale);
      const others = [...text.matchAll(/<meta property="og:locale:alternate" content="([^"]+)"/g)].map((m) => m[1]);
      expect(others.sort(), route).toEqual(
        LOCALE_CODES.filter((c) => c !== locale)
          .map((c) => LOCALES[c].ogLocale)
          .sort(),
      );
      if (route.endsWith('/error')) {
        expect(text, route).toContain('noindex');
        continue;
      }
      expect(attribute(text, /<link rel="canonical" href="([^"]+)"/), route).toBe(`${SITE}${route}`);
      // Reciprocal: each language's page names every language's page and x-default, the same set everywhere.
      const links = alternates(text);
      const base = KNOWN_ROUTES.find((r) => localized(locale, r) === route) ?? route;
      const expected = new Map<string, string>([
        ...LOCALE_CODES.map((code): [string, string] => [code, `${SITE}${localized(code, base)}`]),
        ['x-default', `${SITE}${base}`],
      ]);
      expect(Object.fromEntries(links), route).toEqual(Object.fromEntries(expected));
      for (const [code, href] of links) {
        if (code === 'x-default') continue;
        const other = await html(new URL(href).pathname);
        expect(Object.fromEntries(alternates(other.text)), `${href} names ${route} back`).toEqual(Object.fromEntries(expected));
      }
    }
  });

  it('gives each page a preview image of its own language, and JSON-LD in its language', async () => {
    for (const locale of LOCALE_CODES) {
      const home = (await html(localized(locale, '/home'))).text;
      const image = attribute(home, /<meta property="og:image" content="([^"]+)"/) ?? '';
      expect(image).toBe(`${SITE}/og/${locale === DEFAULT_LOCALE ? '' : `${locale}-`}home.png`);
      const png = await fetch(`${baseUrl()}${new URL(image).pathname}`);
      expect(png.status, image).toBe(200);
      expect(png.headers.get('content-type')).toBe('image/png');
      const project = (await html(localized(locale, '/projects/3'))).text;
      const data = /<script type="application\/ld\+json">([^<]+)<\/script>/.exec(project)?.[1] ?? '{}';
      expect(JSON.parse(data)).toMatchObject({ inLanguage: locale, url: `${SITE}${localized(locale, '/projects/3')}` });
      const about = (await html(localized(locale, '/about'))).text;
      const profile = JSON.parse(/<script type="application\/ld\+json">([^<]+)<\/script>/.exec(about)?.[1] ?? '{}') as Record<
        string,
        unknown
      >;
      expect(profile).toMatchObject({ '@type': 'ProfilePage', inLanguage: locale, url: `${SITE}${localized(locale, '/about')}` });
      expect(profile.mainEntity).not.toHaveProperty('inLanguage');
    }
  });

  it('lists every page of every language in sitemap.xml, each with its alternates', async () => {
    const xml = (await html('/sitemap.xml')).text;
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    const entries = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1] ?? '');
    const pages = tablePagePaths('indexable', projects);
    expect(entries).toHaveLength(pages.length * LOCALE_CODES.length);
    for (const locale of LOCALE_CODES) {
      for (const page of pages) {
        const entry = entries.find((e) => e.includes(`<loc>${SITE}${localized(locale, page)}</loc>`));
        expect(entry, `${locale} ${page}`).toBeDefined();
        for (const code of LOCALE_CODES) {
          expect(entry).toContain(`<xhtml:link rel="alternate" hreflang="${code}" href="${SITE}${localized(code, page)}"/>`);
        }
        expect(entry).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${SITE}${page}"/>`);
      }
    }
  });

  it('links every page to the same page in each other language, in the prerendered HTML (before and without scripts)', async () => {
    for (const { locale, route } of ROUTES_OF_EVERY_LOCALE) {
      const { text } = await html(route);
      const base = KNOWN_ROUTES.find((r) => localized(locale, r) === route) ?? route;
      for (const other of LOCALE_CODES.filter((c) => c !== locale)) {
        const link = `<a href="${localized(other, base)}" lang="${other}" dir="${localeDirection(other)}" hrefLang="${other}" class="language-link">${LOCALES[other].name}</a>`;
        // Once in the side panel and once in the phone menu.
        expect(text.split(link).length - 1, `${route} → ${other}`).toBe(2);
      }
      const label = catalogueOf(locale).ui.language;
      expect(text, route).toContain(`role="group" class="language-switcher" aria-label="${label}"`);
    }
  });

  it('answers 404 under a language prefix, the fallback page being the same one', async () => {
    for (const locale of OTHER_LOCALES) {
      for (const path of [UNKNOWN_ROUTE, '/projects/99', '/home/extra']) {
        const { status } = await html(localized(locale, path));
        expect(status, localized(locale, path)).toBe(404);
      }
    }
  });
});

describe("each language's root", () => {
  it('answers /es and /es/ (each language but the default) with a page that sends the visitor to its home', async () => {
    for (const locale of OTHER_LOCALES) {
      for (const root of [`/${locale}`, `/${locale}/`]) {
        const { status, text } = await html(root);
        expect(status, root).toBe(200);
        expect(attribute(text, /<html lang="([^"]+)"/), root).toBe(locale);
        // A 0-second refresh works without scripts; the canonical link names the page it leads to.
        expect(attribute(text, /<meta http-equiv="refresh" content="([^"]+)"/), root).toBe(`0; url=/${locale}/home`);
        expect(attribute(text, /<link rel="canonical" href="([^"]+)"/), root).toBe(`${SITE}/${locale}/home`);
      }
    }
    // The default language's root is the CDN's own 302.
    const { status } = await html('/');
    expect(status).toBe(302);
  });

  it('takes the browser from /es and /es/ to /es/home, replacing the history entry, as / goes to /home', async () => {
    // With the scripts cached they run before the meta refresh fires: both must replace the root's entry.
    const page = (await sessions.reuse({ viewport: 'desktop' })).page;
    for (const locale of OTHER_LOCALES) {
      for (const root of [`/${locale}`, `/${locale}/`]) {
        const before = localized(locale, '/about');
        await visit(page, before);
        await page.goto(`${baseUrl()}${root}`, { waitUntil: 'commit' });
        await page.waitForURL((url) => url.pathname === localized(locale, '/home'));
        await waitForHydration(page);
        expect(await page.evaluate(() => document.documentElement.lang), root).toBe(locale);
        await page.goBack();
        await page.waitForURL((url) => url.pathname === before);
      }
    }
  });
});

describe('another language in the browser', () => {
  async function open(viewport: 'phone' | 'desktop' = 'desktop'): Promise<Page> {
    const session = await sessions.reuse({ viewport });
    session.allowConsoleError(/status of 404/);
    return session.page;
  }

  it.each(OTHER_LOCALES)('shows no text of another language on any %s page (interface or content), and no key name', async (locale) => {
    const forbidden = otherLanguagesOnly(locale);
    expect(forbidden.length).toBeGreaterThan(50);
    const page = await open();
    for (const route of [...KNOWN_ROUTES.map((r) => localized(locale, r)), localized(locale, UNKNOWN_ROUTE)]) {
      await visit(page, route);
      await page.locator('.cookie-banner').waitFor();
      // Everything a visitor or a screen reader gets: the visible text, labels and titles.
      const seen = await page.evaluate(() => {
        const named = [...document.querySelectorAll('[aria-label], [title], [alt], [placeholder]')].flatMap((el) =>
          ['aria-label', 'title', 'alt', 'placeholder'].map((name) => el.getAttribute(name) ?? ''),
        );
        return [document.title, document.body.innerText, ...named].join('\n');
      });
      const leaks = forbidden.filter((text) => seen.includes(text));
      expect(leaks, route).toEqual([]);
      expect(seen, route).not.toMatch(/\bundefined\b|\bui\.[a-z]|\[object Object\]/);
      expect(await page.evaluate(() => document.documentElement.lang), route).toBe(locale);
    }
  });

  it('shows the Spanish 404 page with a way to the Spanish home, and /es/projects/99 goes to /es/error', async () => {
    const page = await open();
    expect(await visit(page, '/es/no-such-page')).toBe(404);
    const main = page.getByRole('main');
    await eventually(
      () => textOf(main),
      (t) => t.includes(spanish.ui.notFound.heading),
      'the Spanish 404 heading',
    );
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    expect(await main.getByRole('link', { name: spanish.ui.notFound.goHome }).getAttribute('href')).toBe('/es/home');

    expect(await visit(page, '/es/projects/99')).toBe(404);
    await page.waitForURL((url) => url.pathname === '/es/error');
    await eventually(
      () => textOf(main),
      (t) => t.includes(spanish.ui.error.title) && t.includes(spanish.ui.error.message),
      'the Spanish error page',
    );
    expect(await main.getByRole('link', { name: spanish.ui.error.back }).getAttribute('href')).toBe('/es/projects');
  });

  it.each(['desktop', 'phone'] as const)('switches language both ways (%s), keeping the consent and theme choices', async (viewport) => {
    const page = await open(viewport);
    await visit(page, '/projects/3');
    // Accept cookies and choose a theme in English.
    await page.locator('.cookie-banner__toggle').click();
    await page.getByRole('button', { name: english.ui.cookie.accept }).click();
    if (viewport === 'phone') await page.getByRole('button', { name: /menu/i }).click();
    const panel = viewport === 'phone' ? page.locator('.mobile-menu') : page.locator('.side-panel');
    await panel.getByRole('radio', { name: english.ui.theme.dark }).check();
    const switcher = panel.getByRole('group', { name: english.ui.language });
    await switcher.getByRole('link', { name: 'Español' }).click();
    await page.waitForURL((url) => url.pathname === '/es/projects/3');
    await waitForHydration(page);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.locator('.cookie-banner').count()).toBe(0);
    await eventually(
      () => textOf(page.getByRole('main')),
      (t) => t.includes(spanish.projects[2]!.title),
      'the Spanish project page',
    );

    if (viewport === 'phone') await page.getByRole('button', { name: /menú/i }).click();
    const back = panel.getByRole('group', { name: spanish.ui.language }).getByRole('link', { name: 'English' });
    expect(await back.getAttribute('lang')).toBe('en');
    expect(await back.getAttribute('hreflang')).toBe('en');
    await back.click();
    await page.waitForURL((url) => url.pathname === '/projects/3');
    await waitForHydration(page);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  });

  it('keeps the reader in their language: menu, footer and banner links stay under /es', async () => {
    const page = await open();
    await visit(page, '/es/home');
    const hrefs = await page.locator('a[href^="/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    const english = hrefs.filter((href) => !href.startsWith('/es/') && !/^\/(videos|images|og)\//.test(href) && href !== '/home');
    // The one link out of /es is the switcher's link to the English page (/home).
    expect(english).toEqual([]);
    expect(hrefs.filter((href) => href === '/home')).toHaveLength(2);
  });

  it('greets in Spanish and writes dates and reading lengths the Spanish way', async () => {
    const page = await open();
    await visit(page, '/es/home');
    const greetings = Object.values(spanish.ui.greeting);
    await eventually(
      () => textOf(page.getByRole('main')),
      (t) => greetings.some((g) => t.includes(g)),
      'a Spanish greeting',
    );
    await visit(page, '/es/privacy-policy');
    const policy = await textOf(page.getByRole('main'));
    expect(policy).toContain('27 de septiembre de 2024');
    // The archive's retention as this build was given it (npm run build:test: the default, 365 days).
    expect(policy).toContain('durante 365 días');
    await visit(page, '/es/blogs');
    const blogs = await textOf(page.getByRole('main'));
    expect(blogs).toContain('14 de agosto de 2024');
    expect(blogs).toContain('6 min de lectura');
  });

  it('validates the Spanish contact form by the same rules, with Spanish messages, and sends the four fields', async () => {
    const session = await sessions.reuse({ viewport: 'desktop' });
    const page = session.page;
    await visit(page, '/es/contact');
    const main = page.getByRole('main');
    const text = spanish.ui.contact;
    // The captcha widget is asked for Spanish (reCAPTCHA's hl), whatever the browser's language.
    await page.getByRole('checkbox', { name: FAKE_CAPTCHA_LABEL }).waitFor();
    const widgets = await page.evaluate(() =>
      (window as unknown as { __fakeRecaptcha: { describe(): { hl?: string }[] } }).__fakeRecaptcha.describe(),
    );
    expect(widgets.map((w) => w.hl)).toEqual(['es']);
    const send = main.getByRole('button', { name: new RegExp(`^(${text.send}|${text.sending.replace(/\./g, '\\.')})$`) });
    await page.getByRole('checkbox', { name: FAKE_CAPTCHA_LABEL }).click();
    await eventually(() => send.isEnabled(), Boolean, 'Send enabled');
    await main.getByLabel(text.fullName, { exact: true }).fill('Ana');
    await send.click();
    await eventually(
      () => textOf(main),
      (t) => t.includes(text.invalidName),
      'the Spanish name message',
    );
    await main.getByLabel(text.fullName, { exact: true }).fill('Ana García');
    await main.getByLabel(text.email, { exact: true }).fill('ana@example.es');
    await main.getByLabel(text.message, { exact: true }).fill('¡Hola! Me interesa tu trabajo.');
    await page.getByRole('checkbox', { name: FAKE_CAPTCHA_LABEL }).click();
    await eventually(() => send.isEnabled(), Boolean, 'Send enabled again');
    await send.click();
    await eventually(
      () => textOf(main),
      (t) => t.includes(text.sent),
      'the Spanish success message',
    );
    const post = session.requests.find((r) => r.method === 'POST' && new URL(r.url).pathname === '/api/contact');
    expect(Object.keys(JSON.parse(post?.postData ?? '{}')).sort()).toEqual(['email', 'fullName', 'g-recaptcha-response', 'message']);
  });

  it('accepts ordinary Spanish names: two surnames, compound first names, particles', async () => {
    const session = await sessions.reuse({ viewport: 'desktop' });
    const page = session.page;
    await visit(page, '/es/contact');
    const main = page.getByRole('main');
    const text = spanish.ui.contact;
    const send = main.getByRole('button', { name: new RegExp(`^(${text.send}|${text.sending.replace(/\./g, '\\.')})$`) });
    const names = ['María José Núñez', 'Lucía Fernández García', 'Juan de la Cruz'];
    for (const [i, name] of names.entries()) {
      await main.getByLabel(text.fullName, { exact: true }).fill(name);
      await main.getByLabel(text.email, { exact: true }).fill('lucia@example.es');
      await main.getByLabel(text.message, { exact: true }).fill(`Hola, soy ${name}.`);
      await page.getByRole('checkbox', { name: FAKE_CAPTCHA_LABEL }).click();
      await eventually(() => send.isEnabled(), Boolean, `Send enabled for ${name}`);
      await send.click();
      await eventually(
        () => textOf(main),
        (t) => t.includes(text.sent) && !t.includes(text.invalidName),
        `${name} sent`,
      );
      const posts = session.requests.filter((r) => r.method === 'POST' && new URL(r.url).pathname === '/api/contact');
      expect(posts).toHaveLength(i + 1);
      expect(JSON.parse(posts[i]?.postData ?? '{}').fullName).toBe(name);
    }
  });
});
