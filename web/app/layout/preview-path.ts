/**
 * Where the preview image of a path lives: /og/projects-3.png for /projects/3, /og/home.png for
 * /home. The prerender draws one for every page (routes/og-png.ts, listed by prerender-paths.ts).
 * Data only: the page's head (seo.ts) and the build's list of paths both read it.
 */
export function previewImagePath(path: string): string {
  // Letters of any script are kept (two Hebrew tags get two images); an address encodes them (absoluteUrl).
  const slug =
    path
      .replace(/^\/+|\/+$/g, '')
      .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
      .toLowerCase() || 'home';
  return `/og/${slug}.png`;
}
