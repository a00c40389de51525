/**
 * The build variables' schema, checked once at build time (vite.config.ts and vitest.config.ts
 * import it; the browser never does): a malformed value stops the build with a message naming the
 * variable instead of shipping a broken site. The checked values reach the browser through Vite's
 * `define` as the constant __WEB_ENV__ (read by env.ts), so no schema code ships to visitors. What
 * only the prerender needs (the facts the privacy policy states) is the constant __PAGE_FACTS__,
 * read by page-facts.ts from build-time loaders alone, so it never reaches a browser bundle.
 */
import { z } from 'zod';
import { DEFAULT_MESSAGE_RETENTION_DAYS, MESSAGE_RETENTION_LIMITS } from '../../../contract/archive.ts';
import { GA_MEASUREMENT_ID_PATTERN, RECAPTCHA_SITE_KEY_PATTERN, RECAPTCHA_TEST_SITE_KEY } from '../../../contract/settings.ts';
import { owner } from '../../content/site.ts';
import type { PolicyFacts } from '../../content/types.ts';
import { resolveSiteUrl } from '../layout/resolve-site-url.ts';

export interface WebEnv {
  contactEndpoint: string;
  /** Empty (a preview build): no click, page-view or vitals beacon is sent. */
  eventsEndpoint: string;
  recaptchaSiteKey: string;
  /** Empty: analytics never load. */
  gaMeasurementId: string;
  /**
   * The site's public address (canonical links, OpenGraph, sitemap): VITE_SITE_URL, else the content's
   * siteUrl, checked and without a trailing slash (layout/resolve-site-url.ts); '' when neither is set.
   */
  siteUrl: string;
}

export type EnvSource = Record<string, string | boolean | undefined>;

/** Everything the build reads: what the browser gets, and what only the prerendered pages state. */
export interface BuildEnv {
  web: WebEnv;
  /**
   * `VITE_MESSAGE_RETENTION_DAYS`: the deploy's `messageRetentionDays` (webBuildEnv passes it), default 365;
   * `VITE_LOG_RETENTION_DAYS`: its `logRetentionDays` (how long page views are kept), default 30.
   */
  pageFacts: PolicyFacts;
}

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

/** The deploy's default `logRetentionDays`, and CloudWatch's longest retention short of "never expire" (10 years). */
const DEFAULT_LOG_RETENTION_DAYS = 30;
const MAX_LOG_RETENTION_DAYS = 3653;

const got = (input: unknown) => `got "${String(input)}"`;

const endpoint = (name: string, fallback: string) =>
  text(fallback).refine(isEndpoint, {
    error: (issue) => `${name} must be a path starting with "/" or an http(s) URL; ${got(issue.input)}.`,
  });

const matching = (name: string, fallback: string, pattern: RegExp, expected: string) =>
  text(fallback).refine((value) => value === '' || pattern.test(value), {
    error: (issue) => `${name} must be ${expected}; ${got(issue.input)}.`,
  });

const days = (name: string, fallback: number, { min, max }: { min: number; max: number }) =>
  text(String(fallback))
    .refine((value) => /^\d+$/.test(value) && +value >= min && +value <= max, {
      error: (issue) => `${name} must be a whole number of days from ${min} to ${max}; ${got(issue.input)}.`,
    })
    .transform(Number);

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
    VITE_MESSAGE_RETENTION_DAYS: days('VITE_MESSAGE_RETENTION_DAYS', DEFAULT_MESSAGE_RETENTION_DAYS, MESSAGE_RETENTION_LIMITS),
    VITE_LOG_RETENTION_DAYS: days('VITE_LOG_RETENTION_DAYS', DEFAULT_LOG_RETENTION_DAYS, { min: 1, max: MAX_LOG_RETENTION_DAYS }),
  })
  .transform((v): BuildEnv => ({
    web: {
      contactEndpoint: v.VITE_CONTACT_ENDPOINT,
      eventsEndpoint: v.VITE_EVENTS_ENDPOINT,
      recaptchaSiteKey: v.VITE_RECAPTCHA_SITE_KEY,
      gaMeasurementId: v.VITE_GA_MEASUREMENT_ID,
      siteUrl: resolveSiteUrl(v.VITE_SITE_URL, owner.siteUrl),
    },
    pageFacts: { messageRetentionDays: v.VITE_MESSAGE_RETENTION_DAYS, logRetentionDays: v.VITE_LOG_RETENTION_DAYS },
  }));

/** Checks the build variables; throws one error listing every malformed one, each by name. */
export function parseBuildEnv(source: EnvSource): BuildEnv {
  const parsed = WebEnvSchema.safeParse(source);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join('\n'));
  return parsed.data;
}

/**
 * Vite `define` entries that hand the checked values to env.ts and page-facts.ts. `preview`: a pull
 * request's preview build (a base path), which counts nothing: its distribution has no /api/*, so no
 * beacon and no analytics are sent (an empty events endpoint and measurement id).
 */
export function defineWebEnv(source: EnvSource, preview = false): Record<string, string> {
  const { web, pageFacts } = parseBuildEnv(source);
  const sent = preview ? { ...web, eventsEndpoint: '', gaMeasurementId: '' } : web;
  return { __WEB_ENV__: JSON.stringify(sent), __PAGE_FACTS__: JSON.stringify(pageFacts) };
}
