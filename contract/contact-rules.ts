/**
 * The contact form's rules: one module, imported by the browser form and by the contact Lambda,
 * so both apply the same checks, in the same order, with the same messages.
 * Plain TypeScript with no imports: it must bundle for the browser and for Node alike.
 */

export const CONTACT_MESSAGES = {
  invalidName: 'Please enter a valid full name.',
  invalidEmail: 'Please enter a valid email address.',
  invalidMessage: 'Please enter a valid message.',
  missingCaptcha: 'Please check the reCAPTCHA box.',
  sendFailed: 'Sorry, something went wrong. Please try again later.',
  sent: 'Your message was sent!',
} as const;

/** Limits beyond the form's minimums, so a message stays a message (and fits one mail). */
export const CONTACT_LIMITS = {
  /** The message must be longer than this many characters. */
  messageMinExclusive: 3,
  messageMax: 5000,
  nameMax: 100,
  emailMax: 254,
  captchaTokenMax: 4000,
} as const;

/**
 * One part of a name: starts with a letter of any script, then letters, combining marks (Arabic
 * and Hebrew vowel points too), apostrophes (straight or typographic), dots, and Hebrew's geresh
 * and gershayim (׳ ״: ז׳קלין, ד״ר); a hyphen or Hebrew's maqaf (־) may join parts (Anne-Marie,
 * בן־גוריון). The zero-width non-joiner and joiner are allowed inside a part because Persian and
 * Indic names are written with them (محمد‌رضا); none of these marks can start a part.
 * (Arabic's tatweel, ـ, is a letter to Unicode, so it needs no place here.)
 */
const NAME_PART = "\\p{L}[\\p{L}\\p{M}'\\u2019.\\u05F3\\u05F4\\u200C\\u200D]*";
const NAME_WORD = `${NAME_PART}(?:[-\\u05BE]${NAME_PART})*`;
/**
 * A first name and a last name, where either may have several words ("María José Núñez",
 * "Juan de la Cruz"): two or more name words, each separated from the next by one space.
 */
export const FULL_NAME_PATTERN = new RegExp(`^${NAME_WORD}(?: ${NAME_WORD})+$`, 'u');

/**
 * A simple address whose top-level part has 2 to 4 letters. Only characters that are
 * safe inside a mail header are allowed, so the address can become the Reply-To as it is.
 */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,4}$/;

/** The form's state as typed, and the captcha token (null until solved). */
export interface ContactDraft {
  fullName: string;
  email: string;
  message: string;
  captchaToken: string | null | undefined;
}

/** What is sent and mailed once every rule passes. */
export interface ContactMessage {
  fullName: string;
  email: string;
  message: string;
  captchaToken: string;
}

export type ContactField = 'fullName' | 'email' | 'message' | 'captcha';

export type ContactValidation = { ok: true; value: ContactMessage } | { ok: false; field: ContactField; error: string };

/** The same checks without the (English) messages: the browser shows each field's message in the page's language. */
export type ContactCheck = { ok: true; value: ContactMessage } | { ok: false; field: ContactField };

/**
 * The message of each failed check (the Lambda's 4xx answers use these). A function, not a table:
 * a browser bundle that uses checkContact alone then carries none of these English messages.
 */
function fieldMessage(field: ContactField): string {
  switch (field) {
    case 'fullName':
      return CONTACT_MESSAGES.invalidName;
    case 'email':
      return CONTACT_MESSAGES.invalidEmail;
    case 'message':
      return CONTACT_MESSAGES.invalidMessage;
    case 'captcha':
      return CONTACT_MESSAGES.missingCaptcha;
  }
}

// The checks accept unknown input: the Lambda feeds them parsed JSON, where a field may be any type.

export function isValidFullName(fullName: unknown): boolean {
  if (typeof fullName !== 'string') return false;
  const name = fullName.trim();
  return name.length <= CONTACT_LIMITS.nameMax && FULL_NAME_PATTERN.test(name);
}

export function isValidEmail(email: unknown): boolean {
  if (typeof email !== 'string') return false;
  const address = email.trim();
  return address.length <= CONTACT_LIMITS.emailMax && EMAIL_PATTERN.test(address);
}

/** Control and invisible format characters (NUL, zero-width space…), but not line breaks or tabs. */
const INVISIBLE = /(?![\n\t])[\p{Cc}\p{Cf}]/gu;

/**
 * Longer than 3 characters once trimmed, counting only characters a reader sees (four NULs or
 * zero-width spaces are not a message), and at most messageMax UTF-16 units (the textarea's maxlength).
 */
export function isValidMessage(message: unknown): boolean {
  if (typeof message !== 'string') return false;
  const text = message.trim();
  // Characters counted as a person does: one per code point, so an emoji is one, not two.
  const visible = [...text.replace(INVISIBLE, '').trim()];
  return visible.length > CONTACT_LIMITS.messageMinExclusive && text.length <= CONTACT_LIMITS.messageMax;
}

/**
 * What a reCAPTCHA token can look like: URL-safe base64 characters only. Anything else is refused
 * here, so the API never spends a metered siteverify call on a token no widget could have issued.
 */
export const CAPTCHA_TOKEN_PATTERN = /^[A-Za-z0-9_-]+$/;

export function isValidCaptchaToken(token: unknown): token is string {
  return (
    typeof token === 'string' && token.length > 0 && token.length <= CONTACT_LIMITS.captchaTokenMax && CAPTCHA_TOKEN_PATTERN.test(token)
  );
}

/**
 * Runs the four checks in order (name, email, message, captcha); the first failure stops.
 * On success the value is trimmed and ready to send.
 */
export function validateContact(draft: ContactDraft): ContactValidation {
  const result = checkContact(draft);
  return result.ok ? result : { ok: false, field: result.field, error: fieldMessage(result.field) };
}

/** validateContact's checks, naming the failed field only. */
export function checkContact(draft: ContactDraft): ContactCheck {
  if (!isValidFullName(draft.fullName)) return { ok: false, field: 'fullName' };
  if (!isValidEmail(draft.email)) return { ok: false, field: 'email' };
  if (!isValidMessage(draft.message)) return { ok: false, field: 'message' };
  if (!isValidCaptchaToken(draft.captchaToken)) return { ok: false, field: 'captcha' };
  return {
    ok: true,
    value: {
      fullName: draft.fullName.trim(),
      email: draft.email.trim(),
      message: draft.message.trim(),
      captchaToken: draft.captchaToken,
    },
  };
}

/** The JSON body the browser posts and the Lambda reads. */
export interface ContactRequestBody {
  fullName: string;
  email: string;
  message: string;
  'g-recaptcha-response': string;
}

export function toRequestBody(message: ContactMessage): ContactRequestBody {
  return {
    fullName: message.fullName,
    email: message.email,
    message: message.message,
    'g-recaptcha-response': message.captchaToken,
  };
}
