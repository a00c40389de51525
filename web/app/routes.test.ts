// @vitest-environment node
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import { describe, expect, it } from 'vitest';
import { LOCALE_CODES, type Locale } from '../content/locales';
import { projects } from '../content/projects';
import { localeOfPath, localizePath, unlocalizePath } from './i18n/paths';
import { FIXED_ROUTES, pathOf, patternOf, REDIRECTS, SITE_PAGES } from '../../contract/site-routes';
import { prerenderPaths } from './prerender-paths';
import { siteRoutes } from './routes';
import { scratchDir } from '../../tools/scratch';

/** Every route's full path and file, depth first (layouts add no path of their own). */
function flatten(entries: RouteConfigEntry[], parent = ''): { path: string; file: string; id?: string }[] {
  return entries.flatMap((entry) => {
    // prefix() gives a language's index route the prefix as its path (es).
    const path = entry.path ? `${parent}/${entry.path}` : entry.index ? parent || '/' : parent;
    const own = entry.path || entry.index ? [{ path, file: entry.file, id: entry.id }] : [];
    return [...own, ...flatten(entry.children ?? [], path)];
  });
}

/** A checkout with no posts, and one with a tagged English post: the route table's posts, whatever web/content holds. */
const NO_POSTS = scratchDir('routes-no-posts-');
const WITH_POST = scratchDir('routes-with-post-');
mkdirSync(path.join(WITH_POST, 'web/content/posts'), { recursive: true });
writeFileSync(
  path.join(WITH_POST, 'web/content/posts/hello.md'),
  '---\ntitle: Hello\ndescription: A post.\npublished: 2025-01-02\ntags: [notes]\n---\n\nHello.\n',
);

/** The resource routes: files prerendered at the site's root (robots.txt, the sitemap, the feeds, the preview cards). */
const RESOURCE = /\.(txt|xml)$|^\/og\//;

describe('the route table', () => {
  it('with English alone is the one-language site: the same paths, files and ids as before languages existed', () => {
    const routes = flatten(siteRoutes(['en'], NO_POSTS));
    expect(routes.map((r) => `${r.path} ${r.file}`)).toEqual([
      '/robots.txt routes/robots-txt.ts',
      '/sitemap.xml routes/sitemap-xml.ts',
      '/og/:image routes/og-png.ts',
      '/feed.xml routes/feed-xml.ts',
      '/ routes/index-redirect.tsx',
      '/home routes/home.tsx',
      '/projects routes/projects.tsx',
      '/projects/:projectId routes/project-detail.tsx',
      '/blogs routes/blogs.tsx',
      '/contact routes/contact.tsx',
      '/about routes/about.tsx',
      '/error routes/error.tsx',
      '/privacy-policy routes/privacy-policy.tsx',
      '/search routes/search.tsx',
      '/* routes/not-found.tsx',
    ]);
    expect(routes.every((r) => r.id === undefined)).toBe(true);
    // A page per project of the owner's, in their order, and its preview image.
    expect(prerenderPaths(['en'])).toEqual([
      '/',
      '/home',
      '/projects',
      ...projects.map((p) => `/projects/${p.id}`),
      '/blogs',
      '/contact',
      '/about',
      '/error',
      '/privacy-policy',
      '/search',
      '/feed.xml',
      '/robots.txt',
      '/sitemap.xml',
      '/og/home.png',
      '/og/projects.png',
      ...projects.map((p) => `/og/projects-${p.id}.png`),
      '/og/blogs.png',
      '/og/contact.png',
      '/og/about.png',
      '/og/error.png',
      '/og/privacy-policy.png',
      '/og/search.png',
    ]);
  });

  it('has a post route, and a tag route, only in a language with posts (with tags)', () => {
    const paths = (root: string) => flatten(siteRoutes(LOCALE_CODES, root)).map((r) => `${r.path} ${r.file}`);
    expect(paths(WITH_POST)).toEqual(expect.arrayContaining(['/blogs/:slug routes/post.tsx', '/blogs/tags/:tag routes/post-tag.tsx']));
    expect(paths(NO_POSTS).filter((p) => p.includes('routes/post'))).toEqual([]);
    for (const locale of LOCALE_CODES.filter((code) => code !== 'en'))
      expect(paths(WITH_POST).filter((p) => p.startsWith(`/${locale}/blogs/`))).toEqual([]);
  });

  it("is the site's page table (contract/site-routes.ts) in each language: its patterns and modules, in its order", () => {
    const routes = flatten(siteRoutes(LOCALE_CODES, NO_POSTS));
    // Without posts: a language's post and tag routes exist only with posts (and tags).
    const withoutPosts = SITE_PAGES.filter((page) => page.kind !== 'post' && page.kind !== 'tag');
    for (const locale of LOCALE_CODES) {
      const pages = routes.filter((r) => r.file.startsWith('routes/') && !RESOURCE.test(r.path) && localeOfPath(r.path) === locale);
      expect(
        pages.map((r) => `${unlocalizePath(r.path)} ${r.file}`),
        locale,
      ).toEqual(withoutPosts.map((p) => `${p.pattern === '*' ? '/*' : p.pattern} ${p.module}`));
    }
    // Every page of the table is prerendered in every language, but the not-found page and those of posts.
    for (const page of withoutPosts.filter((p) => p.pattern !== '*')) {
      const path = page.kind === 'project' ? pathOf('project', 1) : page.pattern;
      for (const locale of LOCALE_CODES) expect(prerenderPaths(), `${locale} ${path}`).toContain(localizePath(locale, path));
    }
    expect(prerenderPaths(['en'], ['/blogs/hello'])).toContain('/blogs/hello');
  });

  it('gives each pattern of the table one kind, one module, and the kinds with a parameter one pattern each', () => {
    expect(new Set(SITE_PAGES.map((p) => p.pattern)).size).toBe(SITE_PAGES.length);
    for (const kind of ['project', 'post', 'tag'] as const) {
      expect(
        SITE_PAGES.filter((p) => p.kind === kind),
        kind,
      ).toHaveLength(1);
      expect(patternOf(kind)).toMatch(/^\/[a-z/]+\/:[a-zA-Z]+$/);
    }
    expect(pathOf('post', 'hello')).toBe('/blogs/hello');
    expect(pathOf('tag', 'css')).toBe('/blogs/tags/css');
    expect(pathOf('project', 3)).toBe('/projects/3');
    expect(SITE_PAGES.filter((p) => p.pattern.includes(':') && p.kind !== 'project' && p.kind !== 'post' && p.kind !== 'tag')).toEqual([]);
    expect(REDIRECTS).toEqual({ '/': '/home' });
    expect(FIXED_ROUTES).toEqual(['/', '/home', '/projects', '/blogs', '/contact', '/about', '/error', '/privacy-policy', '/search']);
  });

  it('gives every other language the same pages under its prefix, reusing the route modules with ids of their own', () => {
    const routes = flatten(siteRoutes(LOCALE_CODES, NO_POSTS));
    const english = routes.filter((r) => r.file.startsWith('routes/') && !r.id);
    for (const locale of LOCALE_CODES.filter((code) => code !== 'en')) {
      const localized = routes.filter((r) => r.path.startsWith(`/${locale}/`) && !r.path.endsWith('.xml'));
      // Its own feed, the default language's module under an id of its own.
      expect(routes.find((r) => r.path === `/${locale}/feed.xml`)).toEqual({
        path: `/${locale}/feed.xml`,
        file: 'routes/feed-xml.ts',
        id: `${locale}/routes/feed-xml`,
      });
      expect(localized.map((r) => r.file)).toEqual(english.filter((r) => !RESOURCE.test(r.path) && r.path !== '/').map((r) => r.file));
      expect(localized.every((r) => r.id?.startsWith(`${locale}/`))).toBe(true);
    }
    expect(new Set(routes.map((r) => r.id ?? r.file + r.path)).size).toBe(routes.length);
  });

  it('gives every language a root that leads to its home, prerendered (/es/index.html answers /es and /es/)', () => {
    const routes = flatten(siteRoutes(LOCALE_CODES, NO_POSTS));
    for (const locale of LOCALE_CODES) {
      const root = localizePath(locale, '/');
      expect(
        routes.find((r) => r.path === root && r.file === 'routes/index-redirect.tsx'),
        root,
      ).toBeDefined();
      expect(prerenderPaths(), root).toContain(root);
    }
    // Spanish as an example of a second language, whichever languages the owner keeps.
    const twoLanguages = ['en', 'es'] as Locale[];
    expect(flatten(siteRoutes(twoLanguages, NO_POSTS)).find((r) => r.path === '/es')?.id).toBe('es/routes/index-redirect');
    expect(prerenderPaths(twoLanguages).slice(0, 2)).toEqual(['/', '/es']);
  });

  it("puts each language under a layout route whose module is that language's content", () => {
    const layouts = siteRoutes(LOCALE_CODES, NO_POSTS).filter((entry) => !entry.path && !entry.index);
    expect(layouts.map((l) => [l.id, l.file])).toEqual(
      LOCALE_CODES.map((code) => [`locale-${code}`, code === 'en' ? '../content/catalogue.ts' : `../content/${code}/index.ts`]),
    );
    const spanish = siteRoutes(['en', 'es'] as Locale[], NO_POSTS).filter((entry) => !entry.path && !entry.index);
    expect(
      spanish
        .find((l) => l.id === 'locale-es')
        ?.children?.slice(0, 2)
        .map((c) => [c.path, c.index]),
    ).toEqual([
      ['es', true],
      ['es/home', undefined],
    ]);
  });
});

describe('paths by language', () => {
  it('prefixes every language but the default one, and reads the language back', () => {
    expect(localizePath('en', '/projects/3')).toBe('/projects/3');
    expect(localizePath('es', '/projects/3')).toBe('/es/projects/3');
    expect(localeOfPath('/es/projects/3')).toBe('es');
    expect(localeOfPath('/projects/3')).toBe('en');
    expect(localeOfPath('/est/x')).toBe('en');
    expect(localeOfPath('/en/home')).toBe('en');
    expect(unlocalizePath('/es/projects/3')).toBe('/projects/3');
    expect(unlocalizePath('/es')).toBe('/');
    expect(unlocalizePath('/about')).toBe('/about');
  });
});
