import { LOCALE_CODES } from '../content/locales';
import { projects } from '../content/projects';
import { localizePath } from './i18n/paths';

/**
 * The indexable pages of the default language: the same pages exist in every language (the content
 * check at build time makes sure each language has every project).
 */
export function pagePaths(): string[] {
  return [
    '/home',
    '/projects',
    ...projects.map((p) => `/projects/${p.id}`),
    '/blogs',
    '/contact',
    '/about',
    '/privacy-policy',
  ];
}

/** Pages that belong in search results (and in sitemap.xml), in every language. */
export function indexablePaths(locales: readonly string[] = LOCALE_CODES): string[] {
  return locales.flatMap((locale) => pagePaths().map((path) => localizePath(locale, path)));
}

/** Every page a visitor opens, in every language: the indexable ones, each language's /error and /search (the list of pages). */
export function pagesOfEveryLocale(locales: readonly string[] = LOCALE_CODES): string[] {
  return locales.flatMap((locale) => [...pagePaths(), '/error', '/search'].map((path) => localizePath(locale, path)));
}

/** Every path that gets its own prerendered file at build time; `posts`: each post's path (/es/blogs/hola). */
export function prerenderPaths(locales: readonly string[] = LOCALE_CODES, posts: readonly string[] = []): string[] {
  // A language's root ("/", "/es") only redirects to its home, and /error is a utility page:
  // prerendered, but not listed in the sitemap.
  return [...locales.map((locale) => localizePath(locale, '/')), ...pagesOfEveryLocale(locales), ...posts, ...locales.map((locale) => localizePath(locale, '/feed.xml')), '/robots.txt', '/sitemap.xml'];
}
