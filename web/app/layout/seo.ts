import type { MetaDescriptor } from 'react-router';
import { site } from '../../content/site';
import { env } from '../config/env';

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

export const siteUrl = resolveSiteUrl(env.siteUrl, site.siteUrl);

/** Absolute address of a path when the site URL is known, else the path itself. */
export function absoluteUrl(path: string): string {
  return siteUrl ? `${siteUrl}${path}` : path;
}

export interface PageMetaInput {
  /** Page title without the owner's name; '' for the name alone. */
  title: string;
  description: string;
  /** Canonical path, e.g. /projects/3. */
  path: string;
  type?: 'website' | 'article' | 'profile';
  /** Keep the page out of search results (fallback, error pages). */
  noindex?: boolean;
}

/** Title, description, OpenGraph, Twitter card and canonical link of one route. */
export function pageMeta({ title, description, path, type = 'website', noindex }: PageMetaInput): MetaDescriptor[] {
  const fullTitle = title ? `${title} | ${site.name}` : `${site.name} | ${site.role}`;
  const url = absoluteUrl(path);
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: 'description', content: description },
    { property: 'og:title', content: fullTitle },
    { property: 'og:description', content: description },
    { property: 'og:type', content: type },
    { property: 'og:url', content: url },
    { property: 'og:site_name', content: site.name },
    { property: 'og:image', content: absoluteUrl(site.ogImage) },
    { property: 'og:image:width', content: '1200' },
    { property: 'og:image:height', content: '630' },
    { name: 'twitter:card', content: 'summary_large_image' },
  ];
  if (noindex) tags.push({ name: 'robots', content: 'noindex' });
  else tags.push({ tagName: 'link', rel: 'canonical', href: url });
  return tags;
}
