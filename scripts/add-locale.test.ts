/**
 * A newcomer adds a third language by following web/content/README.md, word for word, in a copy of
 * the project: first with the line the README used to show (no `fallback`), which must fail with
 * `npm start`'s build showing the cause first; then the documented way, which must build the
 * language's pages, its hreflang alternates and its sitemap entries, and warn (not fail) that its
 * texts are still the copied language's. Two builds in one test: about 30 s on an idle 2-core machine.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const README = readFileSync(path.join(REPO, 'web/content/README.md'), 'utf8');
const copy = mkdtempSync(path.join(os.tmpdir(), 'add-locale-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** What `npm run build` reads: the configs, the site, the contract it imports, the post-build scripts. */
const BUILD_INPUTS = [
  'package.json',
  'react-router.config.ts',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.web.json',
  'tsconfig.web-test.json',
  'tsconfig.node.json',
  'tsconfig.e2e.json',
  'contract',
  'infra/shared',
  'web/app',
  'web/content',
  'web/public',
  'scripts/quiet-build.ts',
  'scripts/postbuild.ts',
  'scripts/post-images.ts',
  'scripts/og-images.ts',
];

function makeCopy(): void {
  for (const input of BUILD_INPUTS) {
    mkdirSync(path.dirname(path.join(copy, input)), { recursive: true });
    cpSync(path.join(REPO, input), path.join(copy, input), { recursive: true, filter: (source) => !source.includes(`${path.sep}build${path.sep}`) });
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
}

/** `npm start`'s build step (scripts/quiet-build.ts), run in the copy; its log stays in the copy too. */
function quietBuild(): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: copy, TMP: copy, TEMP: copy };
  // The test runner's own settings are not a newcomer's: the build must see a plain shell's environment.
  for (const name of Object.keys(env)) if (name === 'NODE_ENV' || name.startsWith('VITEST') || name.startsWith('VITE_')) delete env[name];
  const tsx = path.join(REPO, 'node_modules/tsx/dist/cli.mjs');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, 'scripts/quiet-build.ts'], { cwd: copy, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The README's steps, read from its text: which folder to copy, the `locale` to set, the line to add. */
function documentedSteps() {
  const folders = /copy the folder `(\w[\w-]*)\/` to `(\w[\w-]*)\/`/.exec(README);
  const setLocale = /in `(\w[\w-]*)\/index\.ts`, set `locale: '(\w[\w-]*)'`/.exec(README);
  const line = /```ts\n\s*((\w[\w-]*): \{.*\},)\n\s*```/.exec(README);
  expect(folders, 'the README says which folder to copy').not.toBeNull();
  expect(setLocale, "the README says which locale to set in the copy's index.ts").not.toBeNull();
  expect(line, "the README shows the language's line for locales.ts").not.toBeNull();
  const [, from, to] = folders!;
  expect(setLocale![1]).toBe(to);
  expect(setLocale![2]).toBe(to);
  expect(line![2]).toBe(to);
  return { from: from!, to: to!, line: line![1]! };
}

/** Adds a line at the end of LOCALES in the copy's locales.ts, as the README says. */
function addLine(line: string): void {
  const file = path.join(copy, 'web/content/locales.ts');
  const source = readFileSync(file, 'utf8');
  const end = source.indexOf('} as const satisfies Record<string, LocaleInfo>;');
  expect(end, 'locales.ts still ends LOCALES the way this test expects').toBeGreaterThan(0);
  writeFileSync(file, `${source.slice(0, end)}  ${line}\n${source.slice(end)}`);
}

/** en, the copied language and the new one: each page's sitemap entry lists every one. */
const LOCALE_COUNT = 3;
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
    makeCopy();
    const { from, to, line } = documentedSteps();
    cpSync(path.join(copy, 'web/content', from), path.join(copy, 'web/content', to), { recursive: true });
    const index = path.join(copy, 'web/content', to, 'index.ts');
    writeFileSync(index, readFileSync(index, 'utf8').replace(`locale: '${from}'`, `locale: '${to}'`));
    expect(readFileSync(index, 'utf8')).toContain(`locale: '${to}'`);
    expect(readFileSync(path.join(copy, 'web/content', to, 'README.md'), 'utf8'), 'the copied README speaks of no one language').not.toMatch(/Spanish|Español/);
    expect(readFileSync(path.join(copy, 'web/content', to, 'ui.ts'), 'utf8')).not.toMatch(/Spanish/);

    // The line as the README showed it before issue 26 (no fallback): the build stops, and `npm start`
    // shows the file and the missing field first, not the bundler's tables or a stack trace.
    const withoutFallback = line.replace(/, fallback: \{[^}]*\}/, '');
    expect(withoutFallback).not.toBe(line);
    addLine(withoutFallback);
    const failed = await quietBuild();
    expect(failed.code, failed.stdout + failed.stderr).not.toBe(0);
    expect(failed.stderr, failed.stderr + readFileSync(path.join(copy, '.local', 'build.log'), 'utf8')).toMatch(/^Error: The languages/);
    expect(failed.stdout).toBe('Building the site… failed.\n');
    const firstLines = failed.stderr.split('\n');
    expect(firstLines[0]).toBe('Error: The languages in web/content/locales.ts are not complete:');
    expect(firstLines[1]).toMatch(new RegExp(`^ {2}- web/content/locales\\.ts: ${to} is missing fallback\\.loading \\(`));
    expect(failed.stderr).not.toMatch(/node_modules|DOCTYPE|Future Flag/);

    // The documented line: the site builds, with a warning that the texts are still the copied language's.
    writeFileSync(path.join(copy, 'web/content/locales.ts'), readFileSync(path.join(REPO, 'web/content/locales.ts')));
    addLine(line);
    const built = await quietBuild();
    expect(built.code, built.stdout + built.stderr).toBe(0);
    expect(built.stdout).toMatch(/^Building the site… done in \d+ s/);
    expect(built.stderr).toMatch(new RegExp(`^Content warning: ${to} \\(.+\\) still has the texts of ${from} \\(.+\\): (\\d+) of its \\1 texts are the same`, 'm'));
    expect(built.stderr.split('\n').filter(Boolean)).toHaveLength(1);

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
      expect(/<html lang="([^"]+)"/.exec(own)?.[1], page).toBe(to);
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
    const switcher = `<a href="/${to}/home" lang="${to}" hrefLang="${to}" class="language-link">${name}</a>`;
    expect(html('home').includes(switcher), switcher).toBe(true);

    // The sitemap lists each of its pages, with the alternates.
    const sitemap = readFileSync(path.join(copy, 'web/build/client/sitemap.xml'), 'utf8');
    for (const page of pages) {
      if (!html(page).includes('<link rel="canonical"')) continue;
      expect(sitemap.includes(`<loc>${site}/${to}/${page}</loc>`), page).toBe(true);
      expect(sitemap.split(`<xhtml:link rel="alternate" hreflang="${to}" href="${site}/${to}/${page}"/>`).length - 1, page).toBe(LOCALE_COUNT);
    }
    // And each of its pages has its own link preview.
    expect(existsSync(path.join(copy, 'web/build/client/og', `${to}-home.png`))).toBe(true);
    console.info(`add-locale: copy, failed build and build in ${Math.round((performance.now() - started) / 1000)} s`);
  }, 240_000);
});
