import { searchModules } from 'virtual:search-indexes';
const pending = new Map<string, Promise<string>>();

/**
 * One language's index (MiniSearch's JSON), fetched once (again after a failure, which the caller shows):
 * the control starts it on hover or focus, so the index is often there by the time the dialog opens.
 */
export function loadLanguageSearch(locale: string): Promise<string> {
  let load = pending.get(locale);
  if (!load) {
    const module = searchModules[locale];
    load = module ? module().then((loaded) => loaded.index) : Promise.reject(new Error(`No search index for the language "${locale}".`));
    load.catch(() => pending.delete(locale));
    pending.set(locale, load);
  }
  return load;
}
