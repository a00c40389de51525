/**
 * Where a beacon may carry `application/json`: same-origin only. Cross-origin, a non-safelisted
 * type would need a CORS preflight, which a beacon cannot do, so it goes as text/plain (the events
 * and vitals handlers accept both).
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
 * Posts a JSON payload to a first-party endpoint with sendBeacon, which survives the navigation or
 * the closing tab that often comes next; when it is missing, refuses or throws, fetch with keepalive
 * takes over. No cookie goes with it (credentials omitted; the site sets none). Nothing here may
 * break the page, so every failure is swallowed.
 */
export function postBeacon(endpoint: string, payload: string): void {
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
