import { loadCatalogue } from '../../content/check';
import type { Catalogue, PageOnlyContent } from '../../content/types';
import { localeOfPath } from './paths';

/**
 * For a route's `loader` (run at build time, when the page is prerendered; never shipped to the
 * browser): the page's own long texts in the language of its path. The data is written into the page
 * (and its .data file for client navigations), so no other page carries it.
 */
export async function pageContent<K extends PageOnlyContent>(request: Request, key: K): Promise<Pick<Catalogue, K>> {
  const catalogue = await loadCatalogue(localeOfPath(new URL(request.url).pathname));
  return { [key]: catalogue[key] } as Pick<Catalogue, K>;
}
