/**
 * A newcomer adds a third language by following web/content/README.md, word for word, in a copy of
 * the project: first with the line the README used to show (no `fallback`), which must fail with
 * `npm start`'s build showing the cause first; then the documented way, which must build the
 * language's pages, its hreflang alternates and its sitemap entries, and warn (not fail) that its
 * texts are still the copied language's. The documented build also adds the README's right-to-left
 * example (Arabic) by the same steps: every page of it, the 404 fallback included, says `dir="rtl"` in
 * the raw HTML. The documented build is the README example's (tools/locale-copy.ts readmeExampleBuild,
 * which also holds the README's first post for scripts/posts-readme.test.ts): made once, shared. The
 * failing build stops at the content check, before the bundler's work.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addLine as addLineTo,
  copyLanguageFolder,
  documentedSteps as readSteps,
  makeCopy as makeCopyIn,
  quietBuild as quietBuildIn,
  readmeExampleBuild,
  REPO,
} from '../tools/locale-copy';
import { scratchDir } from '../tools/scratch';

/** The copy with the README's old line, whose build must fail. */
const failing = scratchDir('add-locale-');
/** The README example's shared build (the documented steps): read only. */
let copy = '';

/** The README's steps, read from its text (tools/locale-copy.ts): both example lines name their own code. */
function documentedSteps() {
  const steps = readSteps();
  expect(steps.rtl, "the README shows a right-to-left language's line").not.toBeNull();
  expect(steps.rtl!.line.startsWith(`${steps.rtl!.to}: {`)).toBe(true);
  return steps;
}

/** en, the copied language and the two new ones: each page's sitemap entry lists every one. */
const LOCALE_COUNT = 4;
const html = (page: string) => readFileSync(path.join(copy, 'web/build/client', page, 'index.html'), 'utf8');
const pagesUnder = (dir: string): string[] =>
  readdirSync(path.join(copy, 'web/build/client', dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('index.html'))
    .map((file) => path.dirname(file).split(path.sep).join('/'))
    .sort();
const alternates = (page: string) =>
  new Map([...page.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"\/>/g)].map((m) => [m[1]!, m[2]!]));

describe('adding a language by following web/content/README.md', () => {
  it('fails clearly without the fields the README names, then builds the new language the documented way', async () => {
    const started = performance.now();
    makeCopyIn(failing);
    const { from, to, line, rtl } = documentedSteps();
    copyLanguageFolder(failing, from, to);
    const index = path.join(failing, 'web/content', to, 'index.ts');
    expect(readFileSync(index, 'utf8')).toContain(`locale: '${to}'`);
    expect(
      readFileSync(path.join(failing, 'web/content', to, 'README.md'), 'utf8'),
      'the copied README speaks of no one language',
    ).not.toMatch(/Spanish|Español/);
    expect(readFileSync(path.join(failing, 'web/content', to, 'ui.ts'), 'utf8')).not.toMatch(/Spanish/);

    // The line as the README showed it before languages had a fallback heading: the build stops, and `npm start`
    // shows the file and the missing field first, not the bundler's tables or a stack trace.
    const withoutFallback = line.replace(/, fallback: \{[^}]*\}/, '');
    expect(withoutFallback).not.toBe(line);
    addLineTo(failing, withoutFallback);
    const failed = await quietBuildIn(failing);
    expect(failed.code, failed.stdout + failed.stderr).not.toBe(0);
    expect(failed.stderr, failed.stderr + readFileSync(path.join(failing, '.local', 'build.log'), 'utf8')).toMatch(/^Error: The languages/);
    expect(failed.stdout).toBe('Building the site… failed.\n');
    const firstLines = failed.stderr.split('\n');
    expect(firstLines[0]).toBe('Error: The languages in web/content/locales.ts are not complete:');
    expect(firstLines[1]).toMatch(new RegExp(`^ {2}- web/content/locales\\.ts: ${to} is missing fallback\\.loading \\(`));
    expect(failed.stderr).not.toMatch(/node_modules|DOCTYPE|Future Flag/);

    // The documented line: the site builds, with a warning that the texts are still the copied language's.
    // With the right-to-left example, by the same steps and nothing more (readmeExampleBuild: the steps
    // read above, in a fresh copy of the project).
    const built = await readmeExampleBuild();
    expect(built.code, built.stdout + built.stderr).toBe(0);
    expect(built.languages).toEqual({ from, to, line, rtl });
    copy = built.dir;
    expect(readFileSync(path.join(copy, 'web/content/locales.ts'), 'utf8')).toBe(
      readFileSync(path.join(REPO, 'web/content/locales.ts'), 'utf8').replace(
        '} as const satisfies',
        `  ${line}\n  ${rtl!.line}\n} as const satisfies`,
      ),
    );
    expect(built.stdout).toMatch(/^Building the site… done in \d+ s/);
    for (const code of [to, rtl!.to]) {
      expect(built.stderr).toMatch(
        new RegExp(`^Content warning: ${code} \\(.+\\) still has the texts of ${from} \\(.+\\): (\\d+) of its \\1 texts are the same`, 'm'),
      );
    }
    expect(built.stderr.split('\n').filter(Boolean)).toHaveLength(2);

    // Every page of the copied language exists in the new one, in its language, with every language's alternates.
    const everyPage = pagesUnder(from);
    expect(pagesUnder(to)).toEqual(everyPage);
    const site = /^\s*siteUrl: '([^']+)'/m.exec(readFileSync(path.join(copy, 'web/content/site.ts'), 'utf8'))?.[1];
    expect(site).toMatch(/^https:\/\//);
    // The language's root (/fr/) is only the page that sends the visitor on to its home.
    expect(everyPage).toContain('.');
    expect(/<link rel="canonical" href="([^"]+)"/.exec(html(`${to}/.`))?.[1]).toBe(`${site}/${to}/home`);
    const pages = everyPage.filter((page) => page !== '.');
    expect(pages.length).toBeGreaterThanOrEqual(12);
    let indexed = 0;
    for (const page of pages) {
      const own = html(`${to}/${page}`);
      expect(/<html lang="([^"]+)" dir="([^"]+)"/.exec(own)?.slice(1), page).toEqual([to, 'ltr']);
      // The right-to-left language's page, in the HTML before any script runs.
      expect(/<html lang="([^"]+)" dir="([^"]+)"/.exec(html(`${rtl!.to}/${page}`))?.slice(1), page).toEqual([rtl!.to, 'rtl']);
      // Pages kept out of search engines (/error) have no canonical and no alternates, in any language.
      if (!html(page).includes('<link rel="canonical"')) continue;
      indexed += 1;
      expect(/<link rel="canonical" href="([^"]+)"/.exec(own)?.[1], page).toBe(`${site}/${to}/${page}`);
      const links = alternates(own);
      expect(links.get(to), page).toBe(`${site}/${to}/${page}`);
      expect(links.get(from), page).toBe(`${site}/${from}/${page}`);
      expect(links.get('en'), page).toBe(`${site}/${page}`);
      expect(alternates(html(page)).get(to), `the default language's ${page} links to it`).toBe(`${site}/${to}/${page}`);
      expect(alternates(html(`${from}/${page}`)).get(to), `the ${from} ${page} links to it`).toBe(`${site}/${to}/${page}`);
    }
    expect(indexed).toBeGreaterThanOrEqual(10);
    // The language switcher of the other languages offers it, by its own name.
    const name = /name: '([^']+)'/.exec(line)![1]!;
    const switcher = `<a href="/${to}/home" lang="${to}" dir="ltr" hrefLang="${to}" class="language-link">${name}</a>`;
    expect(html('home').includes(switcher), switcher).toBe(true);
    const rtlName = /name: '([^']+)'/.exec(rtl!.line)![1]!;
    const rtlSwitcher = `<a href="/${rtl!.to}/home" lang="${rtl!.to}" dir="rtl" hrefLang="${rtl!.to}" class="language-link">${rtlName}</a>`;
    expect(html('home').includes(rtlSwitcher), rtlSwitcher).toBe(true);
    // And its own switcher offers English the other way round.
    expect(html(`${rtl!.to}/home`)).toContain('<a href="/home" lang="en" dir="ltr" hrefLang="en" class="language-link">English</a>');
    expect(pagesUnder(rtl!.to)).toEqual(everyPage);

    // The 404 fallback (one page for every language's unknown paths): its loading line, and without
    // scripts its 404 words, in each language with that language's direction.
    const fallback = readFileSync(path.join(copy, 'web/build/client/__spa-fallback.html'), 'utf8');
    expect(fallback).toMatch(/<html lang="en" dir="ltr"/);
    const rtlLoading = /loading: '([^']+)'/.exec(rtl!.line)![1]!;
    expect(fallback).toContain(`<span lang="${rtl!.to}" dir="rtl">${rtlLoading}`);
    const noscript = [...fallback.matchAll(/<noscript>([\s\S]*?)<\/noscript>/g)].map((m) => m[1]!).join('');
    expect(noscript).toContain(`<span lang="${rtl!.to}" dir="rtl" class="fallback-page__line">`);
    expect(noscript).toContain(`<div lang="${rtl!.to}" dir="rtl" class="fallback-page__language">`);
    expect(noscript).toContain(`<div lang="${to}" dir="ltr" class="fallback-page__language">`);

    // The sitemap lists each of its pages, with the alternates.
    const sitemap = readFileSync(path.join(copy, 'web/build/client/sitemap.xml'), 'utf8');
    for (const page of pages) {
      if (!html(page).includes('<link rel="canonical"')) continue;
      expect(sitemap.includes(`<loc>${site}/${to}/${page}</loc>`), page).toBe(true);
      expect(sitemap.split(`<xhtml:link rel="alternate" hreflang="${to}" href="${site}/${to}/${page}"/>`).length - 1, page).toBe(
        LOCALE_COUNT,
      );
    }
    // And each of its pages has its own link preview.
    expect(existsSync(path.join(copy, 'web/build/client/og', `${to}-home.png`))).toBe(true);
    console.info(`add-locale: copy, failed build and the shared build in ${Math.round((performance.now() - started) / 1000)} s`);
  }, 240_000);
});
