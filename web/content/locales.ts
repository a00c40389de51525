/**
 * The site's languages, declared once. English (`en`) is the default: its pages keep the unprefixed
 * paths (/home, /projects/3). Every other language lives under its own prefix with the same route
 * names (/es/home, /es/projects/3) and its content in the folder of the same name (web/content/es/).
 *
 * To remove a language, delete its line here (its folder may go too). To add one, see
 * web/content/README.md.
 */
export const LOCALES = {
  en: { name: 'English', ogLocale: 'en_US', intl: 'en-US', captcha: 'en', fallback: { loading: 'Loading the page…' } },
  es: { name: 'Español', ogLocale: 'es_ES', intl: 'es-ES', captcha: 'es', fallback: { loading: 'Cargando la página…' } },
} as const satisfies Record<string, LocaleInfo>;

export interface LocaleInfo {
  /** The language's own name, as the language switcher shows it. */
  name: string;
  /** OpenGraph's language_TERRITORY form (og:locale). */
  ogLocale: string;
  /** The BCP 47 tag Intl formats dates and numbers with. */
  intl: string;
  /**
   * The code reCAPTCHA's widget is asked for the language with (its `hl`), from Google's own list
   * (web/content/recaptcha-languages.ts): usually the language's code, but Google spells a few its own
   * way (Hebrew `iw`, Norwegian `no`). The build checks it is on the list.
   */
  captcha: string;
  /**
   * The heading the 404 fallback page gives assistive technology until its scripts run. One page
   * serves the unknown paths of every language, so it carries this line in each (marked with `lang`);
   * without scripts it shows the 404 page's words of each language instead (from each `ui.ts`).
   */
  fallback: { loading: string };
  /**
   * Optional, and rarely needed: the direction the language is written in. Without it the direction
   * comes from the locale's own data (`textDirection` below): Arabic, Hebrew, Persian or Urdu pages are
   * right to left with nothing declared. Set it only for a tag whose script is not the one the
   * language's pages use.
   */
  dir?: TextDirection;
}

export type TextDirection = 'ltr' | 'rtl';

export type Locale = keyof typeof LOCALES;
export const DEFAULT_LOCALE = 'en' satisfies Locale;

/** Every declared locale, the default first. */
// Marked pure: a bundle that imports the module for another name (the boot script) leaves it out.
export const LOCALE_CODES = /* @__PURE__ */ Object.keys(LOCALES) as Locale[];

/**
 * The scripts written right to left (Unicode's Bidi_Class R or AL letters), for a browser whose
 * `Intl.Locale` has no text info (older releases: Node 24, Chromium and Firefox ESR 153 have `getTextInfo`); every engine can tell a tag's likely script (`maximize`).
 */
const RIGHT_TO_LEFT_SCRIPTS = new Set(['Adlm', 'Arab', 'Hebr', 'Mand', 'Mend', 'Nkoo', 'Rohg', 'Samr', 'Syrc', 'Thaa', 'Yezi']);

type WithTextInfo = Intl.Locale & { getTextInfo?: () => { direction?: string }; textInfo?: { direction?: string } };

/**
 * The direction a language tag is written in, from the locale's own data: `Intl.Locale`'s text info
 * (`getTextInfo()`, or the older `textInfo` getter) where the engine has it, else the direction of
 * the tag's likely script (ar → Arab → rtl). The build (Node) always has the text info.
 */
export function textDirection(tag: string): TextDirection {
  const locale = new Intl.Locale(tag) as WithTextInfo;
  const info = typeof locale.getTextInfo === 'function' ? locale.getTextInfo() : locale.textInfo;
  if (info?.direction === 'rtl' || info?.direction === 'ltr') return info.direction;
  const script = locale.maximize().script;
  return script !== undefined && RIGHT_TO_LEFT_SCRIPTS.has(script) ? 'rtl' : 'ltr';
}

/** The code reCAPTCHA's widget is asked for one of the site's languages with (its line's `captcha`). */
export function localeCaptcha(code: string): string {
  return (LOCALES as Record<string, LocaleInfo | undefined>)[code]?.captcha ?? code;
}

/** The direction of one of the site's languages (its `dir`, else its `intl` tag's), known in one place. */
export function localeDirection(code: string): TextDirection {
  const info = (LOCALES as Record<string, LocaleInfo | undefined>)[code];
  return info?.dir ?? textDirection(info?.intl ?? code);
}
