/**
 * Build step of `npm run build`: draws the link-preview image (1200×630 PNG) of every page.
 *
 * The prerendered HTML is the source of truth for what is referenced: each page names its image in
 * `og:image` (/og/<slug>.png, see web/app/layout/seo.ts), so this reads every HTML file under
 * web/build/client, takes the page's og:title and og:description, and renders the image it names
 * from those texts and the owner's content (name, role, site address). Fonts are Inter's .woff files
 * from @fontsource/inter (shipped with the project, no network). satori lays the card out as SVG,
 * resvg turns it into PNG. A right-to-left page (`<html dir="rtl">`) gets the mirrored card of
 * og-rtl.ts instead, in fonts that have its script.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import { WEB_CLIENT_DIR } from '../infra/shared/build-output';
import { renderSvg, rightToLeftSvg } from './og-rtl';
import { catalogue as defaultCatalogue } from '../web/content/catalogue';
import { loadCatalogue } from '../web/content/check';
import { DEFAULT_LOCALE, LOCALE_CODES } from '../web/content/locales';
import type { Catalogue } from '../web/content/types';
import { basePathOf } from '../contract/preview-path';

export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 630;

/** What one preview image shows. */
export interface Preview {
  /** Path of the image under the client dir, e.g. /og/projects-3.png. */
  image: string;
  kicker: string;
  title: string;
  description: string;
  /** The site's address as the page states it (og:url, which honours VITE_SITE_URL), or ''. */
  host: string;
  /** The owner's name and role line, in the page's language. */
  name: string;
  role: string;
  /** The page's direction (`<html dir>`): a right-to-left page gets the mirrored card of og-rtl.ts. */
  dir?: 'ltr' | 'rtl';
}

/** The direction a page declares (`<html dir>`). */
export function pageDirection(html: string): 'ltr' | 'rtl' {
  return /<html\b[^>]*\bdir="rtl"/i.test(html) ? 'rtl' : 'ltr';
}

/** The language a page declares (`<html lang>`). */
export function pageLanguage(html: string): string {
  return /<html\b[^>]*\blang="([^"]+)"/i.exec(html)?.[1] ?? DEFAULT_LOCALE;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1]?.toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The content of `<meta property|name="key" content="…">` in an HTML document, decoded. */
export function metaContent(html: string, key: string): string | undefined {
  for (const match of html.matchAll(/<meta\b([^>]*)>/gi)) {
    const attributes = match[1] ?? '';
    const named = /\b(?:property|name)="([^"]*)"/i.exec(attributes)?.[1];
    if (named !== key) continue;
    const content = /\bcontent="([^"]*)"/i.exec(attributes)?.[1];
    return content === undefined ? undefined : decodeEntities(content);
  }
  return undefined;
}

/** Shortens text to at most `max` characters at a word boundary, with an ellipsis. */
export function shorten(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, '')}…`;
}

/**
 * What the preview of one prerendered page shows, in the page's language (`catalogue`), or
 * undefined when it names no /og/ image.
 */
export function previewOf(html: string, catalogue: Catalogue = defaultCatalogue): Preview | undefined {
  const { site, pages, ui } = catalogue;
  const imageUrl = metaContent(html, 'og:image');
  if (!imageUrl) return undefined;
  // A preview's pages name their images under its base path; the files sit at og/ of its build.
  const basePath = basePathOf(process.env.PREVIEW_PATH);
  const named = new URL(imageUrl, 'http://localhost').pathname;
  const image = basePath && named.startsWith(`${basePath}/`) ? named.slice(basePath.length) : named;
  if (!/^\/og\/[a-z0-9-]+\.png$/.test(image)) return undefined;
  const ogTitle = metaContent(html, 'og:title') ?? site.name;
  const suffix = ` | ${site.name}`;
  // The home page's title is "{name} | {role}": its preview leads with the home headline instead.
  const isHome = !ogTitle.endsWith(suffix);
  const title = isHome ? pages.home.headline : ogTitle.slice(0, -suffix.length);
  const kicker = /^\/og\/(?:[a-z]{2,3}-)?projects-\d+\.png$/.test(image)
    ? ui.project.previewKicker
    : isHome
      ? ui.home.previewKicker
      : '';
  const pageUrl = metaContent(html, 'og:url') ?? '';
  const host = /^https?:\/\//.test(pageUrl) ? new URL(pageUrl).host : '';
  const description = metaContent(html, 'og:description') ?? site.tagline;
  return { image, kicker, title, description, host, name: site.name, role: site.role, ...(pageDirection(html) === 'rtl' ? { dir: 'rtl' as const } : {}) };
}

const require = createRequire(import.meta.url);

function font(weight: 400 | 600 | 800, subset: 'latin' | 'latin-ext') {
  const file = require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`);
  return { name: 'Inter', data: readFileSync(file), weight, style: 'normal' as const };
}

let fontsCache: ReturnType<typeof font>[] | undefined;
function fonts() {
  fontsCache ??= ([400, 600, 800] as const).flatMap((weight) => [font(weight, 'latin'), font(weight, 'latin-ext')]);
  return fontsCache;
}

/** A satori element: the same shape React elements have, without React. */
interface Node {
  type: string;
  props: { style?: Record<string, unknown>; children?: (Node | string)[] | Node | string };
}
function box(style: Record<string, unknown>, ...children: (Node | string)[]): Node {
  return { type: 'div', props: { style: { display: 'flex', ...style }, children } };
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .slice(0, 2)
    .join('');
}

const PADDING_X = 72;
const PADDING_TOP = 60;
const PADDING_BOTTOM = 56;
const CONTENT_WIDTH = PREVIEW_WIDTH - 2 * PADDING_X;

/** The card: the site's panel colours, the owner's name, the page title, its description, the role. */
function card(preview: Preview): Node {
  const titleSize = preview.title.length > 48 ? 58 : 68;
  return box(
    {
      // satori sizes boxes without their padding (content-box): the padded card is exactly 1200×630.
      width: CONTENT_WIDTH,
      height: PREVIEW_HEIGHT - PADDING_TOP - PADDING_BOTTOM,
      flexDirection: 'column',
      justifyContent: 'space-between',
      padding: `${PADDING_TOP}px ${PADDING_X}px ${PADDING_BOTTOM}px`,
      backgroundColor: '#0f1b2d',
      backgroundImage: 'linear-gradient(135deg, #0f1b2d 0%, #13284a 60%, #1d3b6e 100%)',
      color: '#eef2f8',
      fontFamily: 'Inter',
    },
    box(
      { alignItems: 'center', gap: 20 },
      box(
        {
          width: 64,
          height: 64,
          borderRadius: 32,
          alignItems: 'center',
          justifyContent: 'center',
          backgroundColor: '#8fb3ff',
          color: '#0f1b2d',
          fontSize: 26,
          fontWeight: 800,
        },
        initials(preview.name),
      ),
      box({ fontSize: 32, fontWeight: 600 }, preview.name),
    ),
    box(
      { flexDirection: 'column', gap: 20, width: CONTENT_WIDTH },
      ...(preview.kicker
        ? [box({ color: '#8fb3ff', fontSize: 24, fontWeight: 600, letterSpacing: 3, textTransform: 'uppercase' }, preview.kicker)]
        : []),
      box({ width: CONTENT_WIDTH, fontSize: titleSize, fontWeight: 800, lineHeight: 1.08, letterSpacing: -1.5 }, shorten(preview.title, 80)),
      box({ color: '#b9c4d6', fontSize: 28, lineHeight: 1.4, width: CONTENT_WIDTH }, shorten(preview.description, 130)),
    ),
    box(
      {
        justifyContent: 'space-between',
        width: CONTENT_WIDTH,
        paddingTop: 24,
        borderTop: '2px solid rgba(255, 255, 255, 0.16)',
        color: '#b9c4d6',
        fontSize: 24,
      },
      box({}, preview.role),
      box({ color: '#eef2f8', fontWeight: 600 }, preview.host),
    ),
  );
}

/** One preview as PNG bytes, 1200×630. */
export async function renderPreview(preview: Preview): Promise<Buffer> {
  if (preview.dir === 'rtl') {
    const layout = { width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT, paddingX: PADDING_X, paddingTop: PADDING_TOP, paddingBottom: PADDING_BOTTOM };
    const text = { ...preview, title: shorten(preview.title, 80), description: shorten(preview.description, 130), initials: initials(preview.name) };
    return renderSvg(rightToLeftSvg(text, layout), PREVIEW_WIDTH);
  }
  const svg = await satori(card(preview) as Parameters<typeof satori>[0], {
    width: PREVIEW_WIDTH,
    height: PREVIEW_HEIGHT,
    fonts: fonts(),
  });
  return new Resvg(svg, { fitTo: { mode: 'width', value: PREVIEW_WIDTH } }).render().asPng();
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Renders the image every HTML file under `clientDir` references; returns the paths written. */
export async function writePreviews(clientDir: string = WEB_CLIENT_DIR): Promise<string[]> {
  const files = htmlFiles(clientDir);
  if (files.length === 0) throw new Error(`No HTML file under ${clientDir}: did the prerender run?`);
  const previews = new Map<string, Preview>();
  const catalogues = new Map<string, Catalogue>();
  for (const locale of LOCALE_CODES) catalogues.set(locale, await loadCatalogue(locale));
  for (const file of files) {
    const html = readFileSync(file, 'utf8');
    const preview = previewOf(html, catalogues.get(pageLanguage(html)) ?? defaultCatalogue);
    if (preview && !previews.has(preview.image)) previews.set(preview.image, preview);
  }
  mkdirSync(path.join(clientDir, 'og'), { recursive: true });
  for (const preview of previews.values()) {
    writeFileSync(path.join(clientDir, preview.image), await renderPreview(preview));
  }
  return [...previews.keys()].sort();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  writePreviews().then(
    (written) => {
      const ms = Math.round(performance.now() - started);
      console.log(`og-images: ${written.length} link-preview images → web/build/client/og/ in ${ms} ms`);
    },
    (error: unknown) => {
      console.error(`og-images failed: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
