/**
 * Counts page views with their Core Web Vitals (vitals.ts), loaded only once the page is idle: the
 * first load's JavaScript is unchanged but for this file, and no beacon is sent before then. Nothing
 * loads, and nothing is sent, when the browser sends Global Privacy Control
 * (`navigator.globalPrivacyControl`, https://privacycg.github.io/gpc-spec/). No cookie, no storage,
 * no identifier.
 */
import { useEffect } from 'react';
import { env } from '../../config/env';

type VitalsModule = typeof import('./vitals');

/** How long the page may stay busy before the library loads anyway (requestIdleCallback's timeout). */
export const IDLE_TIMEOUT_MS = 10_000;
/** Where requestIdleCallback is missing (some browsers lack it): this long after the load event. */
export const NO_IDLE_CALLBACK_DELAY_MS = 3_000;

let vitals: VitalsModule | undefined;
let loading = false;
/** Page views seen before the module loaded: the document's own first. */
const seen: string[] = [];

function privacyControl(): boolean {
  return (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
}

function whenIdle(run: () => void): void {
  const idle = () => {
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    else window.setTimeout(run, NO_IDLE_CALLBACK_DELAY_MS);
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/** A page view at pathname: the first call is the document's load, later ones client-side navigations. */
export function countPageView(pathname: string): void {
  if (typeof window === 'undefined' || privacyControl()) return;
  if (vitals) return vitals.navigate(pathname);
  if (seen.at(-1) !== pathname) seen.push(pathname);
  if (loading) return;
  loading = true;
  whenIdle(() => {
    import('./vitals').then(
      (module) => {
        vitals = module;
        module.startVitals(env.eventsEndpoint, seen.splice(0));
      },
      () => {
        // A chunk that fails to load (offline, a deploy in between): no page view, nothing else lost.
      },
    );
  });
}

/** Counts a page view whenever the route's path changes. */
export function usePageViews(pathname: string): void {
  useEffect(() => countPageView(pathname), [pathname]);
}
