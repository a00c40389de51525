import { eventName, isValidEventName } from '../../../../functions/shared/event-names';
import { env } from '../../config/env';

/**
 * Sends a click event to the first-party events endpoint (design §1): cookieless, no consent
 * needed. sendBeacon survives the navigation a click often starts; nothing it does may break
 * the click, so every failure is swallowed.
 */
export function trackClick(prefix: string, text?: string): void {
  const name = eventName(prefix, text);
  if (!isValidEventName(name)) return;
  try {
    const body = new Blob([JSON.stringify({ name })], { type: 'application/json' });
    if (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function') {
      navigator.sendBeacon(env.eventsEndpoint, body);
    }
  } catch {
    // A blocked or failing beacon must never break navigation.
  }
}
