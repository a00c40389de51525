/**
 * Counts page views with their Core Web Vitals (vitals.ts), loaded only once the page is idle: the
 * first load's JavaScript is unchanged but for this file, and no beacon is sent before then. Nothing
 * loads, and nothing is sent, when the browser sends Global Privacy Control
 * (`navigator.globalPrivacyControl`, https://www.w3.org/TR/gpc/: a person's request that sites not sell
 * or share their personal information). No cookie, no storage,
 * no identifier. This file ships in every first load, so it only queues and waits: everything else
 * (repeated paths, routes, the beacon) is the lazy module's work.
 */
import { useEffect } from 'react';
import { env } from '../../config/env';

type VitalsModule = typeof import('./vitals');

/** How long the page may stay busy before the library loads anyway (requestIdleCallback's timeout). */
export const IDLE_TIMEOUT_MS = 10_000;
/** Where requestIdleCallback is missing (Safari): this long after the load event. */
export const NO_IDLE_CALLBACK_DELAY_MS = 3_000;

let vitals: VitalsModule | undefined;
/** Page views seen before the module loaded, the document's own first; the module drops repeats. */
const seen: string[] = [];

function load(): void {
  import('./vitals').then(
    (module) => {
      vitals = module;
      module.startVitals(env.eventsEndpoint, seen);
    },
    () => {
      // A chunk that fails to load (offline, a deploy in between): no page view, nothing else lost.
    },
  );
}

function whenIdle(): void {
  if ('requestIdleCallback' in window) requestIdleCallback(load, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(load, NO_IDLE_CALLBACK_DELAY_MS);
}

/** A page view at pathname (only ever called in the browser, from an effect): the first is the document's load. */
export function countPageView(pathname: string): void {
  if ((navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true) return;
  // No endpoint (a preview build): no page view is counted.
  if (env.eventsEndpoint === '') return;
  if (vitals) return vitals.navigate(pathname);
  // The first page view starts the wait: for the load event, then for the page to be idle.
  if (seen.push(pathname) > 1) return;
  if (document.readyState === 'complete') whenIdle();
  else addEventListener('load', whenIdle, { once: true });
}

/** Counts a page view whenever the route's path changes. */
export function usePageViews(pathname: string): void {
  useEffect(() => countPageView(pathname), [pathname]);
}
