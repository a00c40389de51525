/**
 * What the contact function can decide from the request alone, in order: method, content type,
 * size, JSON shape, then the form's rules. Also the visitor's IP hint for siteverify.
 */
import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { z } from 'zod';
import { API_REQUEST_HEADERS, isContentLanguage } from '../../contract/api-headers';
import { validateContact, type ContactMessage } from '../../contract/contact-rules';
import { CONTACT_MAX_BODY_BYTES } from '../../contract/limits';
import { viewerAddressIp } from '../shared/address';
import { checkJsonPost, errorResponse, getHeader, rejectRequest, type HttpResult, type RejectedRequest } from '../shared/http';
export { ipv6Prefix64, limitAddress, UNKNOWN_ADDRESS } from '../shared/address';

/**
 * The body's shape: exactly these four string fields. Strict, so any other key (`__proto__`,
 * `constructor`, a typo) is refused rather than ignored; zod builds a fresh object, so nothing
 * from the body is merged into a prototype. Arrays and null never get here (parseJsonObject).
 */
const ContactBody = z.strictObject({
  fullName: z.string(),
  email: z.string(),
  message: z.string(),
  'g-recaptcha-response': z.string(),
});

export type CheckedContact = { ok: true; message: ContactMessage } | RejectedRequest;

const SHAPE_ERROR =
  'The request body must be a JSON object with exactly the string fields fullName, email, message and g-recaptcha-response.';

/** Everything that can be decided from the request alone, in order: method, type, size, JSON, shape, rules. */
export function checkContactRequest(event: APIGatewayProxyEventV2): CheckedContact {
  const parsed = checkJsonPost(event, { contentTypes: ['application/json'], maxBytes: CONTACT_MAX_BODY_BYTES });
  if (!parsed.ok) return parsed;
  const shaped = ContactBody.safeParse(parsed.value);
  if (!shaped.success) return rejectRequest(400, SHAPE_ERROR, 'shape');
  const fields = shaped.data;
  const validation = validateContact({
    fullName: fields.fullName,
    email: fields.email,
    message: fields.message,
    captchaToken: fields['g-recaptcha-response'],
  });
  if (!validation.ok) return rejectRequest(400, validation.error, `invalid-${validation.field}`);
  return { ok: true, message: validation.value };
}

/**
 * The visitor's IP for siteverify's optional remoteip. Behind CloudFront, API Gateway's sourceIp is
 * the edge's address; CloudFront's own CloudFront-Viewer-Address header ("ip:port", "[v6]:port")
 * carries the visitor's. CloudFront adds it because the /api/* origin request policy names it
 * (infra/lib/api-origin-request-policy.ts, from contract/api-headers.ts). Only a hint to Google, so a
 * forged header gains nothing.
 */
export function sourceIp(event: APIGatewayProxyEventV2): string | undefined {
  const viewer = viewerAddressIp(getHeader(event, API_REQUEST_HEADERS.viewerAddress));
  if (viewer) return viewer;
  const ip: unknown = event?.requestContext?.http?.sourceIp;
  return typeof ip === 'string' && isIP(ip) !== 0 ? ip : undefined;
}

/**
 * Idempotency-Key (IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a Structured
 * Field String, e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"`. The bare form many clients send is
 * accepted too. Printable ASCII without quotes or backslashes, 1 to 255 characters; anything else
 * is a 400, so a broken client learns it at once rather than losing its protection silently.
 */
const IDEMPOTENCY_KEY = /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,255}$/;
export const MAX_IDEMPOTENCY_KEY_CHARS = 255;

export type IdempotencyKeyResult = { ok: true; key: string | undefined } | { ok: false; response: HttpResult };

export function readIdempotencyKey(event: APIGatewayProxyEventV2): IdempotencyKeyResult {
  const raw = getHeader(event, API_REQUEST_HEADERS.idempotencyKey);
  if (raw === undefined) return { ok: true, key: undefined };
  const trimmed = raw.trim();
  const quoted = /^"(.*)"$/s.exec(trimmed);
  const key = quoted ? quoted[1]! : trimmed;
  if (!IDEMPOTENCY_KEY.test(key) || key.trim() === '') {
    return {
      ok: false,
      response: errorResponse(
        400,
        `The Idempotency-Key header must be a quoted string of 1 to ${MAX_IDEMPOTENCY_KEY_CHARS} printable ASCII characters without quotes or backslashes, such as a UUID.`,
      ),
    };
  }
  return { ok: true, key };
}

/** The page's language from Content-Language, when it is one plain tag. */
export function readLanguage(event: APIGatewayProxyEventV2): string | undefined {
  const raw = getHeader(event, API_REQUEST_HEADERS.contentLanguage)?.trim();
  if (!raw || !isContentLanguage(raw)) return undefined;
  return raw;
}
