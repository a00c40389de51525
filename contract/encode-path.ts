/**
 * Percent-encoding of site paths, apart from the page table (site-routes.ts) so that the browser's shell,
 * which writes absolute addresses (web/app/layout/site-url.ts), does not carry the table.
 */

/**
 * A path as an address writes it: every character outside the URL's own ASCII set percent-encoded as
 * UTF-8 (a tag in Hebrew, `/blogs/tags/רשימות` → `/blogs/tags/%D7%A8…`), what is encoded already left
 * as it is. Sitemaps and feeds must carry encoded addresses (RFC 3986); a page's prerendered file keeps
 * the path as written, which is what a server finds after decoding the request.
 */
export function encodePath(path: string): string {
  return path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%?#]/gu, (char) => encodeURIComponent(char));
}
