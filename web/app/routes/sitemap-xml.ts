import { pathOf } from '../../../contract/site-routes';
import { DEFAULT_LOCALE, LOCALE_CODES } from '../../content/locales';
import { localizePath } from '../i18n/paths';
import { escapeXml } from '../xml';
import { pagePaths } from '../prerender-paths';
import { absoluteUrl } from '../layout/seo';
import { allPosts } from '../posts/posts.server';

/**
 * The sitemap: every indexable page in every language, each with its alternates (every language and
 * x-default, as the pages' own hreflang links), built from the same list as the prerender.
 */
export interface SitemapPost {
  slug: string;
  /** The languages the post is written in (its alternates). */
  locales: readonly string[];
}

/** A tag's page (/blogs/tags/{tag}) in one language: each language lists the tags its own posts use. */
export interface SitemapTag {
  locale: string;
  tag: string;
}

export function sitemapXml(
  paths: readonly string[] = pagePaths(),
  locales: readonly string[] = LOCALE_CODES,
  posts: readonly SitemapPost[] = [],
  tags: readonly SitemapTag[] = [],
): string {
  const link = (hreflang: string, path: string) =>
    `    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(absoluteUrl(path))}"/>`;
  /** A page's entry in each of its languages; with more than one, each names them all (and x-default). */
  const entries = (path: string, written: readonly string[]) => {
    const alternates =
      written.length > 1
        ? [
            ...written.map((code) => link(code, localizePath(code, path))),
            ...(written.includes(DEFAULT_LOCALE) ? [link('x-default', localizePath(DEFAULT_LOCALE, path))] : []),
          ]
        : [];
    return written.map((locale) =>
      [`  <url>`, `    <loc>${escapeXml(absoluteUrl(localizePath(locale, path)))}</loc>`, ...alternates, `  </url>`].join('\n'),
    );
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...paths.flatMap((path) => entries(path, locales)),
    // A post: one entry per language it is written in, alternates only among those.
    ...posts.flatMap(({ slug, locales: written }) => entries(pathOf('post', slug), written)),
    // A tag's page has no alternates (its page links none: another language's posts with the tag differ).
    ...tags.flatMap(({ locale, tag }) => entries(pathOf('tag', tag), [locale])),
    '</urlset>',
    '',
  ].join('\n');
}

export async function loader() {
  const posts = await allPosts();
  const slugs = [...new Set(posts.map((post) => post.slug))];
  const written = slugs.map((slug) => ({
    slug,
    locales: LOCALE_CODES.filter((code) => posts.some((p) => p.slug === slug && p.locale === code)),
  }));
  const tags = LOCALE_CODES.flatMap((locale) =>
    [...new Set(posts.filter((post) => post.locale === locale).flatMap((post) => post.frontMatter.tags))].map((tag) => ({ locale, tag })),
  );
  return new Response(sitemapXml(pagePaths(), LOCALE_CODES, written, tags), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
  });
}
