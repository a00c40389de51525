/**
 * Asks reCAPTCHA's siteverify whether a token is good. The answer is classified so the handler
 * can tell the visitor's fault (a refused token: 4xx) from ours or Google's (5xx), and a slow
 * verifier can never hold the request: the call, body included, is bounded by timeoutMs.
 */
import { parseJsonObject } from '../shared/http';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export type VerifyOutcome =
  | { kind: 'passed' }
  /** The token was refused: unsolved, expired, reused or forged. */
  | { kind: 'refused'; errorCodes: string[] }
  /** siteverify says our own request is wrong (bad secret): an operator problem. */
  | { kind: 'misconfigured'; errorCodes: string[] }
  /**
   * Google speaks of the owner's quota, billing or keys: over the free monthly quota (HTTP 429, or an
   * error code about quota or billing), `invalid-keys`, or a `success: true` that still carries error
   * codes (an answer given at the cap, not a verdict on the token). Never the visitor's fault.
   */
  | { kind: 'owner-action'; reason: 'quota' | 'keys' | 'success-with-errors'; errorCodes: string[]; httpStatus?: number }
  | { kind: 'unavailable'; reason: 'timeout' | 'network' | 'http-status' | 'bad-response'; httpStatus?: number };

export interface VerifyRequest {
  fetch: FetchLike;
  url: string;
  secret: string;
  token: string;
  /** The visitor's IP, passed along as siteverify's optional remoteip. */
  remoteIp?: string;
  timeoutMs: number;
}

/**
 * Error codes that blame our request, not the visitor's token (the others: missing-input-response,
 * invalid-input-response, timeout-or-duplicate). Source: the error code reference of reCAPTCHA,
 * "Verifying the user's response": https://developers.google.com/recaptcha/docs/verify
 */
const OPERATOR_ERROR_CODES = new Set(['missing-input-secret', 'invalid-input-secret', 'bad-request']);
/**
 * The error code of a project over its free quota without billing ("Over Enterprise free quota.
 * Please ensure your project has an active billing account: …"), matched loosely, since its text
 * carries a link and may change.
 */
const QUOTA_ERROR = /\bquota\b|\bbilling\b/i;
/** siteverify answers a few hundred bytes; anything far larger is not siteverify. */
const MAX_RESPONSE_CHARS = 16_384;

export async function verifyCaptcha(request: VerifyRequest): Promise<VerifyOutcome> {
  const form = new URLSearchParams({ secret: request.secret, response: request.token });
  if (request.remoteIp) form.set('remoteip', request.remoteIp);

  let text: string;
  let status: number;
  try {
    const response = await request.fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(request.timeoutMs),
      redirect: 'error',
    });
    status = response.status;
    // The same signal still bounds reading the body: a verifier that stalls mid-body times out too.
    text = await response.text();
  } catch (error) {
    const name = (error as { name?: unknown } | null)?.name;
    return { kind: 'unavailable', reason: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network' };
  }

  // Over the project's monthly quota "any new request returns an HTTP error with a Resource Exhausted
  // (429) status code" (reCAPTCHA, "Quotas": https://docs.cloud.google.com/recaptcha/quotas).
  if (status === 429) return { kind: 'owner-action', reason: 'quota', errorCodes: [], httpStatus: status };
  if (status < 200 || status > 299) return { kind: 'unavailable', reason: 'http-status', httpStatus: status };
  if (text.length > MAX_RESPONSE_CHARS) return { kind: 'unavailable', reason: 'bad-response', httpStatus: status };

  const parsed = parseJsonObject(text);
  const body = parsed.ok ? parsed.value : {};
  const { success, 'error-codes': rawCodes } = body;
  if (typeof success !== 'boolean') return { kind: 'unavailable', reason: 'bad-response', httpStatus: status };
  const errorCodes = Array.isArray(rawCodes)
    ? rawCodes
        .filter((code): code is string => typeof code === 'string')
        .map((code) => code.slice(0, 200))
        .slice(0, 10)
    : [];
  if (errorCodes.some((code) => QUOTA_ERROR.test(code))) return { kind: 'owner-action', reason: 'quota', errorCodes };
  if (errorCodes.includes('invalid-keys')) return { kind: 'owner-action', reason: 'keys', errorCodes };
  // A pass that carries errors is not a verdict on the token: it is never let through to SES.
  if (success) return errorCodes.length > 0 ? { kind: 'owner-action', reason: 'success-with-errors', errorCodes } : { kind: 'passed' };
  if (errorCodes.some((code) => OPERATOR_ERROR_CODES.has(code))) return { kind: 'misconfigured', errorCodes };
  return { kind: 'refused', errorCodes };
}
