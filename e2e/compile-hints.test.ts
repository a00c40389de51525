import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { COMPILE_HINT } from '../contract/compile-hint';
import { funFacts as englishFacts } from '../web/content/fun-facts';
import { funFacts as spanishFacts } from '../web/content/es/fun-facts';
import { SITE_PAGES } from '../contract/site-routes';

/** The built scripts a page preloads, as paths under the client directory (read here independently of postbuild's own parser). */
function preloadedScripts(html: string): string[] {
  return [...html.matchAll(/<link rel="modulepreload" href="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
}

/** The build under test: every page's first-load chunks carry V8's compile hint as their first line (scripts/postbuild.ts). */
describe('compile hints in the build', () => {
  const clientDir = inject('clientDir');
  const pages = readdirSync(clientDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.html'));
  const assets = readdirSync(path.join(clientDir, 'assets')).filter((name) => name.endsWith('.js'));
  const firstLine = (script: string) => readFileSync(path.join(clientDir, script), 'utf8').slice(0, COMPILE_HINT.length);

  it('every chunk a page preloads starts with //# allFunctionsCalledOnLoad', () => {
    const preloaded = new Set(pages.flatMap((page) => preloadedScripts(readFileSync(path.join(clientDir, page), 'utf8'))));
    for (const kind of ['vendor-', 'app-', 'entry.client-', 'home-', 'projects-', 'contact-']) {
      expect(
        [...preloaded].some((script) => path.basename(script).startsWith(kind)),
        `a ${kind}* chunk is preloaded`,
      ).toBe(true);
    }
    for (const script of preloaded) expect(firstLine(script), script).toBe(COMPILE_HINT);
  });

  it('chunks fetched on demand after the first load do not (their functions would be compiled for nothing)', () => {
    const preloaded = new Set(pages.flatMap((page) => preloadedScripts(readFileSync(path.join(clientDir, page), 'utf8'))));
    const onDemand = assets
      .map((name) => `assets/${name}`)
      .filter((script) => !preloaded.has(script) && !path.basename(script).startsWith('inline-'));
    expect(
      onDemand.some((script) => path.basename(script).startsWith('FunFactModal-')),
      'the fun-fact modal is fetched on demand',
    ).toBe(true);
    for (const script of onDemand) expect(firstLine(script), script).not.toBe(COMPILE_HINT);
  });

  it("the fun facts travel only in the modal's chunk, in no page's first load", () => {
    const preloaded = new Set(pages.flatMap((page) => preloadedScripts(readFileSync(path.join(clientDir, page), 'utf8'))));
    const holding = (fact: string) => assets.filter((name) => readFileSync(path.join(clientDir, 'assets', name), 'utf8').includes(fact));
    for (const fact of [...englishFacts, ...spanishFacts]) {
      const files = holding(fact);
      expect(
        files.map((name) => name.replace(/-[\w-]+\.js$/, '')),
        fact,
      ).toEqual(['FunFactModal']);
      expect(preloaded.has(`assets/${files[0]}`), fact).toBe(false);
    }
  });

  it('the page table is in none of the chunks every page preloads (the page-view code, loaded once the page is idle, reads it)', () => {
    const lists = pages.map((page) => preloadedScripts(readFileSync(path.join(clientDir, page), 'utf8')));
    const shared = lists[0]!.filter((script) => lists.every((list) => list.includes(script)));
    expect(
      shared.some((script) => path.basename(script).startsWith('app-')),
      'every page preloads the app chunk',
    ).toBe(true);
    for (const script of shared) {
      const text = readFileSync(path.join(clientDir, script), 'utf8');
      for (const { module } of SITE_PAGES) expect(text.includes(module), `${script} holds ${module}`).toBe(false);
    }
  });
});
