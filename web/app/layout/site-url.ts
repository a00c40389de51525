import { env } from '../config/env';

export { resolveSiteUrl } from './resolve-site-url';

/**
 * The site's public address without a trailing slash ('' when neither VITE_SITE_URL nor the content
 * names one): checked and merged at build time (config/env-schema.ts, resolve-site-url.ts).
 */
export const siteUrl = env.siteUrl;

/** Absolute address of a path when the site URL is known, else the path itself. */
export function absoluteUrl(path: string): string {
  return siteUrl ? `${siteUrl}${path}` : path;
}
