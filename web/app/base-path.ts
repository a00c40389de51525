/**
 * The site's base path: '' for the live site, `/pr-12/abc1234` for a pull request's preview (the build's
 * PREVIEW_PATH, contract/preview-path.ts, which sets Vite's `base` and React Router's `basename`). Links
 * React Router renders (<Link>, <NavLink>, redirects) get it from the basename, and built assets from
 * Vite; an address written by hand (a public file such as /videos/x.mp4, a plain <a href>, a fetch)
 * goes through withBase.
 */
import { localeOfPath } from './i18n/paths';

export const BASE_PATH = import.meta.env.BASE_URL.replace(/\/+$/, '');

/** A site path under the base: `/videos/x.mp4` → `/pr-12/abc1234/videos/x.mp4`; other addresses unchanged. */
export function withBase(address: string): string;
export function withBase(address: string | undefined): string | undefined;
export function withBase(address: string | undefined): string | undefined {
  if (address === undefined || !address.startsWith('/') || address.startsWith('//')) return address;
  return `${BASE_PATH}${address}`;
}

/**
 * A path without the base: `/pr-12/abc1234/es/home` → `/es/home`; a path outside it unchanged. A
 * loader's request carries the base (React Router prerenders and fetches under its basename), so what
 * the path says about the page (its language) is read after this.
 */
export function withoutBase(pathname: string, base: string = BASE_PATH): string {
  if (base === '') return pathname;
  if (pathname === base) return '/';
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : pathname;
}

/** The language of the page a loader's request is for, under any base path. */
export function localeOfRequest(request: Request): string {
  return localeOfPath(withoutBase(new URL(request.url).pathname));
}
