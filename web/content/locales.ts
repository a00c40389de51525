/**
 * The site's languages, declared once. English (`en`) is the default: its pages keep the unprefixed
 * paths (/home, /projects/3). Every other language lives under its own prefix with the same route
 * names (/es/home, /es/projects/3) and its content in the folder of the same name (web/content/es/).
 *
 * To remove a language, delete its line here (its folder may go too). To add one, see
 * web/content/README.md.
 */
export const LOCALES = {
  en: { name: 'English', ogLocale: 'en_US', intl: 'en-US', fallback: { loading: 'Loading the page…' } },
  es: { name: 'Español', ogLocale: 'es_ES', intl: 'es-ES', fallback: { loading: 'Cargando la página…' } },
} as const satisfies Record<string, LocaleInfo>;

export interface LocaleInfo {
  /** The language's own name, as the language switcher shows it. */
  name: string;
  /** OpenGraph's language_TERRITORY form (og:locale). */
  ogLocale: string;
  /** The BCP 47 tag Intl formats dates and numbers with. */
  intl: string;
  /**
   * The heading the 404 fallback page gives assistive technology until its scripts run. One page
   * serves the unknown paths of every language, so it carries this line in each (marked with `lang`);
   * without scripts it shows the 404 page's words of each language instead (from each `ui.ts`).
   */
  fallback: { loading: string };
}

export type Locale = keyof typeof LOCALES;
export const DEFAULT_LOCALE = 'en' satisfies Locale;

/** Every declared locale, the default first. */
export const LOCALE_CODES = Object.keys(LOCALES) as Locale[];
