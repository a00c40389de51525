/**
 * Address helpers for the deploy configuration and the owner's scripts. The patterns themselves live in
 * contract/settings.ts, shared with the contact function and the site's build. The mailbox rule is
 * broader than the contact form's visitor rule (contract/contact-rules.ts): an owner's address may have
 * a long top-level domain such as .email or .studio.
 */
import { AWS_REGION_PATTERN, MAILBOX_ADDRESS_PATTERN } from '../../contract/settings';

export { AWS_REGION_PATTERN };

/** An address SES can send from or to (RFC 5321 length limit). */
export function isEmail(value: string): boolean {
  return value.length <= 254 && MAILBOX_ADDRESS_PATTERN.test(value);
}

/** The domain part of an address, lower-cased: the SES domain identity that covers it. */
export function emailDomain(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}
