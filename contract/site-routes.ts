/**
 * The site's fixed routes (the spec's route table, without the per-project pages, which come from
 * the content). The outside-in smoke check asks each of them of a live site; "/" only redirects.
 */
export const FIXED_ROUTES = ['/', '/home', '/projects', '/blogs', '/contact', '/about', '/privacy-policy', '/error'] as const;

/** The route that only redirects to /home (at the edge, or in the browser): it has no title of its own. */
export const REDIRECT_ROUTE = '/';
export const REDIRECT_TARGET = '/home';
