import { pathOf, SITE_PAGES } from '../../contract/site-routes';
import { LOCALE_CODES } from '../content/locales';
import { projects } from '../content/projects';
import { localizePath } from './i18n/paths';

/**
 * The default language's pages of the fixed and project kinds (contract/site-routes.ts), in the table's
 * order, each project's page at its place: the same pages exist in every language (the content check at
 * build time makes sure each language has every project). `indexable`: only those that belong in search
 * results and the sitemap (not a page that only redirects, nor the error page); otherwise the error page
 * too. Posts and tags are each language's own: see the post routes.
 */
function pagesOfTable(indexable: boolean): string[] {
  return SITE_PAGES.flatMap((page): string[] => {
    if (page.kind === 'project') return projects.map((p) => pathOf('project', p.id));
    if ('redirectTo' in page || page.pattern === '*') return [];
    if (page.kind === 'fixed' || (page.kind === 'error' && !indexable)) return [page.pattern];
    return [];
  });
}

/**
 * The indexable pages of the default language (the sitemap's, in every language): each fixed page and
 * each project's.
 */
export function pagePaths(): string[] {
  return pagesOfTable(true);
}

/** Pages that belong in search results (and in sitemap.xml), in every language. */
export function indexablePaths(locales: readonly string[] = LOCALE_CODES): string[] {
  return locales.flatMap((locale) => pagePaths().map((path) => localizePath(locale, path)));
}

/** Every page a visitor opens, in every language: the indexable ones and each language's /error. */
export function pagesOfEveryLocale(locales: readonly string[] = LOCALE_CODES): string[] {
  return locales.flatMap((locale) => pagesOfTable(false).map((path) => localizePath(locale, path)));
}

/** Every path that gets its own prerendered file at build time; `posts`: each post's path (/es/blogs/hola). */
export function prerenderPaths(locales: readonly string[] = LOCALE_CODES, posts: readonly string[] = []): string[] {
  // A language's root ("/", "/es") only redirects to its home, and /error is a utility page:
  // prerendered, but not listed in the sitemap.
  const roots = SITE_PAGES.flatMap((page) => ('redirectTo' in page ? locales.map((locale) => localizePath(locale, page.pattern)) : []));
  return [...roots, ...pagesOfEveryLocale(locales), ...posts, ...locales.map((locale) => localizePath(locale, '/feed.xml')), '/robots.txt', '/sitemap.xml'];
}
