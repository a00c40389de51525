/**
 * The link-preview card of a right-to-left page (Arabic, Hebrew, Persian, Urdu), drawn as SVG text for
 * resvg. satori (which draws the left-to-right cards, render.server.ts) neither orders right-to-left text
 * nor shapes Arabic (https://github.com/vercel/satori/issues/74), and Inter has no Arabic or Hebrew
 * glyphs. resvg shapes each run with rustybuzz (joined Arabic letters) but lays a line out left to
 * right, so the line order is done here: the words of a line are placed from the right edge leftwards,
 * and a stretch of left-to-right words (a Latin name, "React Router", an address) stays in its own
 * order inside the line. Each run gets the font of its script: Noto Sans Arabic, Noto Sans Hebrew or
 * Inter (all WOFF from @fontsource, turned into the plain OpenType resvg reads).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { CARD, type CardText } from './card';
import { woffToSfnt } from './woff';
import { escapeXml } from '../xml';

const require = createRequire(import.meta.url);

const FAMILIES = { arabic: 'Noto Sans Arabic', hebrew: 'Noto Sans Hebrew', latin: 'Inter' } as const;
type Script = keyof typeof FAMILIES;
export type Weight = 400 | 600 | 800;
// One weight per family: resvg-js 2.6 takes the first face of a family it was given whatever
// font-weight asks (measured: Inter at 400 and 800 drew the same width), so the card's weights are
// all drawn regular, rather than all as the heaviest.
const WEIGHTS = [400] as const;

/** The card's fonts, every script and weight, as OpenType (file name → bytes): converted once per process. */
let fontsCache: Map<string, Buffer> | undefined;
function fonts(): Map<string, Buffer> {
  fontsCache ??= new Map(
    WEIGHTS.flatMap((w) => [
      `@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-${w}-normal.woff`,
      `@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-${w}-normal.woff`,
      `@fontsource/inter/files/inter-latin-${w}-normal.woff`,
      `@fontsource/inter/files/inter-latin-ext-${w}-normal.woff`,
    ]).map((source) => [path.basename(source).replace(/\.woff$/, '.otf'), woffToSfnt(readFileSync(require.resolve(source)))]),
  );
  return fontsCache;
}

/** The folder of the font files: one name per process, on disk only while a drawing is under way. */
let fontDir: string | undefined;
const fontFolder = () => (fontDir ??= path.join(tmpdir(), `og-fonts-${randomUUID()}`));

/** The font files resvg is given (every script and weight): they exist while `withFontFiles` runs. */
export function fontFiles(): string[] {
  return [...fonts().keys()].map((name) => path.join(fontFolder(), name));
}

let drawing = 0;
/**
 * Runs `draw` with the font files on disk: resvg-js reads fonts from files only, when a Resvg is made.
 * The outermost drawing writes them and removes them when it ends, so neither a build nor a test
 * leaves them behind (a process's exit is no moment to count on: a test worker is stopped, not ended).
 */
function withFontFiles<T>(draw: () => T): T {
  const dir = fontFolder();
  try {
    if (drawing++ === 0) {
      mkdirSync(dir, { mode: 0o700 });
      for (const [name, bytes] of fonts()) writeFileSync(path.join(dir, name), bytes);
    }
    return draw();
  } finally {
    if (--drawing === 0) rmSync(dir, { recursive: true, force: true });
  }
}

/** `width`: drawn scaled to it. */
function render(svg: string, files = fontFiles(), width?: number): Resvg {
  const fitTo = width === undefined ? undefined : ({ mode: 'width', value: width } as const);
  return withFontFiles(
    () => new Resvg(svg, { fitTo, font: { fontFiles: files, loadSystemFonts: false, defaultFontFamily: FAMILIES.latin } }),
  );
}

const RTL_CHAR = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;
const HEBREW_CHAR = /[\u0590-\u05ff\ufb1d-\ufb4f]/u;
const LTR_CHAR = /[\p{L}\p{N}]/u;

function scriptOf(text: string): Script {
  if (HEBREW_CHAR.test(text)) return 'hebrew';
  return RTL_CHAR.test(text) ? 'arabic' : 'latin';
}

function textElement(
  text: string,
  x: number,
  y: number,
  size: number,
  weight: Weight,
  fill: string,
  anchor: 'start' | 'end' | 'middle',
): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" font-family="${FAMILIES[scriptOf(text)]}" font-size="${size}" font-weight="${weight}" fill="${fill}" text-anchor="${anchor}" xml:space="preserve">${escapeXml(text)}</text>`;
}

const widths = new Map<string, number>();
/** The advance of a run as resvg draws it (its ink box, measured once per run, size and weight). */
function measure(text: string, size: number, weight: Weight): number {
  const key = `${size}/${weight}/${text}`;
  let width = widths.get(key);
  if (width === undefined) {
    const box = render(
      `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="400">${textElement(text, 10, 200, size, weight, '#000', 'start')}</svg>`,
    ).getBBox();
    width = box ? box.width : 0;
    widths.set(key, width);
  }
  return width;
}

/** A unit of a line in visual order: one run drawn by one `<text>`. */
interface Run {
  text: string;
  rtl: boolean;
}

/**
 * Splits a line into runs: each word into its right-to-left letters, its left-to-right letters and
 * the punctuation around them; consecutive left-to-right words (with the spaces and neutral marks
 * between them) join into one run, which keeps its own order.
 */
export function runsOf(line: string): { runs: Run[]; spaceAfter: boolean[] } {
  const pieces: { text: string; kind: 'rtl' | 'ltr' | 'neutral'; spaceAfter: boolean }[] = [];
  const words = line.split(' ').filter(Boolean);
  words.forEach((word, index) => {
    // Letters of a right-to-left script (with their marks and the tatweel); left-to-right letters and
    // digits (with the punctuation inside an address, a version, a name); anything else is neutral.
    const parts = word.match(
      /[\p{Script=Arabic}\p{Script=Hebrew}\u0640][\p{Script=Arabic}\p{Script=Hebrew}\u0640\p{M}]*|[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:[@.:/_'’+#-]+[\p{L}\p{N}][\p{L}\p{N}\p{M}]*)*|./gu,
    ) ?? [word];
    parts.forEach((text, i) => {
      const kind =
        /[\p{Script=Arabic}\p{Script=Hebrew}]/u.test(text) && RTL_CHAR.test(text) ? 'rtl' : LTR_CHAR.test(text) ? 'ltr' : 'neutral';
      pieces.push({ text, kind, spaceAfter: i === parts.length - 1 && index < words.length - 1 });
    });
  });
  // A neutral between two left-to-right pieces reads with them; any other goes with the line (right to left).
  const runs: Run[] = [];
  const spaceAfter: boolean[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const prevLtr = runs.length > 0 && !runs[runs.length - 1]!.rtl;
    const nextStrong = pieces.slice(i + 1).find((p) => p.kind !== 'neutral');
    const joinsLtr = piece.kind === 'ltr' || (piece.kind === 'neutral' && prevLtr && nextStrong?.kind === 'ltr');
    if (joinsLtr && prevLtr) {
      runs[runs.length - 1]!.text += `${spaceAfter[spaceAfter.length - 1] ? ' ' : ''}${piece.text}`;
      spaceAfter[spaceAfter.length - 1] = piece.spaceAfter;
    } else {
      runs.push({ text: piece.text, rtl: !joinsLtr });
      spaceAfter.push(piece.spaceAfter);
    }
  }
  return { runs, spaceAfter };
}

/** Breaks text into lines no wider than `width`, at spaces, at most `maxLines` (the last one shortened with …). */
export function wrap(text: string, width: number, size: number, weight: Weight, maxLines: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && lineWidth(candidate, size, weight) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1]!;
  while (last.includes(' ') && lineWidth(`${last}…`, size, weight) > width) last = last.slice(0, last.lastIndexOf(' '));
  kept[maxLines - 1] = `${last.replace(/[\s,.;:،؛–—-]+$/u, '')}…`;
  return kept;
}

function lineWidth(line: string, size: number, weight: Weight): number {
  const { runs, spaceAfter } = runsOf(line);
  const space = size * 0.26;
  return runs.reduce((sum, run, i) => sum + measure(run.text, size, weight) + (spaceAfter[i] ? space : 0), 0);
}

/** Where each run of a right-to-left line goes: from `right` leftwards, in reading order. */
export function placeLine(line: string, right: number, size: number, weight: Weight): { text: string; x: number }[] {
  const { runs, spaceAfter } = runsOf(line);
  const space = size * 0.26;
  let x = right;
  return runs.map((run, i) => {
    const placed = { text: run.text, x };
    x -= measure(run.text, size, weight) + (spaceAfter[i] ? space : 0);
    return placed;
  });
}

function drawLine(line: string, right: number, y: number, size: number, weight: Weight, fill: string): string {
  return placeLine(line, right, size, weight)
    .map((run) => textElement(run.text, run.x, y, size, weight, fill, 'end'))
    .join('');
}

/** The card of render.server.ts mirrored: name and avatar on the right, the address on the left. */
export const rightToLeftSvg = (card: CardText): string => withFontFiles(() => mirroredCard(card));

function mirroredCard(card: CardText): string {
  const { width, height, paddingX, paddingTop, paddingBottom, gap } = CARD;
  const right = width - paddingX;
  const contentWidth = width - 2 * paddingX;
  const avatar = CARD.avatar.size / 2;
  const parts: string[] = [];
  // Top row: the avatar at the right edge, the name to its left.
  parts.push(`<circle cx="${right - avatar}" cy="${paddingTop + avatar}" r="${avatar}" fill="${CARD.accent}"/>`);
  parts.push(
    textElement(card.initials, right - avatar, paddingTop + avatar + 9, CARD.avatar.fontSize, 800, CARD.background.from, 'middle'),
  );
  parts.push(drawLine(card.name, right - CARD.avatar.size - gap, paddingTop + 43, CARD.name.size, 600, CARD.text));
  // Bottom row: a rule, the role on the right, the site's address on the left.
  const footer = CARD.footer.size;
  const baseline = height - paddingBottom - 6;
  const rule = baseline - CARD.footer.paddingTop - 30;
  parts.push(`<rect x="${paddingX}" y="${rule}" width="${contentWidth}" height="2" fill="${CARD.rule}"/>`);
  parts.push(drawLine(card.role, right, baseline, footer, 400, CARD.muted));
  if (card.host) parts.push(textElement(card.host, paddingX, baseline, footer, 600, CARD.text, 'start'));
  // The middle: kicker, title, description, centred between the two rows.
  const { titleSize } = card;
  const descriptionSize = CARD.description.size;
  const title = wrap(card.title, contentWidth, titleSize, 800, 2);
  const description = wrap(card.description, contentWidth, descriptionSize, 400, 2);
  const kickerHeight = card.kicker ? CARD.kicker.size * 1.3 + gap : 0;
  const titleLine = titleSize * 1.15;
  const descriptionLine = descriptionSize * CARD.description.lineHeight;
  const blockHeight = kickerHeight + title.length * titleLine + gap + description.length * descriptionLine;
  const top = paddingTop + CARD.avatar.size + (rule - (paddingTop + CARD.avatar.size) - blockHeight) / 2;
  let y = top;
  if (card.kicker) {
    parts.push(drawLine(card.kicker, right, y + CARD.kicker.size, CARD.kicker.size, 600, CARD.accent));
    y += kickerHeight;
  }
  for (const line of title) {
    parts.push(drawLine(line, right, y + titleSize * 0.95, titleSize, 800, CARD.text));
    y += titleLine;
  }
  y += gap;
  for (const line of description) {
    parts.push(drawLine(line, right, y + descriptionSize * 1.05, descriptionSize, 400, CARD.muted));
    y += descriptionLine;
  }
  const bg = CARD.background;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${bg.from}"/><stop offset="0.6" stop-color="${bg.via}"/><stop offset="1" stop-color="${bg.to}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>${parts.join('')}</svg>`
  );
}

export function renderSvg(svg: string, width: number): Buffer {
  return render(svg, fontFiles(), width).render().asPng();
}

/**
 * The characters of `text` the card's fonts cannot draw: each is drawn alone and compared with the
 * drawing of a character no font has, and with nothing drawn. `files` defaults to the
 * card's fonts; a test passes Inter alone to see Arabic reported.
 */
export function missingGlyphs(text: string, files = fontFiles()): string[] {
  return withFontFiles(() => missingGlyphsIn(text, files));
}

function missingGlyphsIn(text: string, files: string[]): string[] {
  // How much ink a character leaves drawn alone (a right-to-left run may sit a pixel apart, so the
  // amount is compared, not the pixels).
  const draw = (ch: string) => {
    const pixels = render(
      `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120"><rect width="160" height="120" fill="#fff"/>${textElement(ch, 20, 90, 72, 400, '#000', 'start')}</svg>`,
      files,
    ).render().pixels;
    let ink = 0;
    for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! < 128) ink++;
    return ink;
  };
  // A character without a glyph comes out as the missing-glyph box, or as nothing at all.
  const tofu = new Set([draw('\u{10fffd}'), 0]);
  const chars = [...new Set([...text].filter((ch) => /[\p{L}\p{N}\p{P}\p{S}]/u.test(ch)))];
  return chars.filter((ch) => tofu.has(draw(ch)));
}
