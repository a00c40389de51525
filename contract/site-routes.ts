/**
 * The site's page patterns: the one table every list of pages is derived from. The router's routes
 * (web/app/routes.ts), the prerender list and the sitemap (web/app/prerender-paths.ts), the
 * viewer-request function's redirect (infra/cloudfront/viewer-request-loader.ts), the patterns a page
 * view is counted under (contract/vitals.ts VITALS_ROUTES, routeOfPath), the smoke check's pages
 * (FIXED_ROUTES) and the tests' site map (e2e/support/site.ts) all read it; web/app/routes.test.ts
 * holds the router to it. A new page is one more row here, its route module and its summary
 * (web/app/routes/page-summaries.server.ts: its title, description, search text and structured data).
 *
 * Every pattern is the default language's; each other language has the same pages under its prefix
 * (/es/projects/3). The browser reads this module too (page views name a pattern): keep it data only.
 */

/**
 * What a pattern's pages are, which decides where they are listed:
 * - `fixed`: one page per language, prerendered and in the sitemap (unless it only redirects);
 * - `project`: one page per project of the content (web/content/projects.ts), prerendered and in the sitemap;
 * - `post`: one page per post a language has (web/content/posts), prerendered and in the sitemap;
 * - `tag`: one page per tag a language's posts use, prerendered and in the sitemap;
 * - `error`: the error page (prerendered, never in the sitemap) and the not-found page (`*`, any other
 *   address, the fallback the server answers with status 404).
 */
export type PageKind = 'fixed' | 'project' | 'post' | 'tag' | 'error';

export interface SitePage {
  /** React Router's pattern, without the language prefix: `/projects/:projectId`, `*` for any other address. */
  readonly pattern: string;
  readonly kind: PageKind;
  /** Its route module, relative to web/app. */
  readonly module: string;
  /** Where it sends the visitor (HTTP 302 at the edge, in the browser elsewhere); such a page is never indexed. */
  readonly redirectTo?: string;
}

export const SITE_PAGES = [
  { pattern: '/', kind: 'fixed', module: 'routes/index-redirect.tsx', redirectTo: '/home' },
  { pattern: '/home', kind: 'fixed', module: 'routes/home.tsx' },
  { pattern: '/projects', kind: 'fixed', module: 'routes/projects.tsx' },
  { pattern: '/projects/:projectId', kind: 'project', module: 'routes/project-detail.tsx' },
  { pattern: '/blogs', kind: 'fixed', module: 'routes/blogs.tsx' },
  { pattern: '/blogs/:slug', kind: 'post', module: 'routes/post.tsx' },
  { pattern: '/blogs/tags/:tag', kind: 'tag', module: 'routes/post-tag.tsx' },
  { pattern: '/contact', kind: 'fixed', module: 'routes/contact.tsx' },
  { pattern: '/about', kind: 'fixed', module: 'routes/about.tsx' },
  { pattern: '/error', kind: 'error', module: 'routes/error.tsx' },
  { pattern: '/privacy-policy', kind: 'fixed', module: 'routes/privacy-policy.tsx' },
  // Every page by kind: the search control's destination without JavaScript.
  { pattern: '/search', kind: 'fixed', module: 'routes/search.tsx' },
  { pattern: '*', kind: 'error', module: 'routes/not-found.tsx' },
] as const satisfies readonly SitePage[];

export type PagePattern = (typeof SITE_PAGES)[number]['pattern'];

/** The catch-all pattern: every address no other pattern matches (the not-found page). */
export const NOT_FOUND_PATTERN = '*' satisfies PagePattern;

/** The kinds whose pattern has one parameter, filled from the content: a project id, a post's slug, a tag. */
export type ContentKind = 'project' | 'post' | 'tag';

/** The pattern of a content kind (exactly one row each). */
export function patternOf(kind: ContentKind): PagePattern {
  const page = SITE_PAGES.find((p) => p.kind === kind);
  if (!page) throw new Error(`No page pattern of kind ${kind}.`);
  return page.pattern;
}

/** The default language's path of one page of a content kind: ('post', 'hello') → /blogs/hello. */
export function pathOf(kind: ContentKind, value: string | number): string {
  return patternOf(kind).replace(/:[A-Za-z]+$/, String(value));
}

export { encodePath } from './encode-path';

/**
 * The pattern a path (without its language prefix) is a page of: a fixed segment matches itself, a
 * `:parameter` any one segment; no match is `*`. A trailing slash counts as none.
 */
export function patternOfPath(path: string): PagePattern {
  const segments = path.split('/').filter(Boolean);
  for (const { pattern } of SITE_PAGES) {
    if (pattern === NOT_FOUND_PATTERN) continue;
    const parts = pattern.split('/').filter(Boolean);
    if (parts.length === segments.length && parts.every((part, i) => part.startsWith(':') || part === segments[i])) return pattern;
  }
  return NOT_FOUND_PATTERN;
}

// The lists below are built by calls marked pure: a bundle that imports only the table or a function
// (the browser's page-view code) leaves them out.

/** The pages with no parameter, one address each (the not-found page has none of its own). */
export const FIXED_ROUTES: readonly string[] = /* @__PURE__ */ fixedRoutes();
function fixedRoutes(): string[] {
  return SITE_PAGES.filter((p) => p.pattern !== NOT_FOUND_PATTERN && !p.pattern.includes(':')).map((p) => p.pattern);
}

/** The addresses that only redirect (they have no title of their own), and where each leads. */
export const REDIRECTS: Readonly<Record<string, string>> = /* @__PURE__ */ redirects();
function redirects(): Record<string, string> {
  return Object.fromEntries(SITE_PAGES.flatMap((p) => ('redirectTo' in p ? [[p.pattern, p.redirectTo]] : [])));
}

/** The language's root: it only redirects to its home page (at the edge, or in the browser). */
export const REDIRECT_ROUTE = '/' satisfies PagePattern;
export const REDIRECT_TARGET: string = /* @__PURE__ */ redirectTarget(REDIRECT_ROUTE);
function redirectTarget(route: string): string {
  const target = SITE_PAGES.find((p) => p.pattern === route && 'redirectTo' in p);
  if (!target || !('redirectTo' in target)) throw new Error(`The page table has no redirect at ${route}.`);
  return target.redirectTo;
}
