import { searchModules } from 'virtual:search-indexes';
import type { LanguageSearch } from './engine';

const pending = new Map<string, Promise<LanguageSearch>>();
const ready = new Map<string, LanguageSearch>();

/** The language's search if it has already arrived and loaded (the dialog then shows results from its first render). */
export function loadedSearch(locale: string): LanguageSearch | undefined {
  return ready.get(locale);
}

/**
 * One language's search, ready to answer: the engine (MiniSearch, a chunk of its own) and the language's
 * index, fetched together in one go (no request waits for another), and the index loaded as soon as
 * both have arrived, whether or not the dialog is showing yet: the control starts it on hover, focus or
 * the click itself, so the dialog's own small chunk shows the field while these are still on the way.
 * Once per language; again after a failure, which the caller shows.
 */
export function loadLanguageSearch(locale: string): Promise<LanguageSearch> {
  let load = pending.get(locale);
  if (!load) {
    const module = searchModules[locale];
    load = module
      ? Promise.all([import('./engine'), module()]).then(([engine, loaded]) => {
          const search = engine.languageSearch(loaded.index);
          ready.set(locale, search);
          return search;
        })
      : Promise.reject(new Error(`No search index for the language "${locale}".`));
    load.catch(() => pending.delete(locale));
    pending.set(locale, load);
  }
  return load;
}
