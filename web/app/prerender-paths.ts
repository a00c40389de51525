import { projects } from '../content/projects';

/** Pages that belong in search results (and in sitemap.xml). */
export function indexablePaths(): string[] {
  return [
    '/home',
    '/projects',
    ...projects.map((p) => `/projects/${p.id}`),
    '/blogs',
    '/contact',
    '/about',
    '/privacy-policy',
  ];
}

/** Every path that gets its own prerendered file at build time. */
export function prerenderPaths(): string[] {
  // "/" only redirects and /error is a utility page: prerendered, but not listed in the sitemap.
  return ['/', ...indexablePaths(), '/error', '/robots.txt', '/sitemap.xml'];
}
