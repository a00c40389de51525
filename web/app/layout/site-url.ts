import { env } from '../config/env';
import { encodePath } from '../../../contract/encode-path';
import { withBase } from '../base-path';

export { resolveSiteUrl } from './resolve-site-url';

/**
 * The site's public address without a trailing slash ('' when neither VITE_SITE_URL nor the content
 * names one): checked and merged at build time (config/env-schema.ts, resolve-site-url.ts).
 */
export const siteUrl = env.siteUrl;

/**
 * Absolute address of a site path when the site URL is known, else the path itself; under a preview's
 * base path either way (a preview's canonical links, feed and sitemap name its own pages), percent-encoded.
 */
export function absoluteUrl(path: string): string {
  // Percent-encoded: a tag of any script reaches sitemaps, feeds and canonical links as a valid URL.
  const encoded = encodePath(path);
  return siteUrl ? `${siteUrl}${withBase(encoded)}` : withBase(encoded);
}
