/**
 * Rules the deploy configuration and the owner's scripts share (the one place for them in infra/).
 * The mailbox rule is broader than the contact form's visitor rule (contract/contact-rules.ts): an
 * owner's address may have a long top-level domain such as .email or .studio.
 */

/** An AWS region name such as "eu-west-1" or "us-gov-west-1". */
export const AWS_REGION_PATTERN = /^[a-z]{2}(-[a-z]+)+-\d$/;

const MAILBOX = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** An address SES can send from or to (RFC 5321 length limit). */
export function isEmail(value: string): boolean {
  return value.length <= 254 && MAILBOX.test(value);
}

/** The domain part of an address, lower-cased: the SES domain identity that covers it. */
export function emailDomain(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}
