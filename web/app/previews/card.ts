/*
 * The link-preview card (1200×630, og:image) as data: what it shows and the one set of colours and sizes
 * both of its drawings use, the left-to-right one (satori) and its mirror for a right-to-left page (SVG
 * text laid out line by line). Changing a colour or a size here changes both.
 */

/** What one preview card shows. */
export interface Preview {
  /** Path of the image under the client dir, e.g. /og/projects-3.png. */
  image: string;
  kicker: string;
  title: string;
  description: string;
  /** The site's address (VITE_SITE_URL's host), or ''. */
  host: string;
  /** The owner's name and role line, in the page's language. */
  name: string;
  role: string;
  /** The page's direction: a right-to-left page gets the mirrored card. */
  dir?: 'ltr' | 'rtl';
}

/** Sizes in pixels, colours as CSS. */
export const CARD = {
  width: 1200,
  height: 630,
  paddingX: 72,
  paddingTop: 60,
  paddingBottom: 56,
  /** The gap between the kicker, the title and the description, and between the avatar and the name. */
  gap: 20,
  background: { from: '#0f1b2d', via: '#13284a', to: '#1d3b6e' },
  text: '#eef2f8',
  muted: '#b9c4d6',
  accent: '#8fb3ff',
  rule: 'rgba(255, 255, 255, 0.16)',
  avatar: { size: 64, fontSize: 26 },
  name: { size: 32 },
  kicker: { size: 24, letterSpacing: 3 },
  /** A title longer than `longAfter` characters is drawn at `long` rather than `size`. */
  title: { size: 68, long: 58, longAfter: 48, maxChars: 80, lineHeight: 1.08 },
  description: { size: 28, maxChars: 130, lineHeight: 1.4 },
  footer: { size: 24, paddingTop: 24 },
} as const;

/** Shortens text to at most `max` characters at a word boundary, with an ellipsis. */
export function shorten(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, '')}…`;
}

/** The card's texts as both drawings show them: shortened, the avatar's initials, the title's size. */
export type CardText = ReturnType<typeof cardText>;

export function cardText(preview: Preview) {
  return {
    ...preview,
    title: shorten(preview.title, CARD.title.maxChars),
    titleSize: preview.title.length > CARD.title.longAfter ? CARD.title.long : CARD.title.size,
    description: shorten(preview.description, CARD.description.maxChars),
    initials: preview.name
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => word[0]?.toUpperCase() ?? '')
      .slice(0, 2)
      .join(''),
  };
}
