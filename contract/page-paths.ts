/**
 * The default language's addresses of the site's page table (contract/site-routes.ts) that do not come
 * from posts: each fixed page, each project's page (the projects given: web/content/projects.ts) and the
 * error page. The prerender list and the sitemap (web/app/prerender-paths.ts), the stack's routing test
 * and the browser tests' site map (e2e/support/site.ts) read them.
 */
import { pathOf, SITE_PAGES } from './site-routes';

/**
 * In the table's order, each project's page at its pattern's place. `indexable`: only the pages that
 * belong in search results and the sitemap (not one that only redirects, nor the error page);
 * `visited`: those and the error page, every page a visitor opens at its own address.
 */
export function tablePagePaths(which: 'indexable' | 'visited', projects: readonly { id: number }[]): string[] {
  return SITE_PAGES.flatMap((page): string[] => {
    if (page.kind === 'project') return projects.map((project) => pathOf('project', project.id));
    if ('redirectTo' in page || page.pattern.includes('*') || page.pattern.includes(':')) return [];
    if (page.kind === 'fixed' || (page.kind === 'error' && which === 'visited')) return [page.pattern];
    return [];
  });
}
