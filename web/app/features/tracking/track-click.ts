import { eventName, isValidEventName } from '../../../../contract/event-names';
import { CLICK_COUNTED_PROPERTY } from '../../../../contract/inline-scripts';
import { env } from '../../config/env';
import { postBeacon } from './beacon';

/**
 * Sends a click event such as PROJECT_VIEW_{TITLE} to the first-party events endpoint
 * (`/api/events`, counted as a CloudWatch metric): cookieless, no consent needed.
 */
export function trackClick(prefix: string, text?: string): void {
  // No endpoint (a preview build): nothing is counted.
  if (typeof window === 'undefined' || env.eventsEndpoint === '') return;
  // The click being handled (the DOM's `window.event`, https://dom.spec.whatwg.org/#dom-window-event)
  // was already sent by the page's boot script: it counted clicks until the app took over.
  const current = (window as { event?: Event }).event as (Event & Record<string, unknown>) | undefined;
  if (current?.[CLICK_COUNTED_PROPERTY]) return;
  const name = eventName(prefix, text);
  if (!isValidEventName(name)) return;
  postBeacon(env.eventsEndpoint, JSON.stringify({ name }));
}
