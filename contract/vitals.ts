/**
 * Page views and Core Web Vitals from visitors' browsers: the beacon the site sends once per page
 * view (first load or client-side navigation) to `POST /api/vitals`, and the thresholds the
 * dashboard, the alarm and `npm run visitors` judge them by. The browser, the vitals function and
 * the stack all read this module, so a route or a bound changes in one place; the languages are the
 * caller's to give (web/content/locales.ts LOCALE_CODES), the default first.
 *
 * A beacon names a route's pattern (`/projects/:projectId`), never an address or a query, and holds
 * nothing that tells one visitor from another: no identifier, no time of its own (the server's
 * arrival time is the log line's), no user agent.
 */
import { type PagePattern, patternOfPath, SITE_PAGES } from './site-routes';
import { roundMetric, VITALS_MAX, VITALS_METRICS, type VitalsMetric } from './vitals-bounds';

/**
 * The page patterns a beacon may name, without the language prefix (/es/projects/3 → /projects/:projectId):
 * every pattern of the site's page table (contract/site-routes.ts), `*` for any other address.
 */
export const VITALS_ROUTES: readonly PagePattern[] = /* @__PURE__ */ SITE_PAGES.map((page) => page.pattern);
export type VitalsRoute = PagePattern;

/** Phone or desktop, by the viewport's width (contract/viewport.ts). */
export const DEVICE_CLASSES = ['phone', 'desktop'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];
export { PHONE_MEDIA_QUERY } from './viewport';

/** How the page view began: the document loaded, or the app's router changed the page in place. */
export const NAVIGATION_KINDS = ['load', 'client'] as const;
export type NavigationKind = (typeof NAVIGATION_KINDS)[number];

export { roundMetric, VITALS_MAX, VITALS_METRICS, vitalsEndpointOf, type VitalsMetric } from './vitals-bounds';
/**
 * Google's thresholds: a value up to `good` is good, above `poor` is poor, judged at the 75th
 * percentile of page views. LCP 2.5 s / 4 s, INP 200 ms / 500 ms, CLS 0.1 / 0.25:
 * https://web.dev/articles/vitals and https://web.dev/articles/defining-core-web-vitals-thresholds;
 * FCP 1.8 s / 3 s: https://web.dev/articles/fcp; TTFB 0.8 s / 1.8 s: https://web.dev/articles/ttfb.
 * The web-vitals library rates with the same numbers (its `LCPThresholds`, `INPThresholds`, …).
 */
export const VITALS_THRESHOLDS: Readonly<Record<VitalsMetric, { good: number; poor: number }>> = {
  lcp: { good: 2500, poor: 4000 },
  inp: { good: 200, poor: 500 },
  cls: { good: 0.1, poor: 0.25 },
  fcp: { good: 1800, poor: 3000 },
  ttfb: { good: 800, poor: 1800 },
};

/** One page view as the browser sends it. A metric the browser could not measure is left out. */
export interface VitalsBeacon extends Partial<Record<VitalsMetric, number>> {
  route: VitalsRoute;
  lang: string;
  device: DeviceClass;
  nav: NavigationKind;
}

// A plain array: the module has no top-level work, so a bundle that imports one name takes nothing else.
const BEACON_FIELDS: readonly string[] = ['route', 'lang', 'device', 'nav', 'lcp', 'inp', 'cls', 'fcp', 'ttfb'];

export type VitalsCheck = { ok: true; beacon: VitalsBeacon } | { ok: false; reason: string; error: string };

/**
 * The server's check of a parsed beacon (the browser builds only what passes it): known fields
 * only, a known route, language (one of `languages`), device class and navigation kind, and each
 * metric a finite number from 0 to its maximum. Total: never throws, whatever it is given.
 */
export function checkVitalsBeacon(value: unknown, languages: readonly string[]): VitalsCheck {
  const refuse = (reason: string, error: string): VitalsCheck => ({ ok: false, reason, error });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return refuse('shape', 'The body must be a JSON object.');
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !BEACON_FIELDS.includes(key));
  if (unknown.length > 0) return refuse('shape', `Unknown field: ${unknown[0]!.slice(0, 40)}.`);
  const { route, lang, device, nav } = record;
  if (typeof route !== 'string' || !(VITALS_ROUTES as readonly string[]).includes(route)) {
    return refuse('route', "route must be one of the site's page patterns.");
  }
  if (typeof lang !== 'string' || !languages.includes(lang)) return refuse('lang', "lang must be one of the site's languages.");
  if (typeof device !== 'string' || !(DEVICE_CLASSES as readonly string[]).includes(device)) {
    return refuse('device', 'device must be phone or desktop.');
  }
  if (typeof nav !== 'string' || !(NAVIGATION_KINDS as readonly string[]).includes(nav))
    return refuse('nav', 'nav must be load or client.');
  const beacon: VitalsBeacon = { route: route as VitalsRoute, lang, device: device as DeviceClass, nav: nav as NavigationKind };
  for (const metric of VITALS_METRICS) {
    const number = record[metric];
    if (number === undefined) continue;
    if (typeof number !== 'number' || !Number.isFinite(number) || number < 0 || number > VITALS_MAX[metric]) {
      return refuse('range', `${metric} must be a number from 0 to ${VITALS_MAX[metric]}.`);
    }
    beacon[metric] = roundMetric(metric, number);
  }
  return { ok: true, beacon };
}

/**
 * The pattern and language of a path, among `languages` (the default first, its paths unprefixed):
 * /es/projects/3 → { route: '/projects/:projectId', lang: 'es' }, /blogs/tags/css → '/blogs/tags/:tag'.
 * Any path no pattern of the page table matches is '*' (the not-found page); a path of a pattern's
 * shape is counted under it (a project id or a slug the site does not have too: the address is never
 * kept). Only the path is read: a query or a fragment never reaches a beacon.
 */
export function routeOfPath(pathname: string, languages: readonly string[]): { route: VitalsRoute; lang: string } {
  const segments = pathname.split('/').filter(Boolean);
  const first = segments[0] ?? '';
  const defaultLanguage = languages[0] ?? '';
  const lang = first !== defaultLanguage && languages.includes(first) ? first : defaultLanguage;
  const rest = lang === defaultLanguage ? segments : segments.slice(1);
  return { route: patternOfPath(`/${rest.join('/')}`), lang };
}

/**
 * The message of a page view's log line; its `pageView` field holds the checked beacon. The vitals
 * function logs it (CloudWatch Logs), `npm start` appends the same fields to a file under .local/,
 * and the dashboard's queries and `npm run visitors` select lines by it.
 */
export const PAGE_VIEW_LOG_MESSAGE = 'Page view';
/** The message of a refused beacon's log line; its `outcome` field is `rejected-<reason>`. */
export const PAGE_VIEW_REJECTED_LOG_MESSAGE = 'Page view rejected';
