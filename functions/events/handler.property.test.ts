/**
 * Whatever arrives, the events handler answers 204 or 4xx (never 5xx, never a crash), and counts
 * a click exactly when the body names a valid event (checked by an oracle of its own).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiEvent, lambdaContext, RecordingLogger, RecordingMetrics } from '../shared/test-support';
import { createEventsHandler } from './handler';

const ctx = lambdaContext();
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const mostly = <T>(good: fc.Arbitrary<T>, wild: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 5, arbitrary: good }, { weight: 1, arbitrary: wild });

const goodName = fc.stringMatching(/^[A-Z0-9_]{1,100}$/);
const name = mostly<unknown>(goodName, fc.oneof(fc.string({ unit: anyUnit, maxLength: 120 }), fc.jsonValue()));
const body = fc.oneof(
  { weight: 6, arbitrary: name.map((n) => JSON.stringify({ name: n })) },
  { weight: 1, arbitrary: fc.tuple(goodName, fc.string(), fc.jsonValue()).map(([n, k, v]) => JSON.stringify({ name: n, [k]: v })) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v) ?? '') },
  { weight: 1, arbitrary: fc.string({ unit: anyUnit }) },
  { weight: 1, arbitrary: fc.integer({ min: 900, max: 1200 }).map((n) => `{"name":"A"${' '.repeat(n)}}`) },
);

const request = fc.record({
  method: mostly(fc.constant('POST'), fc.oneof(fc.constantFrom('GET', 'PUT', 'post'), fc.string())),
  contentType: fc.option(
    mostly(
      fc.constantFrom('application/json', 'text/plain;charset=UTF-8', 'text/plain'),
      fc.oneof(fc.constantFrom('text/html', 'application/json; charset=utf-16', ''), fc.string()),
    ),
    { nil: undefined, freq: 10 },
  ),
  body: fc.option(body, { nil: undefined, freq: 10 }),
  base64: fc.boolean(),
});

type Request = typeof request extends fc.Arbitrary<infer T> ? T : never;

function counts(r: Request): string | undefined {
  if (r.method !== 'POST' || r.contentType === undefined || r.body === undefined) return undefined;
  const [type, ...params] = r.contentType.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json' && type !== 'text/plain') return undefined;
  const charset = params.find((p) => p.startsWith('charset='))?.slice(8);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return undefined;
  const sent = r.base64 ? Buffer.from(r.body, 'utf8').toString('utf8') : r.body;
  if (Buffer.byteLength(sent, 'utf8') > 1024) return undefined;
  try {
    const value = JSON.parse(sent) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    if (Object.keys(value).join() !== 'name') return undefined;
    const n = (value as { name: unknown }).name;
    return typeof n === 'string' && /^[A-Z0-9_]{1,100}$/.test(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

describe('events handler properties', () => {
  it('answers 204 and counts exactly the valid events, 4xx otherwise, never 5xx', async () => {
    let counted = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const metrics = new RecordingMetrics();
        const handler = createEventsHandler({ logger: new RecordingLogger(), metrics });
        const headers: Record<string, string> = r.contentType === undefined ? {} : { 'content-type': r.contentType };
        const encoded = r.base64 && r.body !== undefined ? Buffer.from(r.body, 'utf8').toString('base64') : r.body;
        const result = await handler(
          apiEvent({ method: r.method, path: '/api/events', headers, body: encoded, isBase64Encoded: r.base64 }),
          ctx,
        );
        const expected = counts(r);
        if (expected === undefined) {
          expect(result.statusCode).toBeGreaterThanOrEqual(400);
          expect(result.statusCode).toBeLessThan(500);
          expect(typeof (JSON.parse(result.body ?? '') as { error?: unknown }).error).toBe('string');
          expect(metrics.counts).toHaveLength(0);
        } else {
          expect(result.statusCode).toBe(204);
          expect(metrics.counts).toEqual([{ name: 'ClickEvent', dimensions: { EventName: expected } }]);
          counted += 1;
        }
      }),
      { numRuns: 500 },
    );
    expect(counted).toBeGreaterThan(20);
  });
});
