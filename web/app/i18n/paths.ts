import { DEFAULT_LOCALE, LOCALE_CODES } from '../../content/locales';

/** The path of a page in a locale: /projects/3 in English, /es/projects/3 in Spanish. */
export function localizePath(locale: string, path: string): string {
  return locale === DEFAULT_LOCALE ? path : `/${locale}${path === '/' ? '' : path}`;
}

/** The locale a path belongs to, by its prefix (unprefixed paths are the default locale's). */
export function localeOfPath(pathname: string, locales: readonly string[] = LOCALE_CODES): string {
  const first = pathname.split('/')[1] ?? '';
  return first !== DEFAULT_LOCALE && locales.includes(first) ? first : DEFAULT_LOCALE;
}

/** The same page without its locale prefix: /es/projects/3 → /projects/3. */
export function unlocalizePath(pathname: string): string {
  const locale = localeOfPath(pathname);
  if (locale === DEFAULT_LOCALE) return pathname;
  return pathname.slice(locale.length + 1) || '/';
}

/** Where "Go home" leads: "/" in the default language (which redirects to /home), else /es/home. */
export function homeLink(locale: string): string {
  return locale === DEFAULT_LOCALE ? '/' : localizePath(locale, '/home');
}
