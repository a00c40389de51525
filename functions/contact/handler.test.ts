import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES } from '../../contract/contact-rules';
import { lambdaContext, sleep } from '../shared/test-support';
import {
  bodyOf,
  contactEvent,
  contactFixture,
  jsonResponse,
  NOW,
  OWNER,
  SECRET,
  SENDER,
  sesBehaviour,
  VALID_BODY,
  verifier,
  VERIFY_URL,
} from './fixtures';
import { CONTACT_MAX_BODY_BYTES as MAX_BODY_BYTES } from '../../contract/limits';
import { createMisconfiguredContactHandler } from './flow';
import { checkContactRequest } from './request';
import { cachedSecret } from './secret';
import { RecordingLogger, RecordingMetrics } from '../shared/test-support';

const ctx = lambdaContext();

function expectJsonHeaders(result: { headers?: Record<string, unknown> }): void {
  expect(result.headers?.['content-type']).toBe('application/json; charset=utf-8');
  expect(result.headers?.['cache-control']).toBe('no-store');
}

describe('contact handler: the request itself', () => {
  it.each(['GET', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'post'])('answers %s with 405 and Allow: POST', async (method) => {
    const f = contactFixture();
    const result = await f.handler(contactEvent(VALID_BODY, { method }), ctx);
    expect(result.statusCode).toBe(405);
    expect(result.headers?.allow).toBe('POST');
    expectJsonHeaders(result);
    expect(bodyOf(result).error).toEqual(expect.any(String));
    expect(f.verifyCalls).toHaveLength(0);
    expect(f.sesCalls).toHaveLength(0);
  });

  it.each([
    ['no content type', undefined],
    ['text/plain', 'text/plain'],
    ['form encoded', 'application/x-www-form-urlencoded'],
    ['a look-alike type', 'application/jsonp'],
    ['another charset', 'application/json; charset=iso-8859-1'],
    ['a malformed value', ';;;'],
  ])('answers 415 for %s', async (_label, contentType) => {
    const f = contactFixture();
    const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
    const result = await f.handler(contactEvent(VALID_BODY, { headers }), ctx);
    expect(result.statusCode).toBe(415);
    expectJsonHeaders(result);
    expect(f.sesCalls).toHaveLength(0);
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON; Charset="UTF-8"', 'application/json;charset=utf8'])(
    'accepts the content type %s',
    async (contentType) => {
      const f = contactFixture();
      const result = await f.handler(contactEvent(VALID_BODY, { headers: { 'Content-Type': contentType } }), ctx);
      expect(result.statusCode).toBe(200);
    },
  );

  it('answers 413 to a body over 32 KB, plain or base64, before anything else runs', async () => {
    const f = contactFixture();
    const big = JSON.stringify({ ...VALID_BODY, message: 'x'.repeat(MAX_BODY_BYTES) });
    expect((await f.handler(contactEvent(big), ctx)).statusCode).toBe(413);
    const big64 = Buffer.from(big).toString('base64');
    expect((await f.handler(contactEvent(big64, { isBase64Encoded: true }), ctx)).statusCode).toBe(413);
    // Multi-byte characters count as bytes, not as characters.
    const wide = JSON.stringify({ ...VALID_BODY, message: 'é'.repeat(MAX_BODY_BYTES / 2) });
    expect(wide.length).toBeLessThan(MAX_BODY_BYTES + 200);
    expect((await f.handler(contactEvent(wide), ctx)).statusCode).toBe(413);
    expect(f.verifyCalls).toHaveLength(0);
    expect(f.sesCalls).toHaveLength(0);
  });

  it('takes a body of exactly 32 KB as far as the rules (then 400, not 413)', async () => {
    const f = contactFixture();
    const base = JSON.stringify({ ...VALID_BODY, message: '' });
    const exact = JSON.stringify({ ...VALID_BODY, message: 'y'.repeat(MAX_BODY_BYTES - Buffer.byteLength(base)) });
    expect(Buffer.byteLength(exact)).toBe(MAX_BODY_BYTES);
    const result = await f.handler(contactEvent(exact), ctx);
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result).error).toBe(CONTACT_MESSAGES.invalidMessage); // over the 5000-character rule
  });

  it('decodes a base64 body as API Gateway sends it', async () => {
    const f = contactFixture();
    const encoded = Buffer.from(JSON.stringify(VALID_BODY)).toString('base64');
    const result = await f.handler(contactEvent(encoded, { isBase64Encoded: true }), ctx);
    expect(result.statusCode).toBe(200);
    expect(f.sesCalls).toHaveLength(1);
  });

  it.each([
    ['empty', '', false],
    ['not JSON', 'fullName=Jo+Doe', false],
    ['truncated JSON', '{"fullName": "Jo Doe"', false],
    ['invalid base64', '%%%not-base64%%%', true],
    ['base64 of invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64'), true],
    ['a deeply nested array', '['.repeat(16_000) + ']'.repeat(16_000), false],
  ])('answers 400 to a body that is %s', async (_label, body, isBase64Encoded) => {
    const f = contactFixture();
    const result = await f.handler(contactEvent(body, { isBase64Encoded }), ctx);
    expect(result.statusCode).toBe(400);
    expectJsonHeaders(result);
    expect(bodyOf(result).error).toEqual(expect.any(String));
    expect(f.sesCalls).toHaveLength(0);
  });
});

describe('contact handler: the shape of the body', () => {
  const { fullName, email, message } = VALID_BODY;
  const token = VALID_BODY['g-recaptcha-response'];
  it.each([
    ['an array', [VALID_BODY]],
    ['null', null],
    ['a number', 42],
    ['a string', 'hello'],
    ['true', true],
    ['a missing field', { fullName, email, message }],
    ['an extra field', { ...VALID_BODY, phone: '123' }],
    ['a number field', { ...VALID_BODY, message: 12345 }],
    ['a null field', { ...VALID_BODY, 'g-recaptcha-response': null }],
    ['a nested object', { ...VALID_BODY, fullName: { first: 'Jo', last: 'Doe' } }],
    ['an array field', { ...VALID_BODY, email: [email] }],
    ['misspelt keys', { fullname: fullName, email, message, 'g-recaptcha-response': token }],
  ])('answers 400 {error} to %s', async (_label, body) => {
    const f = contactFixture();
    const result = await f.handler(contactEvent(body), ctx);
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result).error).toMatch(/JSON/);
    expect(f.verifyCalls).toHaveLength(0);
    expect(f.sesCalls).toHaveLength(0);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses a %s key and pollutes nothing', async (key) => {
    const f = contactFixture();
    const raw = `{"fullName":"Jo Doe","email":"jo@example.com","message":"Hello there","g-recaptcha-response":"t","${key}":{"polluted":"yes","fullName":"Ann Lee"}}`;
    const result = await f.handler(contactEvent(raw), ctx);
    expect(result.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(f.sesCalls).toHaveLength(0);
  });

  it('does not read fields from the prototype chain', () => {
    // A `__proto__` key replacing the four fields must not make them "present".
    const raw = `{"__proto__":{"fullName":"Jo Doe","email":"jo@example.com","message":"Hello","g-recaptcha-response":"t"},"a":"1","b":"2","c":"3"}`;
    expect(checkContactRequest(contactEvent(raw)).ok).toBe(false);
  });
});

describe('contact handler: the form rules, as the browser applies them', () => {
  it.each([
    ['fullName', { fullName: 'Madonna' }, CONTACT_MESSAGES.invalidName],
    ['fullName', { fullName: 'Jo  Doe' }, CONTACT_MESSAGES.invalidName],
    ['fullName', { fullName: 'Juan de la  Cruz' }, CONTACT_MESSAGES.invalidName],
    ['fullName', { fullName: 'Juan de la Cruz 3' }, CONTACT_MESSAGES.invalidName],
    ['fullName', { fullName: 'Juan de <i>la</i> Cruz' }, CONTACT_MESSAGES.invalidName],
    ['fullName', { fullName: 'R2 D2' }, CONTACT_MESSAGES.invalidName],
    ['fullName', { fullName: 'Jo Doe\r\nBcc: x@evil.test' }, CONTACT_MESSAGES.invalidName],
    ['email', { email: 'not-an-address' }, CONTACT_MESSAGES.invalidEmail],
    ['email', { email: 'jo@example.museum' }, CONTACT_MESSAGES.invalidEmail],
    ['email', { email: 'jo@example.com\r\nBcc: x@evil.test' }, CONTACT_MESSAGES.invalidEmail],
    ['email', { email: '"Jo" <jo@example.com>' }, CONTACT_MESSAGES.invalidEmail],
    ['email', { email: 'a@b.com,c@d.com' }, CONTACT_MESSAGES.invalidEmail],
    ['message', { message: 'Hey' }, CONTACT_MESSAGES.invalidMessage],
    ['message', { message: '   Hey    ' }, CONTACT_MESSAGES.invalidMessage],
    ['captcha', { 'g-recaptcha-response': '' }, CONTACT_MESSAGES.missingCaptcha],
  ])('answers 400 with the form message for a bad %s', async (_field, change, error) => {
    const f = contactFixture();
    const result = await f.handler(contactEvent({ ...VALID_BODY, ...change }), ctx);
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result)).toEqual({ error });
    expect(f.verifyCalls).toHaveLength(0);
    expect(f.sesCalls).toHaveLength(0);
  });

  it('applies the rules in order (name, email, message, captcha): the first failure wins', async () => {
    const f = contactFixture();
    const allBad = { fullName: 'x', email: 'y', message: 'z', 'g-recaptcha-response': '' };
    expect(bodyOf(await f.handler(contactEvent(allBad), ctx)).error).toBe(CONTACT_MESSAGES.invalidName);
    const nameOk = { ...allBad, fullName: 'Jo Doe' };
    expect(bodyOf(await f.handler(contactEvent(nameOk), ctx)).error).toBe(CONTACT_MESSAGES.invalidEmail);
    const emailOk = { ...nameOk, email: 'jo@example.com' };
    expect(bodyOf(await f.handler(contactEvent(emailOk), ctx)).error).toBe(CONTACT_MESSAGES.invalidMessage);
    const messageOk = { ...emailOk, message: 'Hello there' };
    expect(bodyOf(await f.handler(contactEvent(messageOk), ctx)).error).toBe(CONTACT_MESSAGES.missingCaptcha);
  });

  it.each([
    "Zoë O'Brien",
    'Anne-Marie Dupont',
    'Dr. Who',
    'Иван Петров',
    'María José Núñez',
    'Lucía Fernández García',
    'Juan de la Cruz',
    "Jean-Luc O'Neil",
  ])('accepts the name %s and mails it as typed', async (fullName) => {
    const f = contactFixture();
    expect((await f.handler(contactEvent({ ...VALID_BODY, fullName }), ctx)).statusCode).toBe(200);
    expect(f.sesCalls).toHaveLength(1);
    expect(JSON.stringify(f.sesCalls[0])).toContain(JSON.stringify(fullName).slice(1, -1));
  });
});

describe('contact handler: captcha verification', () => {
  it('posts secret, token and the visitor IP as a form to RECAPTCHA_VERIFY_URL', async () => {
    const f = contactFixture();
    await f.handler(contactEvent(VALID_BODY, { sourceIp: '198.51.100.23' }), ctx);
    expect(f.verifyCalls).toHaveLength(1);
    const call = f.verifyCalls[0]!;
    expect(call.url).toBe(VERIFY_URL);
    expect(call.init.method).toBe('POST');
    expect((call.init.headers as Record<string, string>)['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(call.form)).toEqual({
      secret: SECRET,
      response: VALID_BODY['g-recaptcha-response'],
      remoteip: '198.51.100.23',
    });
    expect(call.init.signal).toBeInstanceOf(AbortSignal);
  });

  it.each([
    ['203.0.113.7:46532', '203.0.113.7'],
    ['[2001:db8::1]:443', '2001:db8::1'],
  ])('behind CloudFront, passes the viewer address %s as remoteip %s, not the edge IP', async (header, ip) => {
    const f = contactFixture();
    const event = contactEvent(VALID_BODY, { sourceIp: '130.176.0.10' });
    event.headers['cloudfront-viewer-address'] = header;
    await f.handler(event, ctx);
    expect(f.verifyCalls[0]!.form.get('remoteip')).toBe(ip);
  });

  it('ignores a malformed viewer address and falls back to the source IP', async () => {
    const f = contactFixture();
    const event = contactEvent(VALID_BODY, { sourceIp: '198.51.100.23' });
    event.headers['cloudfront-viewer-address'] = 'not-an-ip:80';
    await f.handler(event, ctx);
    expect(f.verifyCalls[0]!.form.get('remoteip')).toBe('198.51.100.23');
  });

  it('answers a refused token with 403 and the captcha message, and mails nothing', async () => {
    const f = contactFixture({ verify: () => verifier.refuses(['timeout-or-duplicate']) });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(403);
    expect(bodyOf(result)).toEqual({ error: CONTACT_MESSAGES.missingCaptcha });
    expect(f.sesCalls).toHaveLength(0);
    expect(f.metrics.names()).toEqual(['ContactCaptchaRefused']);
  });

  it('answers 503 when siteverify blames our secret (an operator problem, not the visitor)', async () => {
    const f = contactFixture({ verify: () => verifier.refuses(['invalid-input-secret']) });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(503);
    expect(bodyOf(result)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
    expect(f.sesCalls).toHaveLength(0);
  });

  it.each([
    ['answers 500', () => Promise.resolve(jsonResponse({ success: true }, 500)), 502],
    ['answers HTML', () => Promise.resolve(new Response('<html>oops</html>', { status: 200 })), 502],
    ['answers JSON without success', () => Promise.resolve(jsonResponse({ ok: true })), 502],
    ['answers success as a string', () => Promise.resolve(jsonResponse({ success: 'true' })), 502],
    ['is unreachable', () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })), 502],
  ])('gives 5xx with the form failure message and no mail when the verifier %s', async (_label, verify, status) => {
    const f = contactFixture({ verify });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(status);
    expectJsonHeaders(result);
    expect(bodyOf(result)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
    expect(f.sesCalls).toHaveLength(0);
    expect(f.metrics.names()).toEqual(['ContactMessageFailed']);
    const failure = f.logger.lines.find((line) => line.level === 'error');
    expect(failure?.fields).toMatchObject({ requestId: 'api-request-1', awsRequestId: 'lambda-request-1' });
  });

  it('gives up on a verifier that hangs after the verify timeout: 504, no mail', async () => {
    const f = contactFixture({ verify: verifier.hangs, timeouts: { verifyMs: 80 } });
    const started = Date.now();
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    const elapsed = Date.now() - started;
    expect(result.statusCode).toBe(504);
    expect(bodyOf(result)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
    expect(elapsed).toBeGreaterThanOrEqual(70);
    expect(elapsed).toBeLessThan(1_000);
    expect(f.sesCalls).toHaveLength(0);
  });

  it('never lets the verify timeout outlast the whole-request budget', async () => {
    const f = contactFixture({ verify: verifier.hangs, timeouts: { verifyMs: 5_000, totalMs: 120 } });
    const started = Date.now();
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(504);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('contact handler: the mail', () => {
  it('sends exactly one SendEmail with the right Source, Destination, Reply-To, subject and bodies', async () => {
    const f = contactFixture({ now: () => NOW });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(200);
    expectJsonHeaders(result);
    expect(bodyOf(result)).toEqual({ ok: true });
    expect(f.sesCalls).toHaveLength(1);
    const mail = f.sesCalls[0]!;
    expect(mail.Source).toBe(SENDER);
    expect(mail.Destination).toEqual({ ToAddresses: [OWNER] });
    expect(mail.ReplyToAddresses).toEqual([VALID_BODY.email]);
    expect(mail.Message?.Subject).toEqual({ Data: 'Portfolio contact from José Álvarez', Charset: 'UTF-8' });
    const text = mail.Message?.Body?.Text?.Data ?? '';
    expect(text).toContain(VALID_BODY.message);
    expect(text).toContain(`Email: ${VALID_BODY.email}`);
    expect(text).toContain('Received: 2026-11-22T05:30:00.000Z');
    const html = mail.Message?.Body?.Html?.Data ?? '';
    expect(html).toContain('Hello &lt;b&gt;there&lt;/b&gt;');
    expect(html).toContain('&amp; &quot;friends&quot;');
    expect(html).toContain('let&#39;s talk');
    expect(html).not.toContain('<b>there</b>');
    expect(f.metrics.names()).toEqual(['ContactMessageSent']);
  });

  it('sends a message full of markup and injection attempts escaped, with one clean subject line', async () => {
    const f = contactFixture();
    const message = '</div><script>alert(1)</script><img src=x onerror="alert(2)">\r\nSubject: hi\r\nBcc: a@b.test\u2028\u0000';
    const result = await f.handler(contactEvent({ ...VALID_BODY, message }), ctx);
    expect(result.statusCode).toBe(200);
    const mail = f.sesCalls[0]!;
    const html = mail.Message?.Body?.Html?.Data ?? '';
    expect(html).not.toMatch(/<script|<img|onerror="|<\/div><script/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('\u0000');
    const text = mail.Message?.Body?.Text?.Data ?? '';
    for (const char of ['\r', '\u0000', '\u2028']) expect(text).not.toContain(char);
    expect(text).toContain('Subject: hi\nBcc: a@b.test\n');
    expect(mail.Message?.Subject?.Data).not.toMatch(/[\r\n]/);
    expect(mail.ReplyToAddresses).toEqual([VALID_BODY.email]);
    expect(mail.Destination).toEqual({ ToAddresses: [OWNER] });
  });

  it.each([
    ['MessageRejected', 400, 502],
    ['AccessDeniedException', 403, 502],
    ['Throttling', 400, 503],
    ['ServiceUnavailable', 503, 503],
  ])('answers SES %s with %s → %s and the form failure message, after one attempt', async (name, http, status) => {
    const f = contactFixture({ ses: sesBehaviour.fails(name, http) });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(status);
    expect(bodyOf(result)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
    expect(f.sesCalls).toHaveLength(1);
    expect(f.metrics.names()).toEqual(['ContactMessageFailed']);
    const failure = f.logger.lines.find((line) => line.level === 'error');
    expect(failure?.fields).toMatchObject({ errorName: name, httpStatusCode: http, requestId: 'api-request-1' });
    // The SES error message quotes the address: it must not reach the logs.
    expect(f.logger.text()).not.toContain(VALID_BODY.email);
  });

  it('aborts an SES call that hangs at the SES timeout: 504', async () => {
    const f = contactFixture({ ses: sesBehaviour.hangs, timeouts: { sesMs: 300 } });
    const started = Date.now();
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(504);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('does not start SES when the budget is spent, so no mail can leave after the visitor saw a failure', async () => {
    const slowPass = async (): Promise<Response> => {
      await sleep(150);
      return jsonResponse({ success: true });
    };
    const f = contactFixture({ verify: slowPass, timeouts: { totalMs: 200 } });
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(504);
    expect(f.sesCalls).toHaveLength(0);
  });
});

describe('contact handler: the secret', () => {
  it('reads the secret once and reuses it for later requests', async () => {
    let reads = 0;
    const secret = cachedSecret(async () => {
      reads += 1;
      return SECRET;
    });
    const f = contactFixture({ secret });
    await Promise.all([f.handler(contactEvent(VALID_BODY), ctx), f.handler(contactEvent(VALID_BODY), ctx)]);
    await f.handler(contactEvent(VALID_BODY), ctx);
    expect(reads).toBe(1);
    expect(f.verifyCalls.map((call) => call.form.get('secret'))).toEqual([SECRET, SECRET, SECRET]);
  });

  it('answers 503 when the secret cannot be read, mails nothing, and tries again next time', async () => {
    let reads = 0;
    const secret = cachedSecret(async () => {
      reads += 1;
      if (reads === 1) throw Object.assign(new Error('denied'), { name: 'AccessDeniedException' });
      return SECRET;
    });
    const f = contactFixture({ secret });
    const first = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(first.statusCode).toBe(503);
    expect(bodyOf(first)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
    expect(f.verifyCalls).toHaveLength(0);
    expect(f.sesCalls).toHaveLength(0);
    const second = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(second.statusCode).toBe(200);
    expect(reads).toBe(2);
  });
});

describe('contact handler: logs and metrics', () => {
  const secretish = [VALID_BODY.fullName, 'José', 'Álvarez', VALID_BODY.email, 'Hello', VALID_BODY['g-recaptcha-response'], SECRET];

  it.each([
    ['a sent message', {}],
    ['a refused captcha', { verify: () => verifier.refuses() }],
    ['a verifier failure', { verify: () => Promise.resolve(jsonResponse('nope', 500)) }],
    ['an SES failure', { ses: sesBehaviour.fails('MessageRejected') }],
  ])('logs %s with the request ids and lengths, never the name, address, text, token or secret', async (_label, options) => {
    const f = contactFixture(options);
    await f.handler(contactEvent(VALID_BODY), ctx);
    expect(f.logger.lines.length).toBeGreaterThan(0);
    const summary = f.logger.lines.at(-1)!;
    expect(summary.fields).toMatchObject({
      requestId: 'api-request-1',
      awsRequestId: 'lambda-request-1',
      nameLength: VALID_BODY.fullName.length,
      messageLength: VALID_BODY.message.length,
    });
    const logged = f.logger.text();
    for (const value of secretish) expect(logged).not.toContain(value);
  });

  it('logs a rejected body without echoing it', async () => {
    const f = contactFixture();
    await f.handler(contactEvent({ ...VALID_BODY, email: 'jo.secret@example' }), ctx);
    expect(f.logger.lines.at(-1)?.fields).toMatchObject({ outcome: 'rejected-invalid-email', statusCode: 400 });
    expect(f.logger.text()).not.toContain('jo.secret');
  });

  it('counts one metric per request: Sent, Rejected or Failed', async () => {
    const f = contactFixture();
    await f.handler(contactEvent(VALID_BODY), ctx);
    await f.handler(contactEvent('nope'), ctx);
    await f.handler(contactEvent(VALID_BODY, { method: 'GET' }), ctx);
    expect(f.metrics.names()).toEqual(['ContactMessageSent', 'ContactMessageRejected', 'ContactMessageRejected']);
    expect(f.metrics.counts.every((count) => count.dimensions === undefined)).toBe(true);
  });
});

describe('contact handler: misconfigured function', () => {
  it('still answers bad input with 4xx, and valid input with 503', async () => {
    const logger = new RecordingLogger();
    const metrics = new RecordingMetrics();
    const handler = createMisconfiguredContactHandler(logger, metrics);
    expect((await handler(contactEvent('nope'), ctx)).statusCode).toBe(400);
    expect((await handler(contactEvent(VALID_BODY, { method: 'GET' }), ctx)).statusCode).toBe(405);
    const result = await handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(503);
    expect(bodyOf(result)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
    expect(metrics.names()).toEqual(['ContactMessageRejected', 'ContactMessageRejected', 'ContactMessageFailed']);
    expect(logger.text()).not.toContain(VALID_BODY.email);
  });
});

describe('contact handler: a broken metrics sink', () => {
  it('still answers 200 for a sent mail, and logs the lost count', async () => {
    const f = contactFixture();
    f.metrics.count = () => {
      throw new RangeError('metrics store full');
    };
    const result = await f.handler(contactEvent(VALID_BODY), ctx);
    expect(result.statusCode).toBe(200);
    expect(f.sesCalls).toHaveLength(1);
    expect(f.logger.lines.some((line) => line.message === 'Contact metric could not be recorded')).toBe(true);
  });
});
