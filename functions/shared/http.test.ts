import { describe, expect, it } from 'vitest';
import { checkJsonPost, getHeader, hasAcceptedContentType, parseJsonObject, parseMediaType, pickStringFields, readBody } from './http';
import { apiEvent } from './test-support';

describe('parseMediaType', () => {
  it.each([
    ['application/json', { type: 'application/json' }],
    [' Application/JSON ; charset="UTF-8" ', { type: 'application/json', charset: 'utf-8' }],
    ['text/plain;charset=UTF-8;format=flowed', { type: 'text/plain', charset: 'utf-8' }],
  ])('parses %s', (value, expected) => {
    expect(parseMediaType(value)).toEqual(expected);
  });
  it.each([undefined, '', 'json', '/json', 'application/', 'application/json/x', 'a b/c'])('refuses %s', (value) => {
    expect(parseMediaType(value)).toBeUndefined();
  });
});

describe('getHeader and hasAcceptedContentType', () => {
  it('finds headers whatever their case', () => {
    const event = apiEvent({ headers: { 'Content-Type': 'application/json' } });
    expect(getHeader(event, 'content-type')).toBe('application/json');
    expect(hasAcceptedContentType(event, ['application/json'])).toBe(true);
  });
  it('copes with an event without headers', () => {
    const event = apiEvent();
    (event as { headers?: unknown }).headers = undefined;
    expect(getHeader(event, 'content-type')).toBeUndefined();
    expect(hasAcceptedContentType(event, ['application/json'])).toBe(false);
  });
  it('refuses a charset other than UTF-8', () => {
    const event = apiEvent({ headers: { 'content-type': 'application/json; charset=utf-16le' } });
    expect(hasAcceptedContentType(event, ['application/json'])).toBe(false);
  });
});

describe('readBody', () => {
  it('returns plain text as it is', () => {
    expect(readBody(apiEvent({ body: '{"a":1}' }), 10)).toEqual({ ok: true, text: '{"a":1}' });
  });
  it('treats a missing body as empty', () => {
    expect(readBody(apiEvent(), 10)).toEqual({ ok: true, text: '' });
  });
  it('measures bytes, not characters', () => {
    expect(readBody(apiEvent({ body: 'éééé' }), 8)).toEqual({ ok: true, text: 'éééé' });
    expect(readBody(apiEvent({ body: 'ééééé' }), 8)).toMatchObject({ ok: false, statusCode: 413 });
  });
  it('decodes base64 and measures the decoded size', () => {
    const encoded = Buffer.from('12345678').toString('base64');
    expect(readBody(apiEvent({ body: encoded, isBase64Encoded: true }), 8)).toEqual({ ok: true, text: '12345678' });
    expect(readBody(apiEvent({ body: encoded, isBase64Encoded: true }), 7)).toMatchObject({ statusCode: 413 });
  });
  it.each(['abc', 'ab=c', '====', 'YWJj\nZGVm', 'YW Jj'])('refuses malformed base64 %j with 400', (body) => {
    expect(readBody(apiEvent({ body, isBase64Encoded: true }), 100)).toMatchObject({ ok: false, statusCode: 400 });
  });
  it('refuses base64 that is not UTF-8', () => {
    const body = Buffer.from([0xc3, 0x28]).toString('base64');
    expect(readBody(apiEvent({ body, isBase64Encoded: true }), 100)).toMatchObject({ ok: false, statusCode: 400 });
  });
});

describe('parseJsonObject and pickStringFields', () => {
  it.each(['[]', 'null', '1', '"s"', 'true', '{', ''])('refuses %j', (text) => {
    expect(parseJsonObject(text).ok).toBe(false);
  });
  it('picks exactly the wanted string fields into a prototype-less object', () => {
    const parsed = parseJsonObject('{"a":"1","b":"2"}');
    const picked = parsed.ok ? pickStringFields(parsed.value, ['a', 'b']) : undefined;
    expect(picked).toEqual({ a: '1', b: '2' });
    expect(Object.getPrototypeOf(picked)).toBeNull();
  });
  it.each(['{"a":"1"}', '{"a":"1","b":2}', '{"a":"1","b":"2","c":"3"}', '{"a":"1","__proto__":"2"}', '{"a":"1","constructor":"x"}'])(
    'refuses %s',
    (text) => {
      const parsed = parseJsonObject(text);
      expect(parsed.ok && pickStringFields(parsed.value, ['a', 'b'])).toBeUndefined();
    },
  );
});

describe('checkJsonPost', () => {
  const accepted = { contentTypes: ['application/json', 'text/plain'], maxBytes: 20 };
  const post = (body: string, contentType = 'text/plain') => apiEvent({ method: 'POST', body, headers: { 'content-type': contentType } });

  it('hands over the JSON object of a POST in an accepted type', () => {
    expect(checkJsonPost(post('{"a":"b"}'), accepted)).toEqual({ ok: true, value: { a: 'b' } });
    expect(checkJsonPost(post('{"a":"b"}', 'application/json; charset=utf-8'), accepted)).toMatchObject({ ok: true });
  });

  it.each([
    [
      'another method',
      apiEvent({ method: 'GET', body: '{}', headers: { 'content-type': 'text/plain' } }),
      405,
      'method',
      'Only POST is allowed.',
    ],
    ['another type', post('{}', 'text/html'), 415, 'content-type', 'The request must be sent as application/json or text/plain (UTF-8).'],
    ['a body over the limit', post(`{"a":"${'x'.repeat(20)}"}`), 413, 'too-large', 'The request body must be at most 20 bytes.'],
    ['a body that is not JSON', post('{a'), 400, 'json', 'The request body must be JSON.'],
    ['a JSON array', post('[1]'), 400, 'json', 'The request body must be a JSON object.'],
  ])('refuses %s, in that order, with its status and logged reason', (_name, event, statusCode, reason, error) => {
    const checked = checkJsonPost(event, accepted);
    expect(checked).toMatchObject({ ok: false, reason, response: { statusCode } });
    if (!checked.ok) expect(JSON.parse(String(checked.response.body))).toEqual({ error });
  });

  it('answers a 405 with the allowed method', () => {
    const checked = checkJsonPost(apiEvent({ method: 'PUT' }), accepted);
    expect(!checked.ok && checked.response.headers).toMatchObject({ allow: 'POST' });
  });
});
