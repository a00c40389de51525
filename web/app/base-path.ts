/**
 * The site's base path: '' for the live site, `/pr-12/abc1234` for a pull request's preview (the build's
 * PREVIEW_PATH, contract/preview-path.ts, which sets Vite's `base` and React Router's `basename`). Links
 * React Router renders (<Link>, <NavLink>, redirects) get it from the basename, and built assets from
 * Vite; an address written by hand (a public file such as /videos/x.mp4, a plain <a href>, a fetch)
 * goes through withBase.
 */
export const BASE_PATH = import.meta.env.BASE_URL.replace(/\/+$/, '');

/** A site path under the base: `/videos/x.mp4` → `/pr-12/abc1234/videos/x.mp4`; other addresses unchanged. */
export function withBase(address: string): string;
export function withBase(address: string | undefined): string | undefined;
export function withBase(address: string | undefined): string | undefined {
  if (address === undefined || !address.startsWith('/') || address.startsWith('//')) return address;
  return `${BASE_PATH}${address}`;
}
