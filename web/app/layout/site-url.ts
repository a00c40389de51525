import { owner } from '../../content/site';
import { env } from '../config/env';
import { withBase } from '../base-path';

/**
 * The site's public address without a trailing slash. VITE_SITE_URL (a build variable) overrides
 * the content's siteUrl so one build can target a staging or custom domain.
 */
export function resolveSiteUrl(override: string | undefined, fallback: string): string {
  const raw = (override ?? '').trim() || fallback.trim();
  if (raw === '') return '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`Site URL must be an absolute http(s) address such as https://example.com, got "${raw}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`Site URL must use http or https, got "${raw}".`);
  }
  if (url.search || url.hash) throw new Error(`Site URL must not have a query or fragment, got "${raw}".`);
  return url.href.replace(/\/+$/, '');
}

export const siteUrl = resolveSiteUrl(env.siteUrl, owner.siteUrl);

/**
 * Absolute address of a site path when the site URL is known, else the path itself; under a preview's
 * base path either way (a preview's canonical links, feed and sitemap name its own pages).
 */
export function absoluteUrl(path: string): string {
  return siteUrl ? `${siteUrl}${withBase(path)}` : withBase(path);
}
