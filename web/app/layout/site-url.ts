import { env } from '../config/env';
import { withBase } from '../base-path';

export { resolveSiteUrl } from './resolve-site-url';

/**
 * The site's public address without a trailing slash ('' when neither VITE_SITE_URL nor the content
 * names one): checked and merged at build time (config/env-schema.ts, resolve-site-url.ts).
 */
export const siteUrl = env.siteUrl;

/**
 * Absolute address of a site path when the site URL is known, else the path itself; under a preview's
 * base path either way (a preview's canonical links, feed and sitemap name its own pages).
 */
export function absoluteUrl(path: string): string {
  return siteUrl ? `${siteUrl}${withBase(path)}` : withBase(path);
}
