import { eventName, isValidEventName } from '../../../../contract/event-names';
import { env } from '../../config/env';

/**
 * Where a beacon may carry `application/json`: same-origin only. Cross-origin, a non-safelisted
 * type would need a CORS preflight, which a beacon cannot do, so it goes as text/plain (the events
 * handler accepts both).
 */
function contentTypeFor(endpoint: string): string {
  try {
    const sameOrigin = new URL(endpoint, window.location.href).origin === window.location.origin;
    return sameOrigin ? 'application/json' : 'text/plain;charset=UTF-8';
  } catch {
    return 'text/plain;charset=UTF-8';
  }
}

/**
 * Sends a click event such as PROJECT_VIEW_{TITLE} to the first-party events endpoint
 * (`/api/events`, counted as a CloudWatch metric): cookieless, no consent needed. sendBeacon survives the navigation a click often
 * starts; when it is missing, refuses or throws, fetch with keepalive takes over. Nothing here may
 * break the click, so every failure is swallowed.
 */
export function trackClick(prefix: string, text?: string): void {
  if (typeof window === 'undefined') return;
  const name = eventName(prefix, text);
  if (!isValidEventName(name)) return;
  const endpoint = env.eventsEndpoint;
  const payload = JSON.stringify({ name });
  const type = contentTypeFor(endpoint);

  try {
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(endpoint, new Blob([payload], { type }))) {
      return;
    }
  } catch {
    // Some browsers and blockers throw from sendBeacon; fall through to fetch.
  }

  try {
    if (typeof fetch !== 'function') return;
    fetch(endpoint, {
      method: 'POST',
      body: payload,
      headers: { 'Content-Type': type },
      keepalive: true,
      credentials: 'omit',
    }).catch(() => {
      // A failing endpoint must never surface to the visitor.
    });
  } catch {
    // fetch itself threw synchronously (very old or locked-down browsers): nothing more to try.
  }
}
