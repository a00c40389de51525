/**
 * The build variables, read and checked in one place (design §2). Vite inlines them at build time;
 * the prerender evaluates this module during `npm run build`, so a malformed value stops the build
 * with a message naming the variable instead of shipping a broken site.
 */

/** Google's public reCAPTCHA v2 test key: always passes, shows a warning banner in the widget. */
export const RECAPTCHA_TEST_SITE_KEY = '6LeIxAcTAAAAAJcZVRqyHh9G0Ru7j7xz8H5kOhK1';

export interface WebEnv {
  contactEndpoint: string;
  eventsEndpoint: string;
  recaptchaSiteKey: string;
  /** Empty: analytics never load. */
  gaMeasurementId: string;
  /**
   * The site's public address (canonical links, OpenGraph, sitemap); empty: the content's siteUrl.
   * Checked in full by resolveSiteUrl (layout/seo.ts), which merges it with the content.
   */
  siteUrl: string;
}

type Source = Record<string, string | boolean | undefined>;

/** A GA4 measurement id, e.g. G-AB12CD34EF. */
const GA_MEASUREMENT_ID_PATTERN = /^G-[A-Z0-9]{4,20}$/;
const RECAPTCHA_SITE_KEY_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;

function read(source: Source, name: string, fallback: string): string {
  const value = source[name];
  return typeof value !== 'string' || value.trim() === '' ? fallback : value.trim();
}

/** Same-origin path (/api/contact) or an absolute http(s) URL. */
function checkEndpoint(name: string, value: string): string {
  const isPath = value.startsWith('/') && !value.startsWith('//');
  let isUrl = false;
  if (!isPath) {
    try {
      const url = new URL(value);
      isUrl = url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      isUrl = false;
    }
  }
  if (!isPath && !isUrl) {
    throw new Error(`${name} must be a path starting with "/" or an http(s) URL; got "${value}".`);
  }
  return value;
}

function checkPattern(name: string, value: string, pattern: RegExp, expected: string): string {
  if (!pattern.test(value)) throw new Error(`${name} must be ${expected}; got "${value}".`);
  return value;
}

export function parseEnv(source: Source): WebEnv {
  const gaMeasurementId = read(source, 'VITE_GA_MEASUREMENT_ID', '');
  return {
    contactEndpoint: checkEndpoint('VITE_CONTACT_ENDPOINT', read(source, 'VITE_CONTACT_ENDPOINT', '/api/contact')),
    eventsEndpoint: checkEndpoint('VITE_EVENTS_ENDPOINT', read(source, 'VITE_EVENTS_ENDPOINT', '/api/events')),
    recaptchaSiteKey: checkPattern(
      'VITE_RECAPTCHA_SITE_KEY',
      read(source, 'VITE_RECAPTCHA_SITE_KEY', RECAPTCHA_TEST_SITE_KEY),
      RECAPTCHA_SITE_KEY_PATTERN,
      'a reCAPTCHA v2 site key (20 to 100 letters, digits, "_" or "-")',
    ),
    gaMeasurementId:
      gaMeasurementId === ''
        ? ''
        : checkPattern(
            'VITE_GA_MEASUREMENT_ID',
            gaMeasurementId,
            GA_MEASUREMENT_ID_PATTERN,
            'a GA4 measurement id such as G-AB12CD34EF, or empty',
          ),
    siteUrl: read(source, 'VITE_SITE_URL', ''),
  };
}

export const env: Readonly<WebEnv> = Object.freeze(parseEnv(import.meta.env as Source));
