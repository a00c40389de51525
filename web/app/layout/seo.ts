import type { MetaDescriptor } from 'react-router';
import { DEFAULT_LOCALE, LOCALE_CODES, LOCALES, type Locale } from '../../content/locales';
import { bundleFromMatches, type LocaleBundle } from '../i18n/locale-context';
import { localizePath } from '../i18n/paths';
import { previewImagePath } from './preview-path';
import { absoluteUrl } from './site-url';
import type { JsonLd } from './structured-data';

export { previewImagePath } from './preview-path';

export { absoluteUrl, resolveSiteUrl, siteUrl } from './site-url';
// The structured data itself is built at build time by the pages' loaders (routes/page-content.ts), so
// its builders never ship to the browser; `meta` writes what the loader built.
/** The meta descriptor that renders one JSON-LD block in the page's head. */
export function jsonLd(data: JsonLd): MetaDescriptor {
  return { 'script:ld+json': data };
}

/** What a page's loader writes of its summary (routes/page-summaries.server.ts) for its head. */
export interface PageHead {
  /** Page title without the owner's name; '' for the name alone. */
  title: string;
  description: string;
  /** Canonical path in the default language, e.g. /projects/3 (the page's language adds its prefix). */
  path: string;
  type?: 'website' | 'article' | 'profile';
  /** Keep the page out of search results (fallback, error pages). */
  noindex?: boolean;
  structuredData?: JsonLd;
}

export interface PageMetaInput extends PageHead {
  /** The page's language (metaBundle). */
  bundle: LocaleBundle;
  /** The path whose preview image the page shows, when it is not `path` (the 404 page). */
  previewPath?: string;
  /** The languages the page exists in, when not every one (a post written in one language only). */
  locales?: readonly string[];
}

/** Size of every link-preview image (the size OpenGraph and X/Twitter cards display best). */
export const PREVIEW_IMAGE = { width: 1200, height: 630 } as const;

/** What a page's `meta` reads: the matched routes (for the language) and the page's loader data. */
export interface PageMetaArgs<Data = unknown> {
  matches?: readonly ({ handle?: unknown } | undefined)[];
  loaderData?: Data;
}

/** The language of a page's `meta`, from its matched routes (see web/app/routes.ts). */
export const metaBundle = (args?: { matches?: readonly ({ handle?: unknown } | undefined)[] }): LocaleBundle =>
  bundleFromMatches(args?.matches);

function ogLocale(locale: string): string {
  return LOCALES[locale as Locale]?.ogLocale ?? locale;
}

/**
 * The same page in every language (hreflang, absolute, the same list on each of them, so each
 * names the others and itself), and x-default: the default language's page.
 */
export function alternateLinks(path: string, locales: readonly string[] = LOCALE_CODES): MetaDescriptor[] {
  // A page in one language alone has no alternates; x-default only when the default language has it.
  if (locales.length < 2) return [];
  return [
    ...LOCALE_CODES.filter((code) => locales.includes(code)).map((code) => ({
      tagName: 'link',
      rel: 'alternate',
      hrefLang: code,
      href: absoluteUrl(localizePath(code, path)),
    })),
    ...(locales.includes(DEFAULT_LOCALE)
      ? [{ tagName: 'link', rel: 'alternate', hrefLang: 'x-default', href: absoluteUrl(localizePath(DEFAULT_LOCALE, path)) }]
      : []),
  ];
}

/** Title, description, OpenGraph, Twitter card, canonical link and language alternates of one route. */
export function pageMeta({
  title,
  description,
  path,
  type = 'website',
  noindex,
  previewPath = path,
  bundle,
  locales,
  structuredData,
}: PageMetaInput): MetaDescriptor[] {
  const { locale } = bundle;
  const { site } = bundle.catalogue;
  const fullTitle = title ? `${title} | ${site.name}` : `${site.name} | ${site.role}`;
  const url = absoluteUrl(localizePath(locale, path));
  const image = absoluteUrl(previewImagePath(localizePath(locale, previewPath)));
  const imageAlt = title ? `${title}: ${site.name}, ${site.role}` : `${site.name}, ${site.role}`;
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: 'description', content: description },
    { property: 'og:title', content: fullTitle },
    { property: 'og:description', content: description },
    { property: 'og:type', content: type },
    { property: 'og:url', content: url },
    { property: 'og:site_name', content: site.name },
    { property: 'og:locale', content: ogLocale(locale) },
    ...LOCALE_CODES.filter((code) => code !== locale).map((code) => ({ property: 'og:locale:alternate', content: ogLocale(code) })),
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
  else tags.push({ tagName: 'link', rel: 'canonical', href: url }, ...alternateLinks(path, locales));
  if (structuredData) tags.push(jsonLd(structuredData));
  return tags;
}

/** The head of a page whose loader wrote its summary as `page`; none when the loader did not run. */
export function summaryMeta(
  args: PageMetaArgs<{ page: PageHead }> | undefined,
  more: Pick<PageMetaInput, 'locales'> = {},
): MetaDescriptor[] {
  const page = args?.loaderData?.page;
  return page ? pageMeta({ ...page, ...more, bundle: metaBundle(args) }) : [];
}
