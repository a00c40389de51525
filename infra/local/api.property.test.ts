/**
 * Property (issue 3): whatever method, headers and body reach the API through the local server,
 * the answer is never a 5xx, and nothing is mailed unless the input passes every rule. siteverify
 * (fake) passes every token, so only the handler's own checks stand between input and mailbox.
 */
import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { validateContact } from '../../contract/contact-rules';
import { startFakeSiteverify, type FakeSiteverify } from './fake-siteverify';
import { fetchMails } from './mailbox';
import { startLocalStack, type LocalStack } from './stack';
import { clearMailbox, fixtureBuild, send } from './test-support';

let stack: LocalStack;
let verifier: FakeSiteverify;
let buildDir: string;

beforeAll(async () => {
  verifier = await startFakeSiteverify('pass');
  const fixture = fixtureBuild();
  buildDir = fixture.buildDir;
  stack = await startLocalStack({ port: 0, sesPort: 0, clientDir: fixture.clientDir, recaptchaVerifyUrl: verifier.url, quiet: true });
});

afterAll(async () => {
  await stack?.stop();
  await verifier?.stop();
  rmSync(buildDir, { recursive: true, force: true });
});

const VALID = { fullName: 'Anne-Marie Dupont', email: 'am@example.fr', message: 'Bonjour, a message.', 'g-recaptcha-response': 'tok' };
const FIELDS = Object.keys(VALID) as (keyof typeof VALID)[];

/** Near-valid objects (one field broken, keys added) find more edges than random JSON alone. */
const mutatedContact = fc
  .record({
    field: fc.constantFrom(...FIELDS),
    value: fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 40 }), fc.anything(), fc.constant(null)),
    extra: fc.option(fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'x', 'toString'), fc.jsonValue())),
    drop: fc.boolean(),
  })
  .map(({ field, value, extra, drop }) => {
    const body: Record<string, unknown> = { ...VALID };
    if (drop) delete body[field];
    else body[field] = value;
    return extra ? Object.assign(JSON.parse(JSON.stringify(extra)) as object, body) : body;
  });

const bodyArb = fc.oneof(
  mutatedContact.map((o) => JSON.stringify(o)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a).toString('latin1')),
  fc.constant(''),
  fc.constant('{"__proto__":{"polluted":true},"fullName":"A B"}'),
);

const headerArb = fc.dictionary(
  fc.stringMatching(/^x-[a-z0-9-]{1,12}$/),
  fc.stringMatching(/^[\x20-\x7e]{0,40}$/).map((v) => v.trim()),
  { maxKeys: 3 },
);

const anyRequestArb = fc.record({
  method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
  path: fc.constantFrom('/api/contact', '/api/contact', '/api/events', '/api/contact?x=1', '/api/nope'),
  contentType: fc.option(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/json; charset=latin1',
      'garbage',
    ),
  ),
  headers: headerArb,
  body: bodyArb,
});

/** Requests shaped like the form's, valid or one field off: they reach the captcha and SES steps. */
const formRequestArb = fc.record({
  method: fc.constant('POST'),
  path: fc.constant('/api/contact'),
  contentType: fc.constant('application/json'),
  headers: headerArb,
  body: fc.oneof(
    { arbitrary: fc.constant(JSON.stringify(VALID)), weight: 1 },
    { arbitrary: mutatedContact.map((o) => JSON.stringify(o)), weight: 2 },
  ),
});

const requestArb = fc.oneof({ arbitrary: anyRequestArb, weight: 3 }, { arbitrary: formRequestArb, weight: 1 });

/** Valid means: would the browser form accept it, sent as the form sends it? */
function isValidContact(method: string, path: string, contentType: string | null, body: string): boolean {
  if (method !== 'POST' || !path.startsWith('/api/contact') || !contentType?.startsWith('application/json')) return false;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return false;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return false;
  const o = data as Record<string, unknown>;
  if (!FIELDS.every((f) => typeof o[f] === 'string')) return false;
  return validateContact({
    fullName: o.fullName as string,
    email: o.email as string,
    message: o.message as string,
    captchaToken: o['g-recaptcha-response'] as string,
  }).ok;
}

it('never answers 5xx and mails only valid messages', { timeout: 120_000 }, async () => {
  await clearMailbox(stack.sesUrl);
  let mailed = 0;
  let validSeen = 0;
  await fc.assert(
    fc.asyncProperty(requestArb, async ({ method, path, contentType, headers, body }) => {
      const reply = await send(stack.url, {
        method,
        path,
        headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
        body: method === 'GET' || method === 'HEAD' ? undefined : body,
      });
      expect(reply.status).toBeLessThan(500);
      const mails = (await fetchMails(stack.sesUrl)).length;
      const valid = isValidContact(method, path, contentType, body);
      if (valid) validSeen++;
      // At most one mail per request, and none at all for anything the rules refuse.
      expect(mails - mailed).toBeLessThanOrEqual(valid ? 1 : 0);
      mailed = mails;
    }),
    { numRuns: 150, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31), verbose: 1 },
  );
  // The generator must reach the mailing path, or the property proves little.
  expect(validSeen).toBeGreaterThan(0);
  expect(mailed).toBeGreaterThan(0);
});
