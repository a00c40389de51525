/**
 * Page views with the Core Web Vitals each one measured, from Google's web-vitals library. This
 * module and the library load only once the page is idle (page-views.ts), so the first load carries
 * none of it; the library reads what the browser buffered before (its observers use `buffered: true`).
 *
 * One beacon per page view: the first load, and each client-side navigation. A page view collects
 * the latest value of each metric (`reportAllChanges`) and is sent once, when the next page view
 * starts or when the page is hidden or left (visibilitychange, pagehide), whichever comes first:
 * web-vitals' README, "Batch multiple reports together" (flush "whenever the page is backgrounded or
 * unloaded") and "Report metrics for soft navigations" (`reportSoftNavs`: in Chromium 151+ each
 * soft navigation gets its own LCP, FCP, INP and CLS, labelled navigationType 'soft-navigation' with
 * its navigationURL; TTFB is 0 there): https://github.com/GoogleChrome/web-vitals#report-metrics-for-soft-navigations.
 * Other browsers measure the first load only, so their client-side page views count without metrics
 * (soft-navigation entries: Chrome and Edge 151, not Firefox or Safari, per web-features:
 * https://web-platform-dx.github.io/web-features-explorer/features/soft-navigations/).
 */
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import {
  type NavigationKind,
  PHONE_MEDIA_QUERY,
  roundMetric,
  routeOfPath,
  VITALS_MAX,
  vitalsEndpointOf,
  type VitalsBeacon,
  type VitalsMetric,
} from '../../../../contract/vitals';
import { PAGE_VIEWS_APP, PAGE_VIEWS_ATTRIBUTE, PAGE_VIEWS_RESTORED, PAGE_VIEWS_SENT } from '../../../../contract/inline-scripts';
import { LOCALE_CODES } from '../../../content/locales';
import { postBeacon } from './beacon';

interface PageView {
  pathname: string;
  beacon: VitalsBeacon;
  sent: boolean;
  /**
   * False for a restore from the back/forward cache that happened before this module started: the
   * library's observers then hold only the first load's entries, which are not this page view's.
   */
  measured: boolean;
}

let endpoint = '';
/** The page view of the document's own load (or its restore from the back/forward cache). */
let loaded: PageView | undefined;
let current: PageView | undefined;

function pageView(pathname: string, nav: NavigationKind): PageView {
  const device = matchMedia(PHONE_MEDIA_QUERY).matches ? 'phone' : 'desktop';
  return { pathname, beacon: { ...routeOfPath(pathname, LOCALE_CODES), device, nav }, sent: false, measured: true };
}

function send(view: PageView | undefined): void {
  if (!view || view.sent) return;
  view.sent = true;
  postBeacon(endpoint, JSON.stringify(view.beacon));
}

/**
 * Keeps a metric's latest value on its page view: the document's load, or a soft navigation's on the
 * client-side page view at its URL. A page view already sent keeps nothing more.
 */
function record(metric: Metric): void {
  const soft = metric.navigationType === 'soft-navigation';
  const view = soft ? current : loaded;
  const url = metric.navigationURL;
  if (!view || view.sent || !view.measured) return;
  if (soft && (view.beacon.nav !== 'client' || (url && new URL(url, location.href).pathname !== view.pathname))) return;
  const name = metric.name.toLowerCase() as VitalsMetric;
  const value = roundMetric(name, metric.value);
  // The server refuses a beacon with a value out of range: leave such a value out, keep the page view.
  if (value >= 0 && value <= VITALS_MAX[name]) view.beacon[name] = value;
}

/** A client-side navigation to pathname: the page view before it is complete and goes now. */
export function navigate(pathname: string): void {
  if (current?.pathname === pathname) return;
  send(current);
  current = pageView(pathname, 'client');
}

/**
 * Starts measuring: `pathnames` are the page views seen before this module loaded, the document's
 * own first, then any client-side navigations (a path repeated in a row is one page view). Page
 * views go beside the click events (vitalsEndpointOf).
 */
export function startVitals(eventsEndpoint: string, pathnames: readonly string[]): void {
  endpoint = vitalsEndpointOf(eventsEndpoint);
  const [first = location.pathname, ...later] = pathnames;
  loaded = current = pageView(first, 'load');
  // The page's boot script sends the first page view if the page was hidden or left before now; if
  // the page was then restored from the back/forward cache, the restore is the page view still to count.
  const html = document.documentElement;
  const counted = html.getAttribute(PAGE_VIEWS_ATTRIBUTE);
  if (counted === PAGE_VIEWS_SENT) loaded.sent = true;
  if (counted === PAGE_VIEWS_RESTORED) loaded.measured = false;
  html.setAttribute(PAGE_VIEWS_ATTRIBUTE, PAGE_VIEWS_APP);
  const options = { reportAllChanges: true, reportSoftNavs: true };
  for (const on of [onTTFB, onFCP, onLCP, onCLS, onINP]) on(record, options);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') send(current);
  });
  window.addEventListener('pagehide', () => send(current));
  // A page restored from the back/forward cache is a page view of its own (web-vitals gives it new metrics).
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) loaded = current = pageView(location.pathname, 'load');
  });
  later.forEach(navigate);
}
