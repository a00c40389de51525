/**
 * A post's HTML with every reference made absolute against the post's own address, for its feed entry.
 * A feed reader shows an entry away from the site, and resolves a relative reference against the feed's
 * address (RFC 4287 §7 leaves it to `xml:base`, which many readers ignore): a heading's `#anchor`, a
 * footnote link or `/assets/posts/…` would break there. Absolute addresses work in every reader.
 */

/** A start tag (its attribute values double-quoted, as the Markdown pipeline writes them): text is left alone. */
const START_TAG = /<[a-z][^\s/>]*(?:\s+[^\s"'>/=]+(?:="[^"]*")?)*\s*\/?>/gi;
const URL_ATTRIBUTE = /(\s(?:href|src|poster)=")([^"]*)(")/g;
const SRCSET_ATTRIBUTE = /(\ssrcset=")([^"]*)(")/g;
/** A reference with a scheme (https:, mailto:) is already absolute. */
const HAS_SCHEME = /^[a-z][a-z\d+.-]*:/i;
/** Stands in for the origin of a build without a site address (its feed's addresses are then site paths). */
const NO_ORIGIN = 'https://no-site-url.invalid';

function absolute(reference: string, base: string): string {
  const trimmed = reference.trim();
  if (HAS_SCHEME.test(trimmed)) return reference;
  const href = new URL(trimmed.replaceAll('&amp;', '&'), HAS_SCHEME.test(base) ? base : NO_ORIGIN + base).href;
  return (href.startsWith(NO_ORIGIN) ? href.slice(NO_ORIGIN.length) : href).replaceAll('&', '&amp;');
}

function absoluteSrcset(list: string, base: string): string {
  return list
    .split(',')
    .map((candidate) => {
      const [reference = '', ...descriptor] = candidate.trim().split(/\s+/);
      return [absolute(reference, base), ...descriptor].join(' ');
    })
    .join(', ');
}

/**
 * `base`: the post's absolute address, e.g. https://example.com/blogs/hello (its path alone when the
 * site has no address: the references are then site paths).
 */
export function absoluteReferences(html: string, base: string): string {
  return html.replace(START_TAG, (tag) =>
    tag
      .replace(URL_ATTRIBUTE, (_, before: string, reference: string, after: string) => `${before}${absolute(reference, base)}${after}`)
      .replace(SRCSET_ATTRIBUTE, (_, before: string, list: string, after: string) => `${before}${absoluteSrcset(list, base)}${after}`),
  );
}
