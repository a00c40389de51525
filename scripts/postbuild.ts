/**
 * Post-build step of `npm run build`: shapes every prerendered page so that
 *   - the first paint needs nothing but the HTML: each stylesheet the page links is inlined in a
 *     <style> (its <link> stays, disabled, so hydration finds the element React rendered), and the
 *     module preloads wait in a <template> (inert, valid HTML) until the boot script adds them to
 *     the head after the first paint;
 *   - the CSP for scripts never depends on content: React Router's and React's per-page inline
 *     scripts move into content-hashed files under assets/, each leaving an empty placeholder of the
 *     same element (an empty inline script never runs) that the constant boot script of
 *     web/boot/boot.ts loads in document order. Any other inline script fails the build
 *     unless web/boot/generate.ts registers it as a constant one.
 *   - the chunks a first load runs (every module a page preloads: vendor, app, the route's own) start
 *     with V8's explicit compile hint (COMPILE_HINT in contract/compile-hint.ts), so Chrome compiles
 *     their functions while streaming the script, off the main thread, instead of lazily on it during hydration.
 * It writes web/build/postbuild.json (outside client/, never uploaded) as proof it ran.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPILE_HINT } from '../contract/compile-hint';
import { DEFERRED_PRELOADS_ATTRIBUTE, MOVED_SCRIPT_ATTRIBUTE, PAGE_VIEW_ATTRIBUTE } from '../contract/inline-scripts';
import { bootScript } from '../web/boot/generate';
import { routeOfPath } from '../contract/vitals';
import { LOCALE_CODES } from '../web/content/locales';
import { POSTBUILD_REPORT_FILE, WEB_BUILD_DIR, type PostbuildReport } from '../infra/shared/build-output';
import { INLINE_SCRIPT_HASHES, scriptHash } from '../infra/shared/security-headers';
import { basePathOf } from '../contract/preview-path';

const SCRIPT_PATTERN = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const LINK_PATTERN = /<link\b([^>]*?)\/?>/gi;
/** A template's content is inert: nothing in it is fetched or run. */
const TEMPLATE_PATTERN = /<template\b[^>]*>[\s\S]*?<\/template\s*>/gi;
/** A template (left as it is) or a link outside any template. */
const LINK_OUTSIDE_TEMPLATES = new RegExp(`${TEMPLATE_PATTERN.source}|${LINK_PATTERN.source}`, 'gi');
/** Types a browser executes as script; other types (application/json, …) are data blocks CSP ignores. */
const EXECUTABLE_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript', 'text/ecmascript']);
/** Media queries no screen matches: a stylesheet with one of them never delays a paint. */
const NON_SCREEN_MEDIA = new Set(['print', 'not all', 'speech']);

/**
 * The per-page inline scripts the framework writes, which may move into files. Anything else that is
 * not a registered constant script is refused, so no unknown inline code ever needs the policy.
 */
interface MovableScript {
  name: string;
  test: (text: string, type: string) => boolean;
}
const ROUTER_CONTEXT: MovableScript = { name: "React Router's context", test: (t) => t.startsWith('window.__reactRouterContext = ') };
const ROUTER_STREAM: MovableScript = {
  name: "React Router's stream",
  test: (t) => t.startsWith('window.__reactRouterContext.streamController.'),
};
const MOVABLE_SCRIPTS: MovableScript[] = [
  ROUTER_CONTEXT,
  ROUTER_STREAM,
  { name: "React Router's route modules", test: (t, type) => type === 'module' && t.includes('window.__reactRouterRouteModules') },
  { name: "React's streaming instructions", test: (t) => /^\$R[A-Z]\b/.test(t) },
  { name: "React's reveal timer", test: (t) => t === 'requestAnimationFrame(function(){$RT=performance.now()});' },
];

/** React Router's classic (non-module) per-page scripts, which run in this order and share one file. */
const ROUTER_CLASSIC_SCRIPTS = [ROUTER_CONTEXT, ROUTER_STREAM];
const ROUTER_SCRIPTS_MARK = '\u0000router-scripts\u0000';

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}(?:\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+)))?(?=\\s|/|$)`, 'i').exec(attributes);
  if (!match) return undefined;
  return match[1] ?? match[2] ?? match[3] ?? '';
}

function scriptType(attributes: string): string {
  return (attribute(attributes, 'type') ?? '').trim().toLowerCase();
}

/** The text of every executable inline script of one HTML document, as the browser hashes it. */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  for (const match of html.matchAll(SCRIPT_PATTERN)) {
    const attributes = match[1] ?? '';
    if (attribute(attributes, 'src') !== undefined || !EXECUTABLE_TYPES.has(scriptType(attributes))) continue;
    // The HTML parser turns CRLF and lone CR into LF before the browser hashes the text.
    const text = (match[2] ?? '').replace(/\r\n?/g, '\n');
    // An empty inline script is never run (nor checked against the CSP): it is a placeholder.
    if (text !== '') scripts.push(text);
  }
  return scripts;
}

/**
 * Why a built page would need a script or a stylesheet request before its first paint, or carry
 * inline code the constant policy does not admit; empty when neither is the case.
 */
export function firstPaintProblems(html: string, admitted: readonly string[] = INLINE_SCRIPT_HASHES): string[] {
  const problems: string[] = [];
  for (const text of inlineScripts(html)) {
    if (!admitted.includes(scriptHash(text))) problems.push(`inline script not admitted by the CSP: ${text.slice(0, 80)}`);
  }
  for (const match of html.matchAll(SCRIPT_PATTERN)) {
    const attributes = match[1] ?? '';
    const src = attribute(attributes, 'src');
    if (src !== undefined && EXECUTABLE_TYPES.has(scriptType(attributes))) {
      problems.push(`script file loaded by the parser: ${src}`);
    }
  }
  for (const match of html.replace(TEMPLATE_PATTERN, '').matchAll(LINK_PATTERN)) {
    const attributes = match[1] ?? '';
    const rel = (attribute(attributes, 'rel') ?? '').toLowerCase().split(/\s+/);
    const href = attribute(attributes, 'href');
    if (href === undefined) continue;
    if (rel.includes('modulepreload') || (rel.includes('preload') && attribute(attributes, 'as') === 'script')) {
      problems.push(`script fetched before the first paint: ${href}`);
    }
    if (rel.includes('stylesheet') && attribute(attributes, 'disabled') === undefined) {
      const media = (attribute(attributes, 'media') ?? '').trim().toLowerCase();
      if (!NON_SCREEN_MEDIA.has(media)) problems.push(`render-blocking stylesheet: ${href}`);
    }
  }
  return problems;
}

/** Name of the file under assets/ that holds a moved script: content-hashed, so immutable. */
function movedScriptName(text: string): string {
  return `inline-${createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 12)}.js`;
}

/** A built file's address under the site's base path (`/pr-7/abc1234/assets/x.css`) as its path in client/, or undefined outside it. */
function builtFile(href: string, basePath: string): string | undefined {
  return href.startsWith(`${basePath}/assets/`) ? href.slice(basePath.length + 1) : undefined;
}

function stylesheetText(clientDir: string, href: string, page: string, basePath: string): string {
  const file = builtFile(href, basePath);
  if (file === undefined || !href.endsWith('.css')) {
    throw new Error(`${page} links the stylesheet ${href}, which is not a built asset: only ${basePath}/assets/*.css are inlined.`);
  }
  const css = readFileSync(path.join(clientDir, file), 'utf8');
  if (/<\/style/i.test(css)) throw new Error(`${href} contains "</style", which cannot be inlined into ${page}.`);
  // Inlined, a relative url() would resolve against the page instead of the stylesheet.
  const relative = /url\(\s*(['"]?)(?![a-z]+:|\/|#)[^)'"]/i.exec(css);
  if (relative) throw new Error(`${href} has a relative url() (${relative[0]}…): make it absolute to inline it into ${page}.`);
  return css;
}

export interface TransformedPage {
  html: string;
  /** Files to write under the client directory (path relative to it → content). */
  files: Map<string, string>;
}

/**
 * The boot script's page-view attribute for a prerendered file: its route pattern and language
 * (contract/vitals.ts) as HTML-escaped JSON. `projects/3/index.html` → /projects/:projectId; a file
 * with no page of its own (the 404 fallback) → `*`.
 */
export function pageViewAttribute(page: string): string {
  const pathname = `/${page
    .split(path.sep)
    .join('/')
    .replace(/(^|\/)index\.html$/, '')
    .replace(/\.html$/, '')}`;
  return JSON.stringify(routeOfPath(pathname, LOCALE_CODES)).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/**
 * Applies the first-paint and CSP shaping to one page; `page` names it in errors. `basePath`: the
 * site's (contract/preview-path.ts basePathOf, '' for the live site), which the moved scripts'
 * addresses carry as the built assets' do.
 */
export function transformPage(html: string, clientDir: string, page: string, basePath = ''): TransformedPage {
  const files = new Map<string, string>();
  const routerTexts: string[] = [];
  let out = html.replace(SCRIPT_PATTERN, (whole, attributes: string, body: string) => {
    if (attribute(attributes, 'src') !== undefined || !EXECUTABLE_TYPES.has(scriptType(attributes))) return whole;
    const text = body.replace(/\r\n?/g, '\n');
    // The boot script learns the page's route pattern and language here (its text stays constant).
    if (text === bootScript() && attribute(attributes, PAGE_VIEW_ATTRIBUTE) === undefined) {
      return `<script${attributes} ${PAGE_VIEW_ATTRIBUTE}="${pageViewAttribute(page)}">${body}</script>`;
    }
    if (text === '' || INLINE_SCRIPT_HASHES.includes(scriptHash(text))) return whole;
    if (!MOVABLE_SCRIPTS.some((kind) => kind.test(text, scriptType(attributes)))) {
      throw new Error(
        `${page} has an inline script that is neither one of the framework's per-page scripts nor a registered ` +
          `constant one: ${text.slice(0, 120)}… Load it from a file, or add its constant source to ` +
          'inlineScripts in web/boot/generate.ts.',
      );
    }
    // React Router's classic scripts (its context, then the stream's data and its close) become one file,
    // loaded where the first of them was: one request and one gzip stream instead of three (about 0.2 KB
    // less per first load). They then run before the route-modules script, as the inline originals do
    // (classic inline scripts run at once, the module script later). The others stay as empty elements,
    // so hydration sees the same tree; an empty script runs nothing.
    if (scriptType(attributes) !== 'module' && ROUTER_CLASSIC_SCRIPTS.some((kind) => kind.test(text, ''))) {
      routerTexts.push(text);
      return routerTexts.length === 1
        ? `<script${attributes} ${MOVED_SCRIPT_ATTRIBUTE}="${ROUTER_SCRIPTS_MARK}"></script>`
        : `<script${attributes}></script>`;
    }
    const name = `assets/${movedScriptName(text)}`;
    files.set(name, text);
    return `<script${attributes} ${MOVED_SCRIPT_ATTRIBUTE}="${basePath}/${name}"></script>`;
  });
  if (routerTexts.length > 0) {
    const text = routerTexts.join('\n');
    const name = `assets/${movedScriptName(text)}`;
    files.set(name, text);
    out = out.replace(ROUTER_SCRIPTS_MARK, `${basePath}/${name}`);
  }
  // The module preloads, unchanged, move into one template where the first of them was.
  const preloads: string[] = [];
  const PRELOADS_MARK = '\u0000deferred-preloads\u0000';
  out = out.replace(LINK_OUTSIDE_TEMPLATES, (whole, attributes: string | undefined) => {
    if (attributes === undefined) return whole; // a template
    const rel = (attribute(attributes, 'rel') ?? '').toLowerCase();
    const href = attribute(attributes, 'href');
    if (href === undefined) return whole;
    if (rel === 'modulepreload') {
      preloads.push(whole);
      return preloads.length === 1 ? PRELOADS_MARK : '';
    }
    if (rel === 'stylesheet' && attribute(attributes, 'disabled') === undefined) {
      // The <link> stays (React hydrates the element it rendered) but disabled: never fetched, never blocking.
      const link = whole.replace(/\s*\/?>$/, ' disabled=""/>');
      return `${link}<style>${stylesheetText(clientDir, href, page, basePath)}</style>`;
    }
    return whole;
  });
  out = out.replace(PRELOADS_MARK, () => `<template ${DEFERRED_PRELOADS_ATTRIBUTE}>${preloads.join('')}</template>`);
  const problems = firstPaintProblems(out);
  if (problems.length > 0) throw new Error(`${page} still ${problems.join('; ')}`);
  return { html: out, files };
}

/** The built scripts a page preloads (its first load runs them all), as paths under the client directory. */
export function preloadedScripts(html: string, basePath = ''): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(LINK_PATTERN)) {
    const attributes = match[1] ?? '';
    const href = attribute(attributes, 'href');
    const file = href === undefined ? undefined : builtFile(href, basePath);
    if ((attribute(attributes, 'rel') ?? '').toLowerCase() === 'modulepreload' && file !== undefined && file.endsWith('.js')) {
      found.push(file);
    }
  }
  return found;
}

/** The script with the compile hint as its first line (unchanged if it already has it). */
export function withCompileHint(script: string): string {
  return script.startsWith(COMPILE_HINT) ? script : `${COMPILE_HINT}${script}`;
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Shapes every HTML page under buildDir/client and writes postbuild.json; throws on any problem. */
/** The marker's look: fixed (no layout shift), out of the pointer's way, readable in light and dark. */
const PREVIEW_MARKER_STYLE =
  'position:fixed;z-index:2147483647;top:0;left:50%;transform:translateX(-50%);margin:0;padding:2px 10px;' +
  'font:600 12px/1.5 system-ui,sans-serif;color:#fff;background:#b3261e;border-radius:0 0 6px 6px;pointer-events:none';

/**
 * A pull request's preview build (PREVIEW_LABEL set, e.g. "Preview: pull request 12, abc1234") says so on
 * every page, with no script: a static note right after <body>, which React 19's hydration skips over as it
 * does elements extensions add. Idempotent; a page without <body> is left as it is.
 */
export function markPreview(html: string, label: string): string {
  if (html.includes('data-preview-marker')) return html;
  const text = label.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return html.replace(
    /<body([^>]*)>/,
    (body) => `${body}<p data-preview-marker="" role="note" style="${PREVIEW_MARKER_STYLE}">${text}</p>`,
  );
}

export function shapePages(
  buildDir: string = WEB_BUILD_DIR,
  previewLabel: string | undefined = undefined,
  basePath = '',
): { pages: number; movedScripts: number; hintedScripts: number; report: PostbuildReport } {
  const clientDir = path.join(buildDir, 'client');
  const pages = htmlFiles(clientDir);
  if (pages.length === 0) throw new Error(`No HTML file under ${clientDir}: did the prerender run?`);
  const moved = new Map<string, string>();
  const kept = new Set<string>();
  const hinted = new Set<string>();
  const shaped = pages.map((file) => {
    const page = path.relative(clientDir, file);
    const shapedPage = transformPage(readFileSync(file, 'utf8'), clientDir, page, basePath);
    const files = shapedPage.files;
    const html = previewLabel ? markPreview(shapedPage.html, previewLabel) : shapedPage.html;
    for (const [name, text] of files) moved.set(name, text);
    for (const script of preloadedScripts(html, basePath)) {
      if (!existsSync(path.join(clientDir, script))) throw new Error(`${page} preloads ${script}, which the build did not emit.`);
      hinted.add(script);
    }
    for (const text of inlineScripts(html)) kept.add(scriptHash(text));
    return { file, html };
  });
  // Every check passed: only now is anything written, so a failed step leaves the build as it was.
  for (const [name, text] of moved) writeFileSync(path.join(clientDir, name), text);
  for (const script of hinted) {
    const file = path.join(clientDir, script);
    writeFileSync(file, withCompileHint(readFileSync(file, 'utf8')));
  }
  for (const { file, html } of shaped) writeFileSync(file, html);
  const report: PostbuildReport = { inlineScriptHashes: [...kept].sort() };
  writeFileSync(path.join(buildDir, POSTBUILD_REPORT_FILE), `${JSON.stringify(report, null, 2)}\n`);
  return { pages: pages.length, movedScripts: moved.size, hintedScripts: hinted.size, report };
}

/**
 * The prerender of a resource route (robots.txt, sitemap.xml, feed.xml) also writes "<file>.data", the
 * single-fetch payload a client navigation would ask for. Nothing navigates to those files in the
 * browser, so the copies are removed rather than uploaded. Page payloads (e.g. home.data) are kept.
 */
export function removeResourceRouteData(clientDir: string): string[] {
  const removed: string[] = [];
  // Recursive: a language's own resources (es/feed.xml) sit in its folder.
  for (const name of readdirSync(clientDir, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.data')) continue;
    const resource = name.slice(0, -'.data'.length);
    if (path.extname(resource) !== '' && !resource.endsWith('.html') && existsSync(path.join(clientDir, resource))) {
      rmSync(path.join(clientDir, name));
      removed.push(name);
    }
  }
  return removed;
}

/**
 * A build for a base path (a preview's, `/pr-7/abc1234`): React Router's prerender writes the pages under
 * client/pr-7/abc1234/ and Vite the assets and public files at client/ (remix-run/react-router#14587).
 * The preview's files are one tree uploaded under its prefix, so the pages move up beside the assets:
 * client/ is then laid out as the live site's is, and every address in it carries the base path.
 * The web manifest's addresses (a public file, which Vite copies as it is) get the base path too.
 * Refuses to overwrite a file; returns how many files moved.
 */
export function movePagesToRoot(clientDir: string, basePath: string): number {
  const from = path.join(clientDir, ...basePath.split('/').filter(Boolean));
  if (!existsSync(from)) throw new Error(`No pages under ${from}: was the build made with the same PREVIEW_PATH?`);
  const names = readdirSync(from, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  for (const entry of names) {
    const target = path.join(clientDir, path.relative(from, path.join(entry.parentPath, entry.name)));
    if (existsSync(target))
      throw new Error(`${path.relative(clientDir, target)} exists both at the root of the build and under ${basePath}/.`);
  }
  for (const entry of names) {
    const source = path.join(entry.parentPath, entry.name);
    const target = path.join(clientDir, path.relative(from, source));
    mkdirSync(path.dirname(target), { recursive: true });
    renameSync(source, target);
  }
  rmSync(path.join(clientDir, basePath.split('/').filter(Boolean)[0]!), { recursive: true });
  const manifest = path.join(clientDir, 'site.webmanifest');
  if (existsSync(manifest))
    writeFileSync(manifest, `${JSON.stringify(manifestUnder(JSON.parse(readFileSync(manifest, 'utf8')), basePath), null, 2)}\n`);
  return names.length;
}

/** A web manifest with its site paths (start_url, scope, icons' src) under the base path. */
export function manifestUnder(manifest: Record<string, unknown>, basePath: string): Record<string, unknown> {
  const under = (value: unknown) =>
    typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? `${basePath}${value}` : value;
  const icons = Array.isArray(manifest.icons)
    ? manifest.icons.map((icon: Record<string, unknown>) => ({ ...icon, src: under(icon.src) }))
    : manifest.icons;
  return {
    ...manifest,
    ...('start_url' in manifest ? { start_url: under(manifest.start_url) } : {}),
    ...('scope' in manifest ? { scope: under(manifest.scope) } : {}),
    ...(icons ? { icons } : {}),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const basePath = basePathOf(process.env.PREVIEW_PATH);
    if (basePath)
      console.log(
        `postbuild: ${movePagesToRoot(path.join(WEB_BUILD_DIR, 'client'), basePath)} files of ${basePath}/ moved to the root of client/`,
      );
    const removed = removeResourceRouteData(path.join(WEB_BUILD_DIR, 'client'));
    if (removed.length > 0) console.log(`postbuild: removed resource-route payloads ${removed.join(', ')}`);
    const { pages, movedScripts, hintedScripts, report } = shapePages(
      WEB_BUILD_DIR,
      process.env.PREVIEW_LABEL?.trim() || undefined,
      basePath,
    );
    console.log(
      `postbuild: ${pages} pages shaped (CSS inlined, ${movedScripts} per-page scripts moved to assets/, ` +
        `${hintedScripts} first-load chunks given the compile hint); ` +
        `${report.inlineScriptHashes.length} constant inline scripts left → web/build/${POSTBUILD_REPORT_FILE}`,
    );
  } catch (error) {
    console.error(`postbuild failed: ${(error as Error).message}`);
    process.exit(1);
  }
}
