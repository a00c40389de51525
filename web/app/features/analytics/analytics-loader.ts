import { env } from '../../config/env';
import { hasStoredConsent } from '../consent/consent-store';

/**
 * The first-load side of analytics: a tiny consent check. The analytics module (and react-ga4
 * behind it) is fetched only once a visitor has consented and a measurement id is configured, so
 * it stays out of every page's first-load JS.
 */

type AnalyticsModule = typeof import('./analytics');

let analyticsModule: Promise<AnalyticsModule> | null = null;

function loadModule(): Promise<AnalyticsModule> {
  analyticsModule ??= import('./analytics').catch((error: unknown) => {
    // An analytics error is only logged: it never reaches the visitor. A later page event tries again.
    analyticsModule = null;
    console.error('Analytics: loading analytics failed', error);
    throw error;
  });
  return analyticsModule;
}

function analyticsAllowed(): boolean {
  return env.gaMeasurementId !== '' && typeof window !== 'undefined' && hasStoredConsent();
}

/** With stored consent: loads and initialises analytics (consent stored on an earlier visit: analytics load at start). */
export function startAnalytics(): void {
  if (!analyticsAllowed()) return;
  loadModule().then(
    (analytics) => analytics.loadAnalytics(),
    () => {},
  );
}

/**
 * Sends a page event once the analytics code is there; without consent it loads nothing. The page's
 * address and title are read now, so the event names the page it was sent from even if the visitor
 * moves on first (GA4's page_location, the full URL, and page_title; analytics.ts says more).
 */
export function queuePageEvent(name: string, projectTitle?: string): void {
  if (!analyticsAllowed()) return;
  const page = { page_location: location.href, page_title: document.title, project_title: projectTitle };
  loadModule().then(
    (analytics) => analytics.sendPageEvent(name, page),
    () => {},
  );
}
