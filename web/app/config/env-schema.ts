/**
 * The build variables' schema, checked once at build time (vite.config.ts and vitest.config.ts
 * import it; the browser never does): a malformed value stops the build with a message naming the
 * variable instead of shipping a broken site. The checked values reach the browser through Vite's
 * `define` as the constant __WEB_ENV__ (read by env.ts), so no schema code ships to visitors.
 */
import { z } from 'zod';
import { GA_MEASUREMENT_ID_PATTERN, RECAPTCHA_SITE_KEY_PATTERN, RECAPTCHA_TEST_SITE_KEY } from '../../../contract/settings.ts';

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

export type EnvSource = Record<string, string | boolean | undefined>;

/** A trimmed string; unset, blank or not a string gives the fallback. */
const text = (fallback: string) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback), z.string());

/** Same-origin path (/api/contact) or an absolute http(s) URL. */
function isEndpoint(value: string): boolean {
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const got = (input: unknown) => `got "${String(input)}"`;

const endpoint = (name: string, fallback: string) =>
  text(fallback).refine(isEndpoint, {
    error: (issue) => `${name} must be a path starting with "/" or an http(s) URL; ${got(issue.input)}.`,
  });

const matching = (name: string, fallback: string, pattern: RegExp, expected: string) =>
  text(fallback).refine((value) => value === '' || pattern.test(value), {
    error: (issue) => `${name} must be ${expected}; ${got(issue.input)}.`,
  });

const WebEnvSchema = z
  .object({
    VITE_CONTACT_ENDPOINT: endpoint('VITE_CONTACT_ENDPOINT', '/api/contact'),
    VITE_EVENTS_ENDPOINT: endpoint('VITE_EVENTS_ENDPOINT', '/api/events'),
    VITE_RECAPTCHA_SITE_KEY: matching(
      'VITE_RECAPTCHA_SITE_KEY',
      RECAPTCHA_TEST_SITE_KEY,
      RECAPTCHA_SITE_KEY_PATTERN,
      'a reCAPTCHA v2 site key (20 to 100 letters, digits, "_" or "-")',
    ),
    VITE_GA_MEASUREMENT_ID: matching(
      'VITE_GA_MEASUREMENT_ID',
      '',
      GA_MEASUREMENT_ID_PATTERN,
      'a GA4 measurement id such as G-AB12CD34EF, or empty',
    ),
    VITE_SITE_URL: text(''),
  })
  .transform(
    (v): WebEnv => ({
      contactEndpoint: v.VITE_CONTACT_ENDPOINT,
      eventsEndpoint: v.VITE_EVENTS_ENDPOINT,
      recaptchaSiteKey: v.VITE_RECAPTCHA_SITE_KEY,
      gaMeasurementId: v.VITE_GA_MEASUREMENT_ID,
      siteUrl: v.VITE_SITE_URL,
    }),
  );

/** Checks the build variables; throws one error listing every malformed one, each by name. */
export function parseEnv(source: EnvSource): WebEnv {
  const parsed = WebEnvSchema.safeParse(source);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join('\n'));
  return parsed.data;
}

/** Vite `define` entries that hand the checked values to env.ts. */
export function defineWebEnv(source: EnvSource): Record<string, string> {
  return { __WEB_ENV__: JSON.stringify(parseEnv(source)) };
}
