/**
 * Text for XML (the sitemap, the Atom feeds, the link previews' SVG): the five characters XML gives a
 * meaning to become character references, so a title or an address can never close an element or an
 * attribute. Safe in element text and in quoted attributes alike.
 */
export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
