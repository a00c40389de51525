import type { MetaDescriptor } from 'react-router';
import { site } from '../../content/site';
import { absoluteUrl } from './site-url';

export { absoluteUrl, resolveSiteUrl, siteUrl } from './site-url';
// Re-exported so pages get their structured data from the same module as their other head tags
// (one shared chunk in the build, nothing extra to fetch on the pages that use it).
export { jsonLd, personJsonLd, projectJsonLd } from './structured-data';

export interface PageMetaInput {
  /** Page title without the owner's name; '' for the name alone. */
  title: string;
  description: string;
  /** Canonical path, e.g. /projects/3. */
  path: string;
  type?: 'website' | 'article' | 'profile';
  /** Keep the page out of search results (fallback, error pages). */
  noindex?: boolean;
  /** The path whose preview image the page shows, when it is not `path` (the 404 page). */
  previewPath?: string;
}

/** Size of every link-preview image (the size OpenGraph and X/Twitter cards display best). */
export const PREVIEW_IMAGE = { width: 1200, height: 630 } as const;

/**
 * Where the preview image of a path lives: /og/projects-3.png for /projects/3, /og/home.png for
 * /home. The build (scripts/og-images.ts) renders one for every og:image the pages reference.
 */
export function previewImagePath(path: string): string {
  const slug = path.replace(/^\/+|\/+$/g, '').replace(/[^a-z0-9]+/gi, '-').toLowerCase() || 'home';
  return `/og/${slug}.png`;
}

/** Title, description, OpenGraph, Twitter card and canonical link of one route. */
export function pageMeta({
  title,
  description,
  path,
  type = 'website',
  noindex,
  previewPath = path,
}: PageMetaInput): MetaDescriptor[] {
  const fullTitle = title ? `${title} | ${site.name}` : `${site.name} | ${site.role}`;
  const url = absoluteUrl(path);
  const image = absoluteUrl(previewImagePath(previewPath));
  const imageAlt = title ? `${title}: ${site.name}, ${site.role}` : `${site.name}, ${site.role}`;
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: 'description', content: description },
    { property: 'og:title', content: fullTitle },
    { property: 'og:description', content: description },
    { property: 'og:type', content: type },
    { property: 'og:url', content: url },
    { property: 'og:site_name', content: site.name },
    { property: 'og:image', content: image },
    { property: 'og:image:type', content: 'image/png' },
    { property: 'og:image:width', content: String(PREVIEW_IMAGE.width) },
    { property: 'og:image:height', content: String(PREVIEW_IMAGE.height) },
    { property: 'og:image:alt', content: imageAlt },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: fullTitle },
    { name: 'twitter:description', content: description },
    { name: 'twitter:image', content: image },
    { name: 'twitter:image:alt', content: imageAlt },
  ];
  if (noindex) tags.push({ name: 'robots', content: 'noindex' });
  else tags.push({ tagName: 'link', rel: 'canonical', href: url });
  return tags;
}
