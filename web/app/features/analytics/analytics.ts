import { env } from '../../config/env';
import { hasStoredConsent } from '../consent/consent-store';

/**
 * Google Analytics 4 through react-ga4, loaded only after consent. This module is
 * itself loaded on demand (analytics-loader.ts) and pulls in the library with a dynamic import(),
 * so neither is in any page's first-load JS and nothing is requested from Google's hosts before
 * consent. Every failure is logged with console.error and
 * nothing else happens: analytics must never break the site.
 */

/** The part of react-ga4 this module uses (the string form of event() keeps the name as written). */
export interface AnalyticsClient {
  initialize(measurementId: string): void;
  event(name: string, params?: Record<string, unknown>): void;
}

/**
 * A page event's parameters, GA4's own: page_location (the full URL) and page_title, not Universal
 * Analytics' page_path. Sources: Google Analytics migration guide, "Virtual pageviews" (GA4 sends
 * page_location, "Full URL is required", where UA sent page_path):
 * https://developers.google.com/analytics/devguides/migration/measurement/virtual-pageviews; and
 * "Measure pageviews" (defaults document.title and location.href; an override must be a full URL):
 * https://developers.google.com/analytics/devguides/collection/ga4/views. react-ga4's string form of
 * event() hands them to gtag('event', name, params) as they are (its _toGtagOptions renames only
 * UA-style keys such as `page`). A project page adds `project_title`.
 */
export type PageParams = {
  page_location: string;
  page_title: string;
  project_title?: string | undefined;
};

interface PageEvent {
  name: string;
  params: PageParams;
}

/** Page events sent before the library finished loading wait here; bounded so it never grows forever. */
const QUEUE_LIMIT = 20;
/**
 * Where react-ga4 loads gtag.js from (its default gtagUrl), as Google's snippet does. Source: Google
 * Analytics, "Add gtag.js to your site": https://developers.google.com/analytics/devguides/collection/gtagjs
 */
const GTAG_URL_PREFIX = 'https://www.googletagmanager.com/gtag/js';

let client: AnalyticsClient | null = null;
let loading: Promise<boolean> | null = null;
const queue: PageEvent[] = [];

function reportError(what: string, error: unknown): void {
  console.error(`Analytics: ${what} failed`, error);
}

function send(ga: AnalyticsClient, event: PageEvent): void {
  try {
    ga.event(event.name, event.params);
  } catch (error) {
    reportError(`sending "${event.name}"`, error);
  }
}

const watchedScripts = new WeakSet<HTMLScriptElement>();

/** Reports a blocked or failing gtag.js (ad blockers, offline) instead of failing silently. */
function watchGtagScript(): void {
  const script = document.querySelector<HTMLScriptElement>(`script[src^="${GTAG_URL_PREFIX}"]`);
  if (!script || watchedScripts.has(script)) return;
  watchedScripts.add(script);
  script.addEventListener('error', () => reportError('loading gtag.js', new Error(`could not load ${script.src}`)), {
    once: true,
  });
}

/**
 * Loads and initialises analytics once; resolves to whether analytics are ready. Callers must
 * only call it once consent is stored. Without a measurement id it does nothing. After a failed
 * load, queued page events wait and a later call tries again.
 */
export function loadAnalytics(): Promise<boolean> {
  const measurementId = env.gaMeasurementId;
  if (!measurementId || typeof window === 'undefined') return Promise.resolve(false);
  if (client) return Promise.resolve(true);
  if (!loading) {
    loading = import('react-ga4')
      .then((module) => {
        const ga: AnalyticsClient = module.default;
        ga.initialize(measurementId);
        watchGtagScript();
        client = ga;
        queue.splice(0).forEach((event) => send(ga, event));
        return true;
      })
      .catch((error: unknown) => {
        reportError('loading analytics', error);
        loading = null;
        return false;
      });
  }
  return loading;
}

/** The current page's parameters, as gtag's defaults read them: location.href and document.title. */
function currentPage(): PageParams {
  return { page_location: window.location.href, page_title: document.title };
}

/**
 * Sends a page event (homePage, projectsPage, …, or a project's name, contract/page-events.ts) when
 * consent is stored and a measurement id is configured; otherwise does nothing. `page` is the page
 * the event belongs to (default: the current one).
 */
export function sendPageEvent(name: string, page?: PageParams): void {
  if (!env.gaMeasurementId || typeof window === 'undefined' || !hasStoredConsent()) return;
  if (name.trim() === '') {
    reportError('sending a page event', new Error('the event name is empty'));
    return;
  }
  // The page is taken now, so a queued event still names the page it was sent from.
  const { project_title, ...params } = page ?? currentPage();
  const event: PageEvent = { name, params: project_title === undefined ? params : { ...params, project_title } };
  if (client) {
    send(client, event);
    return;
  }
  if (queue.length < QUEUE_LIMIT) queue.push(event);
  void loadAnalytics();
}

/** Test hook: forgets the loaded client and the queue. */
export function resetAnalyticsForTests(): void {
  client = null;
  loading = null;
  queue.length = 0;
}
