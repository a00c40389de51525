import { DEFAULT_LOCALE } from '../../content/locales';
import type { SearchCopy } from '../../content/types';

/*
 * Every language's search strings, in the search dialog's own chunk (as the fun facts are in the fun-fact
 * modal's): no page's first load carries them, and the dialog can say so in the page's language when
 * the index itself cannot be fetched. A language added by copying a content folder brings its search.ts.
 */
const COPIES = import.meta.glob<SearchCopy>(['../../content/search.ts', '../../content/*/search.ts'], { eager: true, import: 'search' });

export function searchCopyOf(locale: string): SearchCopy {
  const file = locale === DEFAULT_LOCALE ? '../../content/search.ts' : `../../content/${locale}/search.ts`;
  const copy = COPIES[file];
  if (!copy)
    throw new Error(`No search strings for "${locale}": web/content/${locale === DEFAULT_LOCALE ? '' : `${locale}/`}search.ts is missing.`);
  return copy;
}
