/**
 * Request and response plumbing shared by the Lambda handlers (API Gateway HTTP API, payload v2).
 * Every helper here is total: whatever the event holds, it returns a value, never throws, so a
 * broken request always ends as a 4xx answer instead of a crash.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { API_REQUEST_HEADERS, type ApiRequestHeader } from '../../contract/api-headers';

export type HttpResult = APIGatewayProxyStructuredResultV2;

/** Answers from the API are never cached, by the CDN or by the browser. */
const NO_STORE = 'no-store';
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': NO_STORE, ...headers },
    body: JSON.stringify(body),
  };
}

export function errorResponse(statusCode: number, error: string, headers: Record<string, string> = {}): HttpResult {
  return jsonResponse(statusCode, { error }, headers);
}

export function emptyResponse(statusCode: number): HttpResult {
  return { statusCode, headers: { 'cache-control': NO_STORE }, body: '' };
}

/** The request method, as API Gateway reports it ('' when the event lacks one). */
export function requestMethod(event: APIGatewayProxyEventV2): string {
  const method: unknown = event?.requestContext?.http?.method;
  return typeof method === 'string' ? method : '';
}

/**
 * A header by name, case-insensitively: API Gateway lowercases names, a local server or a test
 * might not. Repeated headers arrive joined with commas, which the callers treat as malformed.
 * Only names of contract/api-headers.ts: on AWS no other header reaches the functions.
 */
export function getHeader(event: APIGatewayProxyEventV2, name: ApiRequestHeader): string | undefined {
  const headers: unknown = event?.headers;
  if (headers === null || typeof headers !== 'object') return undefined;
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value: unknown = (headers as Record<string, unknown>)[key];
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

export interface MediaType {
  /** Lower-cased type/subtype, e.g. 'application/json'. */
  type: string;
  /** Lower-cased charset parameter, without quotes, when present. */
  charset?: string;
}

/** Parses a Content-Type value (RFC 9110 §8.3.1); undefined when absent or malformed. */
export function parseMediaType(value: string | undefined): MediaType | undefined {
  if (value === undefined) return undefined;
  const [essence = '', ...params] = value.split(';');
  const type = essence.trim().toLowerCase();
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type)) return undefined;
  const media: MediaType = { type };
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    const key = param.slice(0, eq).trim().toLowerCase();
    if (key !== 'charset') continue;
    media.charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return media;
}

/**
 * True when the Content-Type is one of the accepted types, with no charset or UTF-8 (the only
 * encoding the handlers decode).
 */
export function hasAcceptedContentType(event: APIGatewayProxyEventV2, accepted: readonly string[]): boolean {
  const media = parseMediaType(getHeader(event, API_REQUEST_HEADERS.contentType));
  if (!media || !accepted.includes(media.type)) return false;
  return media.charset === undefined || media.charset === 'utf-8' || media.charset === 'utf8';
}

export type BodyResult = { ok: true; text: string } | { ok: false; statusCode: 400 | 413; error: string };

const STRICT_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The request body as text, at most maxBytes bytes after base64 decoding (API Gateway encodes
 * bodies it considers binary). Oversized bodies are refused before they are decoded.
 */
export function readBody(event: APIGatewayProxyEventV2, maxBytes: number): BodyResult {
  const raw: unknown = event?.body;
  if (raw === undefined || raw === null || raw === '') return { ok: true, text: '' };
  if (typeof raw !== 'string') return { ok: false, statusCode: 400, error: 'The request body must be text.' };
  const tooLarge = { ok: false, statusCode: 413, error: `The request body must be at most ${maxBytes} bytes.` } as const;

  if (event.isBase64Encoded === true) {
    // 4 base64 characters carry 3 bytes: anything longer than this cannot decode to maxBytes.
    if (raw.length > Math.ceil(maxBytes / 3) * 4) return tooLarge;
    if (raw.length % 4 !== 0 || !STRICT_BASE64.test(raw)) {
      return { ok: false, statusCode: 400, error: 'The request body is not valid base64.' };
    }
    const bytes = Buffer.from(raw, 'base64');
    if (bytes.length > maxBytes) return tooLarge;
    try {
      return { ok: true, text: utf8.decode(bytes) };
    } catch {
      return { ok: false, statusCode: 400, error: 'The request body is not valid UTF-8.' };
    }
  }

  // A UTF-16 code unit never takes less than one UTF-8 byte, so the length is a cheap lower bound.
  if (raw.length > maxBytes || Buffer.byteLength(raw, 'utf8') > maxBytes) return tooLarge;
  return { ok: true, text: raw };
}

export type JsonObjectResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Parses text that must be one JSON object (not an array, null or a primitive). */
export function parseJsonObject(text: string): JsonObjectResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'The request body must be JSON.' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'The request body must be a JSON object.' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * Reads exactly the given string fields from a parsed object: no field missing, none of another
 * type, no other key (so `__proto__`, `constructor` and friends are refused, never merged). Only
 * own properties are read, and the result is a fresh prototype-less object.
 */
export function pickStringFields<K extends string>(value: Record<string, unknown>, fields: readonly K[]): Record<K, string> | undefined {
  const keys = Object.keys(value);
  if (keys.length !== fields.length) return undefined;
  const allowed: readonly string[] = fields;
  if (!keys.every((key) => allowed.includes(key))) return undefined;
  const picked = Object.create(null) as Record<K, string>;
  for (const field of fields) {
    if (!Object.prototype.hasOwnProperty.call(value, field)) return undefined;
    const fieldValue = value[field];
    if (typeof fieldValue !== 'string') return undefined;
    picked[field] = fieldValue;
  }
  return picked;
}

/** A request refused: the answer, and the reason the handler logs (outcome `rejected-<reason>`). */
export interface RejectedRequest {
  ok: false;
  response: HttpResult;
  reason: string;
}

export function rejectRequest(statusCode: number, error: string, reason: string, headers?: Record<string, string>): RejectedRequest {
  return { ok: false, response: errorResponse(statusCode, error, headers), reason };
}

/**
 * What every POST /api/* handler checks first, in this order: the method (405), the content type
 * (415), the body's size and encoding (413, 400), one JSON object (400). The handler then checks
 * the object's shape and rules itself.
 */
export function checkJsonPost(
  event: APIGatewayProxyEventV2,
  accepted: { contentTypes: readonly string[]; maxBytes: number },
): { ok: true; value: Record<string, unknown> } | RejectedRequest {
  if (requestMethod(event) !== 'POST') return rejectRequest(405, 'Only POST is allowed.', 'method', { allow: 'POST' });
  if (!hasAcceptedContentType(event, accepted.contentTypes)) {
    return rejectRequest(415, `The request must be sent as ${accepted.contentTypes.join(' or ')} (UTF-8).`, 'content-type');
  }
  const body = readBody(event, accepted.maxBytes);
  if (!body.ok) return rejectRequest(body.statusCode, body.error, body.statusCode === 413 ? 'too-large' : 'body');
  const parsed = parseJsonObject(body.text);
  if (!parsed.ok) return rejectRequest(400, parsed.error, 'json');
  return parsed;
}
