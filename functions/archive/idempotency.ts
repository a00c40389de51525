/**
 * Idempotency-Key → archive id. The id is derived from the key alone, so two requests with one key
 * race for one item and DynamoDB's conditional put picks the winner; the hash of key and message
 * tells a repeat (same message: the first answer again) from a misuse (another message: 422).
 * The captcha token is left out of the hash: a visitor who presses Send again solves a new captcha.
 */
import { createHash } from 'node:crypto';
import type { ContactMessage } from '../../contract/contact-rules';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** A UUID (RFC 9562 version 8, the custom layout) made from the key's SHA-256. */
export function archiveIdForKey(key: string): string {
  const bytes = sha256(`archive-id\n${key}`).subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function idempotencyHash(key: string, message: Pick<ContactMessage, 'fullName' | 'email' | 'message'>): string {
  return sha256(JSON.stringify([key, message.fullName, message.email, message.message])).toString('hex');
}
