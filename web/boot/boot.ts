/**
 * The boot script: the inline script every page carries in its head, as type-checked TypeScript. The
 * build bundles `bootPage` with what it imports into one plain ES2015 script (web/boot/generate.ts),
 * which root.tsx writes into each page and the CSP admits by the hash of that generated text.
 *
 * It imports the site's own pieces rather than copies: the beacon sender (postBeacon), the vitals
 * endpoint rewrite (vitalsEndpointOf), the metric bounds (VITALS_MAX) and rounding (roundMetric), the
 * phone breakpoint and the attribute names the app and the post-build step share with it.
 *
 * What it does, in order:
 * - switches off the browser's own scroll restoration, before the browser could restore a reload's
 *   old position: a reload starts at the top, and hydration never scrolls (the layout scrolls only
 *   when the visitor navigates);
 * - until the app has hydrated (`<html data-hydrated="true">`), counts clicks on tracked links
 *   (CLICK_EVENT_ATTRIBUTE): one capture listener on the document sends the link's event name to the
 *   events endpoint (the script's own EVENTS_ENDPOINT_ATTRIBUTE), as trackClick does, and marks the
 *   event (CLICK_COUNTED_PROPERTY) so the app's handler, if React already listens, does not send it again;
 * - sends the document's page view if the page is hidden or left before the app's page-view code
 *   started (PAGE_VIEWS_ATTRIBUTE), unless Global Privacy Control is on: a visitor who leaves a slow
 *   page early is counted too, with the TTFB and FCP the browser's timeline already holds (LCP, CLS
 *   and INP need observers, which are the web-vitals library's job), and a restore from the
 *   back/forward cache of a page it counted so, as a page view of its own;
 * - starts the page's scripts after its first paint: waits for the document to be parsed and for the
 *   images the page preloads (its largest element, such as the first video poster) to arrive, at most
 *   IMAGE_WAIT_MS, so the scripts never compete with them for the network; then for one frame to be
 *   painted (a task queued from requestAnimationFrame runs after that frame); then adds the deferred
 *   module preloads (a copy of each such template's links), then loads each placeholder's file, all
 *   of them in document order (async false, module scripts too): React Router's route-module script
 *   must run after its context script, which the parser guaranteed by running that one inline first,
 *   even when the modules are cached.
 */
import {
  CLICK_COUNTED_PROPERTY,
  CLICK_EVENT_ATTRIBUTE,
  DEFERRED_PRELOADS_ATTRIBUTE,
  EVENTS_ENDPOINT_ATTRIBUTE,
  HYDRATED_ATTRIBUTE,
  IMAGE_WAIT_MS,
  MOVED_SCRIPT_ATTRIBUTE,
  PAGE_VIEW_ATTRIBUTE,
  PAGE_VIEWS_ATTRIBUTE,
  PAGE_VIEWS_RESTORED,
  PAGE_VIEWS_SENT,
} from '../../contract/inline-scripts';
import { PHONE_MEDIA_QUERY } from '../../contract/viewport';
import type { VitalsBeacon } from '../../contract/vitals';
import { roundMetric, VITALS_MAX, vitalsEndpointOf } from '../../contract/vitals-bounds';
import { postBeacon } from '../app/features/tracking/beacon';

/** The parts of the browser's timeline the early page view reads: no observer, only kept entries. */
export interface EarlyTimeline {
  /** The navigation entry, when the browser has one. */
  navigation: (Pick<PerformanceNavigationTiming, 'responseStart'> & { activationStart?: number }) | undefined;
  /** The first-contentful-paint entry's start, when there was one. */
  firstContentfulPaint: number | undefined;
  /** performance.now() when read. */
  now: number;
  /** Whether the page was hidden when the script started (FCP then is not the visitor's). */
  hiddenAtStart: boolean;
}

/**
 * TTFB and FCP as web-vitals computes them: from activationStart (a prerendered page counts from
 * when it was shown), clamped at 0 (a responseStart or paint before activation is 0, not negative);
 * TTFB only from a navigation entry whose responseStart is above 0 and before now (browsers report 0
 * or a bad value at times: web-vitals ignores those), FCP only if the page was shown from its start.
 * Rounded as the beacon carries them; a value over the API's bound (VITALS_MAX) is left out, since the
 * server would refuse the whole beacon.
 */
export function earlyMetrics(timeline: EarlyTimeline): Pick<VitalsBeacon, 'ttfb' | 'fcp'> {
  const navigation = timeline.navigation;
  const activation = (navigation && navigation.activationStart) || 0;
  const metrics: Pick<VitalsBeacon, 'ttfb' | 'fcp'> = {};
  const keep = (metric: 'ttfb' | 'fcp', at: number) => {
    const value = roundMetric(metric, Math.max(at - activation, 0));
    if (value <= VITALS_MAX[metric]) metrics[metric] = value;
  };
  if (navigation && navigation.responseStart > 0 && navigation.responseStart < timeline.now) keep('ttfb', navigation.responseStart);
  if (timeline.firstContentfulPaint !== undefined && !timeline.hiddenAtStart) keep('fcp', timeline.firstContentfulPaint);
  return metrics;
}

/** Counts a click on a tracked link until the app has hydrated (it counts them from then on). */
function countClick(event: MouseEvent, endpoint: string): void {
  if (document.documentElement.getAttribute(HYDRATED_ATTRIBUTE) === 'true') return;
  const target = event.target as Element | null;
  const link = target && target.closest ? target.closest(`[${CLICK_EVENT_ATTRIBUTE}]`) : null;
  if (!link) return;
  (event as MouseEvent & Record<string, unknown>)[CLICK_COUNTED_PROPERTY] = 1;
  postBeacon(endpoint, JSON.stringify({ name: link.getAttribute(CLICK_EVENT_ATTRIBUTE) }));
}

/**
 * The document's page view, once, if the app's page-view code has not started (nor sent it); once
 * more for each restore from the back/forward cache, with no metrics (the timeline is the first load's).
 */
function sendPageView(endpoint: string, pageView: string, hiddenAtStart: boolean): void {
  const root = document.documentElement;
  const counted = root.getAttribute(PAGE_VIEWS_ATTRIBUTE);
  if (
    (counted && counted !== PAGE_VIEWS_RESTORED) ||
    (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true
  )
    return;
  root.setAttribute(PAGE_VIEWS_ATTRIBUTE, PAGE_VIEWS_SENT);
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  // Plain assignments, not object spreads: the generated script stays ES2015 without helpers.
  const beacon = JSON.parse(pageView) as VitalsBeacon;
  beacon.device = matchMedia(PHONE_MEDIA_QUERY).matches ? 'phone' : 'desktop';
  beacon.nav = 'load';
  if (!counted)
    Object.assign(
      beacon,
      earlyMetrics({
        navigation: performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined,
        firstContentfulPaint: paint && paint.startTime,
        now: performance.now(),
        hiddenAtStart,
      }),
    );
  postBeacon(vitalsEndpointOf(endpoint), JSON.stringify(beacon));
}

/** Adds the deferred module preloads, then loads each moved script's file, in document order. */
function startScripts(): void {
  const d = document;
  d.querySelectorAll<HTMLTemplateElement>(`template[${DEFERRED_PRELOADS_ATTRIBUTE}]`).forEach((template) => {
    d.head.appendChild(d.importNode(template.content, true));
  });
  d.querySelectorAll<HTMLScriptElement>(`script[${MOVED_SCRIPT_ATTRIBUTE}]`).forEach((placeholder) => {
    const script = d.createElement('script');
    if (placeholder.type) script.type = placeholder.type;
    script.async = false;
    script.src = placeholder.getAttribute(MOVED_SCRIPT_ATTRIBUTE) as string;
    d.head.appendChild(script);
  });
}

/** Starts the scripts one frame after the preloaded images arrived (or IMAGE_WAIT_MS passed), once. */
function startAfterImages(): void {
  let started = false;
  const afterPaint = () => {
    if (started) return;
    started = true;
    requestAnimationFrame(() => setTimeout(startScripts, 0));
  };
  const links = document.querySelectorAll<HTMLLinkElement>('link[rel=preload][as=image]');
  let waiting = links.length;
  if (!waiting) return afterPaint();
  setTimeout(afterPaint, IMAGE_WAIT_MS);
  links.forEach((link) => {
    const image = new Image();
    image.onload = image.onerror = () => {
      if (--waiting === 0) afterPaint();
    };
    if (link.imageSrcset) {
      image.sizes = link.imageSizes;
      image.srcset = link.imageSrcset;
    }
    image.src = link.href;
  });
}

export function bootPage(): void {
  const d = document;
  const script = d.currentScript;
  const hiddenAtStart = d.visibilityState === 'hidden';
  const endpoint = script && script.getAttribute(EVENTS_ENDPOINT_ATTRIBUTE);
  const pageView = script && script.getAttribute(PAGE_VIEW_ATTRIBUTE);
  if (endpoint) {
    d.addEventListener('click', (event) => countClick(event, endpoint), true);
    if (pageView) {
      const view = () => sendPageView(endpoint, pageView, hiddenAtStart);
      addEventListener('pagehide', view);
      // Restored from the back/forward cache after this script counted the page: a new page view.
      addEventListener('pageshow', (event) => {
        if (event.persisted && d.documentElement.getAttribute(PAGE_VIEWS_ATTRIBUTE) === PAGE_VIEWS_SENT)
          d.documentElement.setAttribute(PAGE_VIEWS_ATTRIBUTE, PAGE_VIEWS_RESTORED);
      });
      d.addEventListener('visibilitychange', () => {
        if (d.visibilityState === 'hidden') view();
      });
    }
  }
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  if (d.readyState === 'loading') d.addEventListener('DOMContentLoaded', startAfterImages);
  else startAfterImages();
}
