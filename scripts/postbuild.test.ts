import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootScript, inlineScripts as constantInlineScripts } from '../web/boot/generate';
import { contentSecurityPolicy, INLINE_SCRIPT_HASHES, scriptHash } from '../infra/shared/security-headers';
import { COMPILE_HINT } from '../contract/compile-hint';
import {
  firstPaintProblems,
  inlineScripts,
  markPreview,
  movePagesToRoot,
  pageViewAttribute,
  preloadedScripts,
  removeResourceRouteData,
  shapePages,
  transformPage,
} from './postbuild';
import { scratchDir } from '../tools/scratch';

const HYDRATION_BOOT_SCRIPT = bootScript();
const INLINE_SCRIPTS = constantInlineScripts();

function build(files: Record<string, string>): string {
  const dir = scratchDir('postbuild-');
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, 'client', name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return dir;
}

const BOOT = `<script>${HYDRATION_BOOT_SCRIPT}</script>`;
const CSS = 'body{margin:0}.a{background:url(/images/x.svg)}';

/** A build of these pages with the stylesheet and chunks they name (two preloaded, one fetched on demand). */
const siteBuild = (pages: Record<string, string>) =>
  build({
    'assets/app-C3.css': CSS,
    'assets/entry.client-A1.js': 'import"./vendor-B2.js";',
    'assets/vendor-B2.js': 'export function f(){}',
    'assets/FunFactModal-E5.js': 'export function g(){}',
    ...pages,
  });

/** A page shaped like React Router's prerender output (framework scripts, preloads, a stylesheet). */
function prerendered(owner: string): string {
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>x</title>' +
    '<link rel="modulepreload" href="/assets/entry.client-A1.js"/><link rel="modulepreload" href="/assets/vendor-B2.js"/>' +
    `<link rel="stylesheet" href="/assets/app-C3.css"/>${BOOT}</head><body><main><h1>${owner}</h1></main>` +
    `<script>window.__reactRouterContext = {"owner":"${owner}"};</script>` +
    '<script type="module" async="">import "/assets/manifest-D4.js";\nwindow.__reactRouterRouteModules = {};\nimport("/assets/entry.client-A1.js");</script>' +
    '<!--$?--><template id="B:0"></template><!--/$--><script id="_R_">requestAnimationFrame(function(){$RT=performance.now()});</script>' +
    `<div hidden id="S:0"><script>window.__reactRouterContext.streamController.enqueue("[\\"${owner}\\"]");</script></div>` +
    '<script>$RB=[];$RC=function(a,b){};$RC("B:0","S:0")</script></body></html>'
  );
}

describe('inlineScripts', () => {
  it('takes executable, non-empty inline scripts, byte for byte, and skips files, data blocks and placeholders', () => {
    const html = [
      '<script>a()</script>',
      '<script type="module">import "/x.js";\n</script>',
      '<SCRIPT type=text/javascript>b()</SCRIPT >',
      '<script src="/assets/x.js"></script>',
      '<script type="application/ld+json">{}</script>',
      '<script id="_R_" data-src="/assets/inline-x.js"></script>',
      '<script>\r\nd()\r</script>',
    ].join('');
    expect(inlineScripts(html)).toEqual(['a()', 'import "/x.js";\n', 'b()', '\nd()\n']);
  });

  it('hashes as the browser does (sha256 of the UTF-8 text, base64)', () => {
    expect(scriptHash('alert(1)')).toBe(`sha256-${createHash('sha256').update('alert(1)').digest('base64')}`);
    // The CSP spec's own example value for "alert('Hello, world.');".
    expect(scriptHash("alert('Hello, world.');")).toBe('sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng=');
  });
});

describe('the constant policy', () => {
  it('admits exactly the registered constant scripts, and never unsafe-inline or unsafe-eval', () => {
    expect(INLINE_SCRIPT_HASHES).toEqual(INLINE_SCRIPTS.map(scriptHash));
    const scriptSrc = /script-src ([^;]*)/.exec(contentSecurityPolicy({ upgradeInsecureRequests: true }))![1]!;
    expect(scriptSrc.split(' ').filter((s) => s.startsWith("'sha256-"))).toEqual(INLINE_SCRIPT_HASHES.map((h) => `'${h}'`));
    expect(scriptSrc).not.toMatch(/unsafe-(inline|eval)|strict-dynamic/);
  });
});

describe('transformPage', () => {
  it('moves the framework scripts into files, leaving empty placeholders of the same element', () => {
    const dir = build({ 'assets/app-C3.css': CSS });
    const { html, files } = transformPage(prerendered('Alex'), path.join(dir, 'client'), 'home/index.html');
    expect(inlineScripts(html)).toEqual([HYDRATION_BOOT_SCRIPT]);
    expect(firstPaintProblems(html)).toEqual([]);
    // Same elements in the same places (type, async, id kept), so hydration sees the same tree.
    const placeholders = [...html.matchAll(/<script([^>]*)><\/script>/g)].map((m) => m[1]!.replace(/ data-src="[^"]+"/, ''));
    expect(placeholders).toEqual(['', ' type="module" async=""', ' id="_R_"', '', '']);
    // React Router's context and its stream's data share one file, loaded from the first's place; the
    // stream's element stays, empty, with nothing to load.
    const context = 'window.__reactRouterContext = {"owner":"Alex"};';
    const stream = 'window.__reactRouterContext.streamController.enqueue("[\\"Alex\\"]");';
    const router = [...files].find(([, text]) => text.startsWith('window.__reactRouterContext = '));
    expect(router?.[1]).toBe(`${context}\n${stream}`);
    expect(html).toContain(`<body><main><h1>Alex</h1></main><script data-src="/${router?.[0]}"></script>`);
    expect(html).toContain('<div hidden id="S:0"><script></script></div>');
    expect(files.size).toBe(4);
    for (const [name, text] of files) {
      expect(name).toMatch(/^assets\/inline-[\w-]{12}\.js$/);
      expect(html).toContain(`data-src="/${name}"`);
      for (const part of text.split('\n').filter((line) => line.startsWith('window.__reactRouterContext')))
        expect(prerendered('Alex')).toContain(part);
      if (name !== router?.[0]) expect(prerendered('Alex')).toContain(text);
    }
  });

  it("gives the boot script the page's route pattern and language, its text unchanged", () => {
    const dir = build({ 'assets/app-C3.css': CSS });
    const page = (file: string) => transformPage(prerendered('Alex'), path.join(dir, 'client'), file).html;
    const attributeOf = (html: string) => /<script data-page-view="([^"]*)">/.exec(html)?.[1]?.replace(/&quot;/g, '"');
    expect(attributeOf(page('home/index.html'))).toBe('{"route":"/home","lang":"en"}');
    expect(attributeOf(page(path.join('es', 'projects', '3', 'index.html')))).toBe('{"route":"/projects/:projectId","lang":"es"}');
    expect(attributeOf(page('index.html'))).toBe('{"route":"/","lang":"en"}');
    expect(attributeOf(page('__spa-fallback.html'))).toBe('{"route":"*","lang":"en"}');
    // A post and a tag page: their own patterns, never the not-found page's.
    expect(attributeOf(page(path.join('es', 'blogs', 'hola', 'index.html')))).toBe('{"route":"/blogs/:slug","lang":"es"}');
    expect(attributeOf(page(path.join('blogs', 'tags', 'css', 'index.html')))).toBe('{"route":"/blogs/tags/:tag","lang":"en"}');
    expect(pageViewAttribute('blogs/index.html')).toBe('{&quot;route&quot;:&quot;/blogs&quot;,&quot;lang&quot;:&quot;en&quot;}');
    expect(inlineScripts(page('home/index.html'))).toEqual([HYDRATION_BOOT_SCRIPT]);
  });

  it('inlines the stylesheets and keeps their links disabled, and defers the module preloads', () => {
    const dir = build({ 'assets/app-C3.css': CSS });
    const { html } = transformPage(prerendered('Alex'), path.join(dir, 'client'), 'home/index.html');
    expect(html).toContain(`<link rel="stylesheet" href="/assets/app-C3.css" disabled=""/><style>${CSS}</style>`);
    // The preloads, unchanged and in order, wait in one inert template where the first one was.
    expect(html).toContain(
      '<title>x</title><template data-deferred-preloads><link rel="modulepreload" href="/assets/entry.client-A1.js"/>' +
        '<link rel="modulepreload" href="/assets/vendor-B2.js"/></template><link rel="stylesheet"',
    );
    expect(html.match(/rel="modulepreload"/g)).toHaveLength(2);
  });

  it('leaves a page without module preloads without a template', () => {
    const dir = build({ 'assets/app-C3.css': CSS });
    const page = prerendered('Alex').replace(/<link rel="modulepreload"[^>]*>/g, '');
    expect(transformPage(page, path.join(dir, 'client'), 'p').html).not.toContain('<template data-deferred-preloads');
  });

  it('is idempotent', () => {
    const dir = build({ 'assets/app-C3.css': CSS });
    const once = transformPage(prerendered('Alex'), path.join(dir, 'client'), 'p').html;
    expect(transformPage(once, path.join(dir, 'client'), 'p')).toEqual({ html: once, files: new Map() });
  });

  it('fails the build on an inline script that is neither the framework’s nor a registered constant one', () => {
    const dir = build({ 'assets/app-C3.css': CSS });
    const page = prerendered('Alex').replace('</main>', '</main><script>document.title = "Alex"</script>');
    expect(() => transformPage(page, path.join(dir, 'client'), 'home/index.html')).toThrow(
      /home\/index\.html has an inline script .*document\.title.*web\/boot\/generate\.ts/,
    );
  });

  it('refuses stylesheets it cannot inline faithfully', () => {
    const relative = build({ 'assets/app-C3.css': '.a{background:url(./x.png)}' });
    expect(() => transformPage(prerendered('A'), path.join(relative, 'client'), 'p')).toThrow(/relative url\(\)/);
    const closing = build({ 'assets/app-C3.css': '.a{content:"</style>"}' });
    expect(() => transformPage(prerendered('A'), path.join(closing, 'client'), 'p')).toThrow(/<\/style/);
  });
});

describe('firstPaintProblems', () => {
  it('names what would block or precede the first paint, or need the policy to change', () => {
    const html = [
      '<link rel="stylesheet" href="/a.css">',
      '<link rel="stylesheet" href="/print.css" media="print">',
      '<link rel="stylesheet" href="/off.css" disabled>',
      '<link rel="modulepreload" href="/m.js">',
      '<link rel="preload" as="script" href="/p.js">',
      '<script src="/s.js" defer></script>',
      '<script>evil()</script>',
      // Inert: neither the template's links nor its scripts are fetched or run.
      '<template data-deferred-preloads><link rel="modulepreload" href="/later.js"></template>',
      BOOT,
    ].join('');
    expect(firstPaintProblems(html)).toEqual([
      'inline script not admitted by the CSP: evil()',
      'script file loaded by the parser: /s.js',
      'render-blocking stylesheet: /a.css',
      'script fetched before the first paint: /m.js',
      'script fetched before the first paint: /p.js',
    ]);
  });
});

describe('a preview build', () => {
  it('marks every page with its label right after <body>, as text, once, and no script', () => {
    const dir = siteBuild({
      'home/index.html': prerendered('Alex'),
      'projects/3/index.html': prerendered('Robin'),
    });
    const result = shapePages(dir, 'Preview: pull request 12, <abc1234>');
    for (const page of ['home/index.html', 'projects/3/index.html']) {
      const html = readFileSync(path.join(dir, 'client', page), 'utf8');
      expect(html).toMatch(
        /<body[^>]*><p data-preview-marker="" role="note" style="position:fixed;[^"]*">Preview: pull request 12, &lt;abc1234&gt;<\/p>/,
      );
      expect(markPreview(html, 'again')).toBe(html);
    }
    // The same scripts as a live build: the marker adds no inline script to the policy.
    expect(result.report.inlineScriptHashes).toEqual([scriptHash(HYDRATION_BOOT_SCRIPT)]);
  });

  it('is absent from a live build', () => {
    const dir = siteBuild({
      'home/index.html': prerendered('Alex'),
    });
    shapePages(dir);
    expect(readFileSync(path.join(dir, 'client', 'home/index.html'), 'utf8')).not.toContain('data-preview-marker');
  });
});

describe('shapePages', () => {
  it('shapes every page, writes the moved scripts and the report, and writes nothing when a page fails', () => {
    const dir = siteBuild({
      'home/index.html': prerendered('Alex'),
      'projects/3/index.html': prerendered('Robin'),
      '__spa-fallback.html': prerendered('Fallback'),
    });
    const result = shapePages(dir);
    expect(result.pages).toBe(3);
    expect(result.report.inlineScriptHashes).toEqual([scriptHash(HYDRATION_BOOT_SCRIPT)]);
    expect(JSON.parse(readFileSync(path.join(dir, 'postbuild.json'), 'utf8'))).toEqual(result.report);
    const moved = readdirSync(path.join(dir, 'client', 'assets')).filter((n) => n.startsWith('inline-'));
    // Shared scripts (same text on every page) are one file; per-page ones differ.
    expect(moved.length).toBe(result.movedScripts);
    // One React Router file per page (its context and data), three shared by all.
    expect(result.movedScripts).toBe(3 + 3);
    for (const page of ['home/index.html', 'projects/3/index.html', '__spa-fallback.html']) {
      expect(firstPaintProblems(readFileSync(path.join(dir, 'client', page), 'utf8'))).toEqual([]);
    }
    // The preloaded chunks (a first load runs them) carry the compile hint as their first line, once;
    // a chunk fetched on demand does not.
    const asset = (name: string) => readFileSync(path.join(dir, 'client', 'assets', name), 'utf8');
    expect(result.hintedScripts).toBe(2);
    expect(asset('entry.client-A1.js')).toBe(`${COMPILE_HINT}import"./vendor-B2.js";`);
    expect(asset('vendor-B2.js')).toBe(`${COMPILE_HINT}export function f(){}`);
    expect(asset('FunFactModal-E5.js')).toBe('export function g(){}');
    shapePages(dir);
    expect(asset('vendor-B2.js')).toBe(`${COMPILE_HINT}export function f(){}`);

    const failing = build({
      'assets/app-C3.css': CSS,
      'assets/entry.client-A1.js': '',
      'assets/vendor-B2.js': '',
      'a/index.html': prerendered('A'),
      'b/index.html': '<script>x()</script>',
    });
    expect(() => shapePages(failing)).toThrow(/b\/index\.html has an inline script/);
    const missing = build({ 'assets/app-C3.css': CSS, 'assets/vendor-B2.js': 'f()', 'a/index.html': prerendered('A') });
    expect(() => shapePages(missing)).toThrow(/a\/index\.html preloads assets\/entry\.client-A1\.js, which the build did not emit/);
    expect(readFileSync(path.join(missing, 'client', 'assets', 'vendor-B2.js'), 'utf8')).toBe('f()');
    expect(readFileSync(path.join(failing, 'client', 'a', 'index.html'), 'utf8')).toBe(prerendered('A'));
    expect(existsSync(path.join(failing, 'postbuild.json'))).toBe(false);
  });

  it('fails when there is no HTML at all', () => {
    const dir = build({ 'assets/x.js': '' });
    expect(() => shapePages(dir)).toThrow(/No HTML file/);
  });
});

describe('removeResourceRouteData', () => {
  it('removes the single-fetch copies of robots.txt and sitemap.xml, and keeps page payloads', () => {
    const dir = build({
      'robots.txt': 'User-agent: *',
      'robots.txt.data': '[]',
      'sitemap.xml': '<urlset/>',
      'sitemap.xml.data': '[]',
      'home.data': '[]',
      'home/index.html': '<p>home</p>',
      'orphan.txt.data': '[]',
    });
    const client = path.join(dir, 'client');
    expect(removeResourceRouteData(client).sort()).toEqual(['robots.txt.data', 'sitemap.xml.data']);
    expect(existsSync(path.join(client, 'robots.txt'))).toBe(true);
    expect(existsSync(path.join(client, 'robots.txt.data'))).toBe(false);
    expect(existsSync(path.join(client, 'home.data'))).toBe(true);
    expect(existsSync(path.join(client, 'orphan.txt.data'))).toBe(true);
  });
});

describe('a build for a preview base path', () => {
  const BASE = '/pr-7/abc1234';
  /** The same page as React Router prerenders it with basename and Vite base /pr-7/abc1234/. */
  const underBase = (owner: string) => prerendered(owner).replaceAll('"/assets/', `"${BASE}/assets/`);

  it('moves the pages written under client/pr-7/abc1234/ up beside the assets, refusing to overwrite a file', () => {
    const dir = build({
      'assets/app-C3.css': CSS,
      'favicon.svg': '<svg/>',
      'site.webmanifest': JSON.stringify({
        start_url: '/home',
        scope: '/',
        icons: [{ src: '/icon-192.png', sizes: '192x192' }, { src: 'https://x.test/i.png' }],
      }),
      [`${BASE.slice(1)}/home/index.html`]: underBase('Alex'),
      [`${BASE.slice(1)}/es/feed.xml`]: '<feed/>',
    });
    const client = path.join(dir, 'client');
    expect(movePagesToRoot(client, BASE)).toBe(2);
    expect(readdirSync(client).sort()).toEqual(['assets', 'es', 'favicon.svg', 'home', 'site.webmanifest']);
    expect(readFileSync(path.join(client, 'home/index.html'), 'utf8')).toBe(underBase('Alex'));
    expect(JSON.parse(readFileSync(path.join(client, 'site.webmanifest'), 'utf8'))).toEqual({
      start_url: `${BASE}/home`,
      scope: `${BASE}/`,
      icons: [{ src: `${BASE}/icon-192.png`, sizes: '192x192' }, { src: 'https://x.test/i.png' }],
    });

    const clash = build({ 'home/index.html': 'root', [`${BASE.slice(1)}/home/index.html`]: 'preview' });
    expect(() => movePagesToRoot(path.join(clash, 'client'), BASE)).toThrow(
      /home\/index\.html exists both at the root of the build and under \/pr-7\/abc1234\//,
    );
    expect(readFileSync(path.join(clash, 'client', BASE.slice(1), 'home/index.html'), 'utf8')).toBe('preview');
    expect(() => movePagesToRoot(path.join(build({ 'index.html': 'x' }), 'client'), BASE)).toThrow(/same PREVIEW_PATH/);
  });

  it('inlines the stylesheet and moves the scripts to files addressed under the base path, and refuses an asset outside it', () => {
    const dir = build({ 'assets/app-C3.css': CSS });
    const { html, files } = transformPage(underBase('Alex'), path.join(dir, 'client'), 'home/index.html', BASE);
    expect(html).toContain(`<style>${CSS}</style>`);
    const moved = [...html.matchAll(/data-src="([^"]*)"/g)].map((m) => m[1]!);
    expect(moved.length).toBeGreaterThan(0);
    for (const address of moved) expect(files.has(address.slice(BASE.length + 1))).toBe(true);
    expect(moved.every((address) => address.startsWith(`${BASE}/assets/inline-`))).toBe(true);
    expect(preloadedScripts(underBase('Alex'), BASE)).toEqual(['assets/entry.client-A1.js', 'assets/vendor-B2.js']);
    expect(() => transformPage(prerendered('Alex'), path.join(dir, 'client'), 'home/index.html', BASE)).toThrow(
      /not a built asset: only \/pr-7\/abc1234\/assets\/\*\.css/,
    );
  });
});
