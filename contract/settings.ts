/**
 * Rules for the owner's settings that the site's build, the contact function and the stack's
 * configuration all check: one pattern per kind of value, so a value one of them accepts is never
 * refused by another.
 */

/**
 * Google's public reCAPTCHA v2 test keys, a pair: with them every captcha passes and the widget shows
 * a "for testing purposes only" banner. The only place they are written; everything else imports them.
 * Source: reCAPTCHA FAQ, "I'd like to run automated tests with reCAPTCHA. What should I do?"
 * https://developers.google.com/recaptcha/docs/faq#id-like-to-run-automated-tests-with-recaptcha.-what-should-i-do
 */
export const RECAPTCHA_TEST_SITE_KEY = '6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI';

/** The secret of the pair above (same FAQ): every token passes siteverify. Local stack and trial deploys only. */
export const RECAPTCHA_TEST_SECRET = '6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe';

/** A reCAPTCHA v2 site key. */
export const RECAPTCHA_SITE_KEY_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;

/** A GA4 measurement id, e.g. G-AB12CD34EF. */
export const GA_MEASUREMENT_ID_PATTERN = /^G-[A-Z0-9]{4,20}$/;

/**
 * An owner or sender address, as SES wants it for Source and ToAddresses: a bare address whose
 * characters cannot split a mail header (no spaces, <>, quotes, commas or semicolons). This is
 * the operator's address; a visitor's address follows the contact form's rule (contact-rules.ts).
 */
export const MAILBOX_ADDRESS_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** An AWS region name such as eu-west-1 or us-gov-west-1. */
export const AWS_REGION_PATTERN = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;
