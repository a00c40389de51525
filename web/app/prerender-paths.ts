import { tablePagePaths } from '../../contract/page-paths';
import { pathOf, SITE_PAGES } from '../../contract/site-routes';
import { LOCALE_CODES } from '../content/locales';
import { projects } from '../content/projects';
import { localizePath } from './i18n/paths';
import { previewImagePath } from './layout/preview-path';

/**
 * The indexable pages of the default language (the sitemap's, in every language): each fixed page and
 * each project's, from the site's page table (contract/site-routes.ts).
 */
export function pagePaths(): string[] {
  return tablePagePaths('indexable', projects);
}

/** Pages that belong in search results (and in sitemap.xml), in every language. */
export function indexablePaths(locales: readonly string[] = LOCALE_CODES): string[] {
  return locales.flatMap((locale) => pagePaths().map((path) => localizePath(locale, path)));
}

/** Every page a visitor opens, in every language: the indexable ones, each language's /error and /search (the list of pages). */
export function pagesOfEveryLocale(locales: readonly string[] = LOCALE_CODES): string[] {
  return locales.flatMap((locale) => tablePagePaths('visited', projects).map((path) => localizePath(locale, path)));
}

/** Each post's page and each of its language's tag pages (the index of posts leaves drafts and copies out). */
export function postPaths(
  posts: readonly { locale: string; slug: string; frontMatter: { tags: readonly string[] } }[],
  locales: readonly string[] = LOCALE_CODES,
): string[] {
  return locales.flatMap((locale) => {
    const own = posts.filter((post) => post.locale === locale);
    const tags = [...new Set(own.flatMap((post) => post.frontMatter.tags))];
    return [
      ...own.map((post) => localizePath(locale, pathOf('post', post.slug))),
      ...tags.map((tag) => localizePath(locale, pathOf('tag', tag))),
    ];
  });
}

/** Every path that gets its own prerendered file at build time; `posts`: each post's path (/es/blogs/hola). */
export function prerenderPaths(locales: readonly string[] = LOCALE_CODES, posts: readonly string[] = []): string[] {
  // A language's root ("/", "/es") only redirects to its home, and /error is a utility page:
  // prerendered, but not listed in the sitemap.
  const roots = SITE_PAGES.flatMap((page) => ('redirectTo' in page ? locales.map((locale) => localizePath(locale, page.pattern)) : []));
  const pages = [...pagesOfEveryLocale(locales), ...posts];
  // And each page's preview image (routes/og-png.ts): /og/es-projects-3.png for /es/projects/3.
  return [
    ...roots,
    ...pages,
    ...locales.map((locale) => localizePath(locale, '/feed.xml')),
    '/robots.txt',
    '/sitemap.xml',
    ...new Set(pages.map(previewImagePath)),
  ];
}
