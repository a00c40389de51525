import { type RouteConfig, type RouteConfigEntry, index, layout, prefix, route } from '@react-router/dev/routes';
import { DEFAULT_LOCALE, LOCALE_CODES, type Locale } from '../content/locales';
import { parsePostSource } from './posts/front-matter';

/**
 * The post files of every language (not imported here: only their names). A language's post route
 * exists only when it has posts, since a prerendered site has no page for a slug it did not write
 * (React Router refuses a loader route with no prerendered path).
 */
const POST_FILES = import.meta.glob<string>(['../content/posts/*.md', '../content/*/posts/*.md'], { query: '?raw', import: 'default', eager: true });

/**
 * A language's posts the build writes (a draft only in `npm run dev`): its post route exists when it has
 * one, its tag pages' route when one of them has a tag (each route needs a prerendered path).
 */
function postsOf(locale: Locale): { tags: readonly string[] }[] {
  const dir = locale === DEFAULT_LOCALE ? '../content/posts/' : `../content/${locale}/posts/`;
  return Object.entries(POST_FILES)
    .filter(([file]) => file.startsWith(dir))
    .map(([file, text]) => parsePostSource(`web/${file.slice(3)}`, text).frontMatter)
    .filter((frontMatter) => import.meta.env.DEV || !frontMatter.draft);
}

/**
 * The pages of one language, under that language's layout route: the language's index module in
 * web/content (a route module with only a `handle`, which carries its strings: a page loads its own
 * language's strings and no other). The default language keeps the route ids of the files; every other
 * language reuses the same route modules under its prefix, with ids of its own (es/routes/home).
 */
function localePages(locale: Locale): RouteConfigEntry[] {
  const id = (file: string) => (locale === DEFAULT_LOCALE ? undefined : { id: `${locale}/${file.replace(/\.tsx$/, '')}` });
  const page = (path: string, file: string) => {
    const options = id(file);
    return options ? route(path, file, options) : route(path, file);
  };
  const root = id('routes/index-redirect.tsx');
  return [
    // The language's root ("/", "/es"): sends the visitor to its home page.
    root ? index('routes/index-redirect.tsx', root) : index('routes/index-redirect.tsx'),
    page('home', 'routes/home.tsx'),
    page('projects', 'routes/projects.tsx'),
    page('projects/:projectId', 'routes/project-detail.tsx'),
    page('blogs', 'routes/blogs.tsx'),
    ...(postsOf(locale).length > 0 ? [page('blogs/:slug', 'routes/post.tsx')] : []),
    ...(postsOf(locale).some((post) => post.tags.length > 0) ? [page('blogs/tags/:tag', 'routes/post-tag.tsx')] : []),
    page('contact', 'routes/contact.tsx'),
    page('about', 'routes/about.tsx'),
    page('error', 'routes/error.tsx'),
    page('privacy-policy', 'routes/privacy-policy.tsx'),
    // Every page by kind: the search control's destination without JavaScript.
    page('search', 'routes/search.tsx'),
    page('*', 'routes/not-found.tsx'),
  ];
}

/** The module (relative to web/app) that holds a language's strings. */
export function localeModule(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '../content/catalogue.ts' : `../content/${locale}/index.ts`;
}

/** The route table for a set of languages (the first one is the default, at unprefixed paths). */
export function siteRoutes(locales: readonly Locale[] = LOCALE_CODES): RouteConfigEntry[] {
  return [
    // Resource routes, prerendered to plain files at build time.
    route('robots.txt', 'routes/robots-txt.ts'),
    route('sitemap.xml', 'routes/sitemap-xml.ts'),
    // Each language's Atom feed of its posts and articles: /feed.xml, /es/feed.xml.
    ...locales.map((locale) =>
      locale === DEFAULT_LOCALE ? route('feed.xml', 'routes/feed-xml.ts') : route(`${locale}/feed.xml`, 'routes/feed-xml.ts', { id: `${locale}/routes/feed-xml` }),
    ),
    ...locales.flatMap((locale) => {
      const pages = layout(localeModule(locale), { id: `locale-${locale}` }, localePages(locale));
      return locale === DEFAULT_LOCALE ? [pages] : prefix(locale, [pages]);
    }),
  ];
}

export default siteRoutes() satisfies RouteConfig;
