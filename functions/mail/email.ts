/**
 * Turns a validated contact message into one SES v1 SendEmail request for the owner.
 *
 * Nothing the visitor typed can reach a mail header except through two guarded paths: the
 * Reply-To address (already held to a header-safe pattern by the shared rules, checked again
 * here) and the subject (control and line-separator characters stripped, length capped; SES
 * encodes the rest as a MIME encoded-word). In the HTML body every visitor-supplied character
 * that means something to HTML is escaped; the text body is plain text, shown as such, so it is
 * only cleaned of control characters.
 */
import type { SendEmailCommandInput } from '@aws-sdk/client-ses';
import type { ContactMessage } from '../../contract/contact-rules';

/** How many characters of the visitor's name the subject may carry. */
export const SUBJECT_NAME_MAX = 80;
const SUBJECT_PREFIX = 'Portfolio contact from ';

/** A half of a surrogate pair without its other half: not encodable as UTF-8 (the SDK would throw). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Everything that must never reach a header: controls (C0, DEL, C1, CR/LF included), format
 * characters (bidi overrides, zero-width joiners) and the Unicode line and paragraph separators. */
const HEADER_UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
/** In a body, keep line feeds and tabs; drop other controls and the bidi overrides that can disguise text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const BODY_UNSAFE = /[\0-\x08\x0B-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069]/g;

export function replaceLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** The visitor's name, safe for a one-line header value: no control or separator character, capped. */
export function headerSafe(text: string, maxChars: number): string {
  const cleaned = replaceLoneSurrogates(text).replace(HEADER_UNSAFE, '').replace(/\s+/gu, ' ').trim();
  const chars = Array.from(cleaned); // by code point, so a cap never splits a surrogate pair
  return chars.length <= maxChars ? cleaned : `${chars.slice(0, maxChars - 1).join('')}…`;
}

/** Body text: line endings unified to \n, U+2028/9 turned into line feeds, other controls dropped. */
export function bodySafe(text: string): string {
  return replaceLoneSurrogates(text)
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(BODY_UNSAFE, '');
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
  '=': '&#61;',
};

/** Escapes every character with a meaning in HTML text or attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`=]/g, (char) => HTML_ESCAPES[char] ?? char);
}

export function subjectFor(fullName: string): string {
  return `${SUBJECT_PREFIX}${headerSafe(fullName, SUBJECT_NAME_MAX)}`;
}

/** Only what the shared email rule lets through, checked again because this becomes a header. */
const REPLY_TO_SAFE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+$/;

export interface MailAddresses {
  ownerEmail: string;
  senderEmail: string;
}

/** "Written from the Spanish page (es)": the page's language in English, with the tag itself. */
export function languageLine(language: string | undefined): string | undefined {
  if (!language) return undefined;
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames(['en'], { type: 'language' }).of(language);
  } catch {
    name = undefined; // a well-formed tag Intl does not know: name the tag alone
  }
  return name && name !== language ? `Written from the ${name} page (${language})` : `Written from the page in ${language}`;
}

/** What the mail shows of a message: the captcha token was spent on the way in and is not part of it. */
export type MailedMessage = Pick<ContactMessage, 'fullName' | 'email' | 'message'>;

export function buildContactEmail(
  message: MailedMessage,
  addresses: MailAddresses,
  receivedAt: Date,
  language?: string,
): SendEmailCommandInput {
  if (!REPLY_TO_SAFE.test(message.email)) {
    // Unreachable after validateContact; refusing here keeps a future rule change from opening headers.
    throw new TypeError('The reply-to address holds characters that are not allowed in a header');
  }
  const name = bodySafe(message.fullName).replace(/\n/g, ' ');
  const text = bodySafe(message.message);
  const received = receivedAt.toISOString();
  // The tag passed the header pattern (letters, digits, hyphens); escaped all the same.
  const written = languageLine(language);

  const textBody = [
    'New message from your portfolio contact form.',
    '',
    `Name: ${name}`,
    `Email: ${message.email}`,
    `Received: ${received}`,
    ...(written ? [written] : []),
    '',
    'Message:',
    text,
    '',
    '-- ',
    "Reply to this mail to answer the visitor: Reply-To is set to the visitor's address.",
  ].join('\n');

  const htmlBody = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><title>New contact message</title></head>',
    '<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">',
    '<h1 style="font-size:18px">New message from your portfolio contact form</h1>',
    '<table role="presentation" style="border-collapse:collapse">',
    `<tr><th style="text-align:left;padding-right:12px">Name</th><td>${escapeHtml(name)}</td></tr>`,
    `<tr><th style="text-align:left;padding-right:12px">Email</th><td>${escapeHtml(message.email)}</td></tr>`,
    `<tr><th style="text-align:left;padding-right:12px">Received</th><td>${received}</td></tr>`,
    ...(written ? [`<tr><th style="text-align:left;padding-right:12px">Language</th><td>${escapeHtml(written)}</td></tr>`] : []),
    '</table>',
    '<h2 style="font-size:16px">Message</h2>',
    `<div style="white-space:pre-wrap;border-left:3px solid #ccc;padding-left:12px">${escapeHtml(text)}</div>`,
    '<p style="color:#555;font-size:12px">Reply to this mail to answer the visitor: Reply-To is set to the visitor\'s address.</p>',
    '</body></html>',
  ].join('\n');

  return {
    Source: addresses.senderEmail,
    Destination: { ToAddresses: [addresses.ownerEmail] },
    ReplyToAddresses: [message.email],
    Message: {
      Subject: { Data: subjectFor(message.fullName), Charset: 'UTF-8' },
      Body: {
        Text: { Data: textBody, Charset: 'UTF-8' },
        Html: { Data: htmlBody, Charset: 'UTF-8' },
      },
    },
  };
}
