/**
 * A page added to the page table the way a new page is added (a row of SITE_PAGES, its route module, its
 * summary: tools/locale-copy.ts addFixturePage) is everywhere pages are listed, with no other edit: the
 * router, the prerender, the sitemap, the search index, the preview cards and the page-view patterns.
 * It reads the shared fixture build (tools/locale-copy.ts fixtureSiteBuild), which has the page.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PAGE, fixtureSiteBuild } from '../tools/locale-copy';
import { runChild } from '../tools/run-tsx';

let copy = '';
const client = (...parts: string[]) => path.join(copy, 'web/build/client', ...parts);
const { pattern, title, marker } = FIXTURE_PAGE;
const LANGUAGES = ['', '/es'];

beforeAll(async () => {
  ({ dir: copy } = await fixtureSiteBuild());
}, 900_000);

describe('a page added to the page table', () => {
  it('is in the router and the page-view patterns of the copy', async () => {
    // The copy's own modules, as its build and its browser read them.
    const script = `
      const { siteRoutes } = await import('./web/app/routes.ts');
      const { VITALS_ROUTES, routeOfPath } = await import('./contract/vitals.ts');
      const { LOCALE_CODES } = await import('./web/content/locales.ts');
      const files = (entries) => entries.flatMap((entry) => [{ path: entry.path, file: entry.file }, ...files(entry.children ?? [])]);
      console.log(JSON.stringify({ routes: files(siteRoutes(['en', 'es'], process.cwd())), vitals: VITALS_ROUTES, es: routeOfPath('/es${pattern}', LOCALE_CODES) }));`;
    const run = await runChild(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: copy,
      timeoutMs: 60_000,
    });
    expect(run.status, run.output).toBe(0);
    const { routes, vitals, es } = JSON.parse(run.stdout) as {
      routes: { path?: string; file: string }[];
      vitals: string[];
      es: { route: string; lang: string };
    };
    expect(routes.filter((route) => route.file === FIXTURE_PAGE.module).map((route) => route.path)).toEqual(
      LANGUAGES.map((prefix) => `${prefix}${pattern}`.slice(1)),
    );
    expect(vitals).toContain(pattern);
    expect(es).toEqual({ route: pattern, lang: 'es' });
  });

  it('is prerendered in every language with the head its summary gives', () => {
    for (const prefix of LANGUAGES) {
      const page = readFileSync(client(`${prefix}${pattern}`.slice(1), 'index.html'), 'utf8');
      expect(page).toContain(`<title>${title} | `);
      expect(page).toContain(`<h1>${title}</h1>`);
      expect(page).toMatch(new RegExp(`<link rel="canonical" href="https://[^"]+${prefix}${pattern}"/>`));
      // Its link preview, drawn from its summary.
      const image = `og/${`${prefix}${pattern}`.slice(1).replace('/', '-')}.png`;
      expect(page).toMatch(new RegExp(`<meta property="og:image" content="https://[^"]+/${image}"/>`));
      expect(existsSync(client(image))).toBe(true);
    }
  });

  it('is in the sitemap and in the search index of every language', () => {
    const sitemap = readFileSync(client('sitemap.xml'), 'utf8');
    for (const prefix of LANGUAGES) {
      expect(sitemap).toMatch(new RegExp(`<loc>https://[^<]+${prefix}${pattern}</loc>`));
      const code = prefix.slice(1) || 'en';
      const index = readdirSync(client('assets')).find((file) => file.startsWith(`_virtual_search-index-${code}-`));
      const text = readFileSync(client('assets', index!), 'utf8');
      expect(text).toContain(`"${prefix}${pattern}"`);
      expect(text).toContain(marker);
    }
  });
});
