import { LOCALE_CODES } from '../../content/locales';
import { searchDocuments } from './documents';
import { buildIndex } from './engine';

/*
 * Every language's search index, made when this module is evaluated (top-level await): the build's
 * plugin (scripts/search-index.ts) runs it once through Vite's module runner, which closes as soon as
 * the module has been evaluated, so nothing here may load a module later.
 */
export const indexes: Readonly<Record<string, string>> = Object.fromEntries(
  await Promise.all(LOCALE_CODES.map(async (locale) => [locale, buildIndex(await searchDocuments(locale))] as const)),
);
