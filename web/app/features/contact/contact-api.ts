import type { ContactRequestBody } from '../../../../contract/contact-rules';
import { isContentLanguage } from '../../../../contract/api-headers';

/** A request that hangs longer than this ends as a failure (the API itself answers within 10 s). */
export const CONTACT_TIMEOUT_MS = 15_000;

export interface ContactRequestOptions {
  /** One per message, reused when the same message is sent again: the server stores and mails it once. */
  idempotencyKey?: string;
  /** The page's language (`<html lang>`), sent as Content-Language so the owner's mail can name it. */
  language?: string;
  timeoutMs?: number;
}

/**
 * A new Idempotency-Key: a random UUID. crypto.randomUUID exists only in secure contexts (https,
 * localhost); elsewhere one is built from getRandomValues, which every browser has.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Posts the contact message as JSON. Any 2xx is success and the body is never read;
 * a network failure, a timeout or any other status is failure. Never throws.
 */
export async function postContact(endpoint: string, body: ContactRequestBody, options: ContactRequestOptions = {}): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? CONTACT_TIMEOUT_MS);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  // The header's form in the IETF draft: a Structured Field String, i.e. quoted.
  if (options.idempotencyKey) headers['Idempotency-Key'] = `"${options.idempotencyKey}"`;
  if (options.language && isContentLanguage(options.language)) headers['Content-Language'] = options.language;
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers,
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
