import { eventName, isValidEventName } from '../../../../contract/event-names';
import { env } from '../../config/env';
import { postBeacon } from './beacon';

/**
 * Sends a click event such as PROJECT_VIEW_{TITLE} to the first-party events endpoint
 * (`/api/events`, counted as a CloudWatch metric): cookieless, no consent needed.
 */
export function trackClick(prefix: string, text?: string): void {
  if (typeof window === 'undefined') return;
  const name = eventName(prefix, text);
  if (!isValidEventName(name)) return;
  postBeacon(env.eventsEndpoint, JSON.stringify({ name }));
}
