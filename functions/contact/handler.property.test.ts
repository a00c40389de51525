/**
 * Property tests over generated requests: whatever the method, headers, body or base64 flag,
 * the contact handler never answers 5xx for input, never crashes, and mails only (and exactly
 * once) when the request is a valid message. The oracle below is written independently of the
 * handler's own checks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateContact } from '../../contract/contact-rules';
import { apiEvent, lambdaContext } from '../shared/test-support';
import { contactFixture, jsonResponse, sesBehaviour, VALID_BODY, verifier } from './fixtures';
import { CONTACT_MAX_BODY_BYTES as MAX_BODY_BYTES } from '../../contract/limits';

const ctx = lambdaContext();

/** Any UTF-16 code unit, lone surrogates included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const wildString = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: anyUnit }));

const goodName = fc.constantFrom(
  'Jo Doe',
  "Zoë O'Brien",
  'Anne-Marie Dupont',
  'José Álvarez',
  'Dr. Who',
  '李 小龍',
  'María José Núñez',
  'Juan de la Cruz',
  "Jean-Luc O'Neil",
);
const goodEmail = fc.constantFrom('jo@example.com', 'a.b+c@sub.example.org', 'x_y%z@host.io');
const goodMessage = fc.string({ unit: 'binary', minLength: 4, maxLength: 300 }).filter((s) => s.trim().length > 3);
const token = fc.oneof(fc.constantFrom('tok', 'captcha-token-abc123'), wildString);

/** Mostly valid fields, so that a fair share of requests reach the mailing path. */
const mostly = <T>(good: fc.Arbitrary<T>, wild: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: wild });
const contactLike = fc.record({
  fullName: mostly(goodName, wildString),
  email: mostly(goodEmail, wildString),
  message: mostly(goodMessage, wildString),
  'g-recaptcha-response': token,
});

const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'fullname', 'extra');
const bodyValue = fc.oneof(
  { weight: 5, arbitrary: contactLike },
  { weight: 1, arbitrary: fc.tuple(contactLike, hostileKey, fc.jsonValue()).map(([o, k, v]) => ({ ...o, [k]: v })) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.constantFrom('fullName', 'email', 'message', 'g-recaptcha-response'), fc.jsonValue()),
  },
  { weight: 1, arbitrary: fc.jsonValue() },
);

const bodyText = fc.oneof(
  { weight: 6, arbitrary: bodyValue.map((value) => JSON.stringify(value) ?? '') },
  // Raw JSON with a literal __proto__ key, as an attacker would type it.
  { weight: 1, arbitrary: contactLike.map((o) => JSON.stringify(o).replace('{', '{"__proto__":{"polluted":1},')) },
  { weight: 1, arbitrary: wildString },
  // Now and then a body around the 32 KB limit.
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: MAX_BODY_BYTES - 300, max: MAX_BODY_BYTES + 300 })
      .map((size) => JSON.stringify({ ...VALID_BODY, message: 'm'.repeat(size - 200) })),
  },
);

const contentType = mostly(
  fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON;charset="UTF-8"'),
  fc.oneof(fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', ''), fc.string()),
);

const request = fc.record({
  method: mostly(fc.constant('POST'), fc.oneof(fc.constantFrom('GET', 'PUT', 'OPTIONS', 'HEAD', 'post'), fc.string())),
  contentType: fc.option(contentType, { nil: undefined, freq: 10 }),
  headerName: fc.constantFrom('content-type', 'Content-Type', 'CONTENT-TYPE'),
  otherHeaders: fc.dictionary(fc.string({ minLength: 1 }), fc.string()),
  body: fc.option(bodyText, { nil: undefined, freq: 10 }),
  base64: fc.constantFrom<'no' | 'yes' | 'garbage'>('no', 'no', 'yes', 'yes', 'garbage'),
  sourceIp: fc.oneof(fc.constant('203.0.113.9'), fc.string()),
});

type Request = typeof request extends fc.Arbitrary<infer T> ? T : never;

function toEvent(r: Request) {
  const headers: Record<string, string> = { ...r.otherHeaders };
  for (const key of Object.keys(headers)) if (key.toLowerCase() === 'content-type') delete headers[key];
  if (r.contentType !== undefined) headers[r.headerName] = r.contentType;
  let body = r.body;
  if (r.base64 === 'yes' && body !== undefined) body = Buffer.from(body, 'utf8').toString('base64');
  if (r.base64 === 'garbage' && body !== undefined) body = `${body}%`;
  return apiEvent({ method: r.method, headers, body, isBase64Encoded: r.base64 !== 'no', sourceIp: r.sourceIp });
}

/** Independent oracle: is this a request that deserves a mail? */
function deservesMail(r: Request): boolean {
  if (r.method !== 'POST' || r.contentType === undefined || r.base64 === 'garbage' || r.body === undefined) return false;
  const [type, ...params] = r.contentType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return false;
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return false;
  // Bytes as sent: a lone surrogate cannot be sent as UTF-8, it becomes U+FFFD.
  const sent = r.base64 === 'yes' ? Buffer.from(r.body, 'utf8').toString('utf8') : r.body;
  if (Buffer.byteLength(sent, 'utf8') > MAX_BODY_BYTES) return false;
  let value: unknown;
  try {
    value = JSON.parse(sent);
  } catch {
    return false;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value).sort();
  if (keys.join() !== ['email', 'fullName', 'g-recaptcha-response', 'message'].join()) return false;
  const v = value as Record<string, unknown>;
  if (![v.fullName, v.email, v.message, v['g-recaptcha-response']].every((x) => typeof x === 'string')) return false;
  return validateContact({
    fullName: v.fullName as string,
    email: v.email as string,
    message: v.message as string,
    captchaToken: v['g-recaptcha-response'] as string,
  }).ok;
}

describe('contact handler properties', () => {
  it('never answers 5xx to input, and mails exactly once exactly when the input is a valid message', async () => {
    let mailed = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const f = contactFixture();
        const result = await f.handler(toEvent(r), ctx);
        const status = result.statusCode ?? 0;
        expect(status).toBeGreaterThanOrEqual(200);
        expect(status).toBeLessThan(500);
        expect(result.headers?.['content-type']).toBe('application/json; charset=utf-8');
        expect(result.headers?.['cache-control']).toBe('no-store');
        const body = JSON.parse(result.body ?? '') as Record<string, unknown>;
        if (deservesMail(r)) {
          expect(status).toBe(200);
          expect(body).toEqual({ ok: true });
          expect(f.sesCalls).toHaveLength(1);
          const mail = f.sesCalls[0]!;
          expect(mail.Message?.Subject?.Data).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
          expect(mail.ReplyToAddresses).toHaveLength(1);
          expect(mail.ReplyToAddresses![0]).toMatch(/^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+$/);
          expect(mail.Destination).toEqual({ ToAddresses: ['owner@example.com'] });
          mailed += 1;
        } else {
          expect(status).toBeGreaterThanOrEqual(400);
          expect(typeof body.error).toBe('string');
          expect(f.sesCalls).toHaveLength(0);
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 600 },
    );
    // The generators must reach the mailing path often enough for the property to mean something.
    expect(mailed).toBeGreaterThan(20);
  });

  it('with a valid message, any verifier or SES failure gives 403 or 5xx and never more than one send', async () => {
    const verifiers = {
      passes: verifier.passes,
      refuses: () => verifier.refuses(),
      badSecret: () => verifier.refuses(['invalid-input-secret']),
      error500: () => Promise.resolve(jsonResponse({ success: true }, 500)),
      notJson: () => Promise.resolve(new Response('<html>', { status: 200 })),
      down: () => Promise.reject(new TypeError('fetch failed')),
      hangs: verifier.hangs,
    };
    const sesOutcomes = {
      accepts: sesBehaviour.accepts,
      rejects: sesBehaviour.fails('MessageRejected'),
      throttles: sesBehaviour.fails('Throttling'),
      hangs: sesBehaviour.hangs,
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(verifiers) as (keyof typeof verifiers)[])),
        fc.constantFrom(...(Object.keys(sesOutcomes) as (keyof typeof sesOutcomes)[])),
        async (v, s) => {
          const f = contactFixture({
            verify: verifiers[v],
            ses: sesOutcomes[s],
            timeouts: { verifyMs: 30, sesMs: 300, totalMs: 1_000 },
          });
          const result = await f.handler(apiEvent({ body: JSON.stringify(VALID_BODY) }), ctx);
          if (v === 'passes' && s === 'accepts') expect(result.statusCode).toBe(200);
          else if (v === 'refuses') expect(result.statusCode).toBe(403);
          else expect([502, 503, 504]).toContain(result.statusCode);
          // SES is asked once when the captcha passed, never otherwise.
          expect(f.sesCalls).toHaveLength(v === 'passes' ? 1 : 0);
        },
      ),
      { numRuns: 40 },
    );
  });
});
