/**
 * Draws a link-preview card (1200×630 PNG) from its data (card.ts). Fonts are Inter's .woff files from
 * @fontsource/inter (shipped with the project, no network). satori lays the left-to-right card out as SVG,
 * resvg turns it into PNG; a right-to-left page gets the mirrored card of rtl.server.ts instead, in fonts
 * that have its script. The pages' cards are a prerendered route (routes/og-png.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import { CARD, cardText, type CardText, type Preview } from './card';
import { renderSvg, rightToLeftSvg } from './rtl.server';

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
        ? [
            box(
              {
                color: CARD.accent,
                fontSize: CARD.kicker.size,
                fontWeight: 600,
                letterSpacing: CARD.kicker.letterSpacing,
                textTransform: 'uppercase',
              },
              text.kicker,
            ),
          ]
        : []),
      box(
        { width: CONTENT_WIDTH, fontSize: text.titleSize, fontWeight: 800, lineHeight: CARD.title.lineHeight, letterSpacing: -1.5 },
        text.title,
      ),
      box(
        { color: CARD.muted, fontSize: CARD.description.size, lineHeight: CARD.description.lineHeight, width: CONTENT_WIDTH },
        text.description,
      ),
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
