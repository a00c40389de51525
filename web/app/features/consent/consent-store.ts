/**
 * The visitor's cookie consent: localStorage key `cookieConsent` holds the string `true`
 * after Accept. Storage may be missing or throw (privacy modes, blocked storage, prerender in Node):
 * every failure reads as "no consent" and never crashes the page.
 */

export const CONSENT_STORAGE_KEY = 'cookieConsent';
export const CONSENT_GRANTED_VALUE = 'true';

const listeners = new Set<() => void>();
/** Remembers an Accept even when storage refuses to keep it, so the banner still closes for this visit. */
let acceptedThisVisit = false;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function hasStoredConsent(): boolean {
  if (acceptedThisVisit) return true;
  try {
    return storage()?.getItem(CONSENT_STORAGE_KEY) === CONSENT_GRANTED_VALUE;
  } catch {
    return false;
  }
}

/** Stores consent; returns whether it was persisted (false when storage refused it). */
export function storeConsent(): boolean {
  acceptedThisVisit = true;
  const store = storage();
  let persisted = false;
  try {
    store?.setItem(CONSENT_STORAGE_KEY, CONSENT_GRANTED_VALUE);
    persisted = store !== null;
  } catch {
    // Full or blocked: this visit still counts the Accept.
  }
  listeners.forEach((listener) => listener());
  return persisted;
}

/** For useSyncExternalStore: also follows consent given in another tab. */
export function subscribeToConsent(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === CONSENT_STORAGE_KEY) listener();
  };
  if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}

/** Test hook: forgets an in-memory Accept. */
export function resetConsentForTests(): void {
  acceptedThisVisit = false;
}
