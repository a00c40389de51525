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
import { CARD, cardText, type CardText, type Preview } from '../web/app/previews/card';

export { shorten, type Preview } from '../web/app/previews/card';

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

/**
 * What the preview of one prerendered page shows, in the page's language (`catalogue`), or
 * undefined when it names no /og/ image.
 */
export function previewOf(html: string, catalogue: Catalogue = defaultCatalogue): Preview | undefined {
  const { site, pages, ui } = catalogue;
  const imageUrl = metaContent(html, 'og:image');
  if (!imageUrl) return undefined;
  const image = new URL(imageUrl, 'http://localhost').pathname;
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

const CONTENT_WIDTH = CARD.width - 2 * CARD.paddingX;

/** The card: the site's panel colours, the owner's name, the page title, its description, the role. */
function card(text: CardText): Node {
  const { background: bg } = CARD;
  return box(
    {
      // satori sizes boxes without their padding (content-box): the padded card is exactly 1200×630.
      width: CONTENT_WIDTH,
      height: CARD.height - CARD.paddingTop - CARD.paddingBottom,
      flexDirection: 'column',
      justifyContent: 'space-between',
      padding: `${CARD.paddingTop}px ${CARD.paddingX}px ${CARD.paddingBottom}px`,
      backgroundColor: bg.from,
      backgroundImage: `linear-gradient(135deg, ${bg.from} 0%, ${bg.via} 60%, ${bg.to} 100%)`,
      color: CARD.text,
      fontFamily: 'Inter',
    },
    box(
      { alignItems: 'center', gap: CARD.gap },
      box(
        {
          width: CARD.avatar.size,
          height: CARD.avatar.size,
          borderRadius: CARD.avatar.size / 2,
          alignItems: 'center',
          justifyContent: 'center',
          backgroundColor: CARD.accent,
          color: bg.from,
          fontSize: CARD.avatar.fontSize,
          fontWeight: 800,
        },
        text.initials,
      ),
      box({ fontSize: CARD.name.size, fontWeight: 600 }, text.name),
    ),
    box(
      { flexDirection: 'column', gap: CARD.gap, width: CONTENT_WIDTH },
      ...(text.kicker
        ? [box({ color: CARD.accent, fontSize: CARD.kicker.size, fontWeight: 600, letterSpacing: CARD.kicker.letterSpacing, textTransform: 'uppercase' }, text.kicker)]
        : []),
      box({ width: CONTENT_WIDTH, fontSize: text.titleSize, fontWeight: 800, lineHeight: CARD.title.lineHeight, letterSpacing: -1.5 }, text.title),
      box({ color: CARD.muted, fontSize: CARD.description.size, lineHeight: CARD.description.lineHeight, width: CONTENT_WIDTH }, text.description),
    ),
    box(
      {
        justifyContent: 'space-between',
        width: CONTENT_WIDTH,
        paddingTop: CARD.footer.paddingTop,
        borderTop: `2px solid ${CARD.rule}`,
        color: CARD.muted,
        fontSize: CARD.footer.size,
      },
      box({}, text.role),
      box({ color: CARD.text, fontWeight: 600 }, text.host),
    ),
  );
}

/** One preview as PNG bytes, 1200×630. */
export async function renderPreview(preview: Preview): Promise<Buffer> {
  const text = cardText(preview);
  if (preview.dir === 'rtl') return renderSvg(rightToLeftSvg(text), CARD.width);
  const svg = await satori(card(text) as Parameters<typeof satori>[0], { width: CARD.width, height: CARD.height, fonts: fonts() });
  return new Resvg(svg, { fitTo: { mode: 'width', value: CARD.width } }).render().asPng();
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
