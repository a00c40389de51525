import { type RouteConfig, type RouteConfigEntry, index, layout, prefix, route } from '@react-router/dev/routes';
import { DEFAULT_LOCALE, LOCALE_CODES, type Locale } from '../content/locales';
import { NOT_FOUND_PATTERN, type PageKind, SITE_PAGES } from '../../contract/site-routes';
import { indexPosts, readPostFiles } from '../../contract/post-index';

/**
 * What the index of posts gives each language (a draft only in `npm run dev`): its post route exists when
 * it has a post, its tag pages' route when one of them has a tag, since a prerendered site has no page for
 * a slug it did not write (React Router refuses a loader route with no prerendered path). A post with a
 * mistake still counts, so its route exists: the mistake is the posts check's to report, clearly and last
 * (scripts/post-files.ts; the post's own page in `npm run dev`).
 */
function postsOf(locale: Locale, root: string): { tags: readonly string[] }[] {
  const { posts, broken } = indexPosts(readPostFiles(root).files, { locales: LOCALE_CODES });
  return [
    ...posts.filter((post) => post.locale === locale).map((post) => post.frontMatter),
    ...broken.filter((post) => post.locale === locale).map(() => ({ tags: [] })),
  ];
}

/**
 * The pages of one language (the site's page table, contract/site-routes.ts), under that language's
 * layout route: the language's index module in
 * web/content (a route module with only a `handle`, which carries its strings: a page loads its own
 * language's strings and no other). The default language keeps the route ids of the files; every other
 * language reuses the same route modules under its prefix, with ids of its own (es/routes/home).
 */
function localePages(locale: Locale, root: string): RouteConfigEntry[] {
  const posts = postsOf(locale, root);
  // Only the kinds of page this language has: a post route needs a post, a tag route a tagged post.
  const has: Record<PageKind, boolean> = {
    fixed: true,
    project: true,
    error: true,
    post: posts.length > 0,
    tag: posts.some((post) => post.tags.length > 0),
  };
  return SITE_PAGES.filter((page) => has[page.kind]).map(({ pattern, module }) => {
    const options = locale === DEFAULT_LOCALE ? {} : { id: `${locale}/${module.replace(/\.tsx$/, '')}` };
    // The language's root ("/", "/es") is its index route; every other pattern a path under it.
    if (pattern === '/') return index(module, options);
    return route(pattern === NOT_FOUND_PATTERN ? pattern : pattern.slice(1), module, options);
  });
}

/** The module (relative to web/app) that holds a language's strings. */
export function localeModule(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '../content/catalogue.ts' : `../content/${locale}/index.ts`;
}

/**
 * The route table for a set of languages (the first one is the default, at unprefixed paths), with the
 * post and tag routes the posts under `root` (a checkout: its web/content) call for.
 */
export function siteRoutes(locales: readonly Locale[] = LOCALE_CODES, root = process.cwd()): RouteConfigEntry[] {
  return [
    // Resource routes, prerendered to plain files at build time.
    route('robots.txt', 'routes/robots-txt.ts'),
    route('sitemap.xml', 'routes/sitemap-xml.ts'),
    // Each page's link-preview card: /og/home.png, /og/es-projects-3.png.
    route('og/:image', 'routes/og-png.ts'),
    // Each language's Atom feed of its posts and articles: /feed.xml, /es/feed.xml.
    ...locales.map((locale) =>
      locale === DEFAULT_LOCALE
        ? route('feed.xml', 'routes/feed-xml.ts')
        : route(`${locale}/feed.xml`, 'routes/feed-xml.ts', { id: `${locale}/routes/feed-xml` }),
    ),
    ...locales.flatMap((locale) => {
      const pages = layout(localeModule(locale), { id: `locale-${locale}` }, localePages(locale, root));
      return locale === DEFAULT_LOCALE ? [pages] : prefix(locale, [pages]);
    }),
  ];
}

export default siteRoutes() satisfies RouteConfig;
