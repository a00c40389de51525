import type { ContactRequestBody } from '../../../../contract/contact-rules';

/** A request that hangs longer than this ends as a failure (the API itself answers within 10 s). */
export const CONTACT_TIMEOUT_MS = 15_000;

/**
 * Posts the contact message as JSON. Any 2xx is success and the body is never read;
 * a network failure, a timeout or any other status is failure. Never throws.
 */
export async function postContact(
  endpoint: string,
  body: ContactRequestBody,
  timeoutMs: number = CONTACT_TIMEOUT_MS,
): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
      credentials: 'same-origin',
    });
    return response.ok;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
