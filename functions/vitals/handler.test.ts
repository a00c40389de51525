import { afterEach, describe, expect, it, vi } from 'vitest';
import { VITALS_MAX_BODY_BYTES } from '../../contract/limits';
import type { VitalsBeacon } from '../../contract/vitals';
import { LOCALE_CODES } from '../../web/content/locales';
import { apiEvent, lambdaContext, RecordingLogger, RecordingMeasures } from '../shared/test-support';
import { createVitalsHandler, handler } from './handler';

const ctx = lambdaContext();
// The site's last language, whichever languages the owner keeps.
const VIEW = {
  route: '/projects/:projectId',
  lang: LOCALE_CODES.at(-1)!,
  device: 'phone',
  nav: 'load',
  lcp: 1834.6,
  inp: 72,
  cls: 0.04321,
  fcp: 901,
  ttfb: 120,
};

function setup() {
  const logger = new RecordingLogger();
  const measures = new RecordingMeasures();
  const pageViews: VitalsBeacon[] = [];
  return { handler: createVitalsHandler({ logger, measures, pageViews: (view) => pageViews.push(view) }), logger, measures, pageViews };
}

function beacon(body: string, options: Parameters<typeof apiEvent>[0] = {}) {
  return apiEvent({ path: '/api/vitals', body, headers: { 'content-type': 'application/json' }, ...options });
}

describe('vitals handler', () => {
  it('keeps one page view (rounded: whole ms, CLS to 4 decimals), measures LCP and INP, answers 204', async () => {
    const f = setup();
    const result = await f.handler(beacon(JSON.stringify(VIEW)), ctx);
    expect(result.statusCode).toBe(204);
    expect(f.pageViews).toEqual([{ ...VIEW, lcp: 1835, cls: 0.0432 }]);
    expect(f.measures.lines).toEqual([{ PageViewLCP: 1835, PageViewINP: 72 }]);
  });

  it('takes a client-side navigation that measured nothing (a page view still counts) and text/plain', async () => {
    const f = setup();
    const body = JSON.stringify({ route: '*', lang: 'en', device: 'desktop', nav: 'client' });
    const result = await f.handler(beacon(body, { headers: { 'content-type': 'text/plain;charset=UTF-8' } }), ctx);
    expect(result.statusCode).toBe(204);
    expect(f.pageViews).toEqual([{ route: '*', lang: 'en', device: 'desktop', nav: 'client' }]);
    expect(f.measures.lines).toEqual([{}]);
  });

  it.each([
    ['an address, not a pattern', { ...VIEW, route: '/projects/3' }, 'route'],
    ['a query', { ...VIEW, route: '/home?utm=x' }, 'route'],
    // qaa: ISO 639's range for local use, never a site's language.
    ['an unknown language', { ...VIEW, lang: 'qaa' }, 'lang'],
    ['an unknown device', { ...VIEW, device: 'tablet' }, 'device'],
    ['an unknown navigation', { ...VIEW, nav: 'reload' }, 'nav'],
    ['a negative LCP', { ...VIEW, lcp: -1 }, 'range'],
    ['an LCP over ten minutes', { ...VIEW, lcp: 600_001 }, 'range'],
    ['a CLS over 10', { ...VIEW, cls: 11 }, 'range'],
    ['a string INP', { ...VIEW, inp: '72' }, 'range'],
    ['a null TTFB', { ...VIEW, ttfb: null }, 'range'],
    ['an identifier', { ...VIEW, id: 'v4-123' }, 'shape'],
    ['a __proto__ key', JSON.parse('{"__proto__":{"route":"/home"}}') as unknown, 'shape'],
    ['an array', [VIEW], 'json'],
    ['no route', { lang: 'en', device: 'phone', nav: 'load' }, 'route'],
  ])('answers 400 to %s, keeps nothing and logs the reason', async (_label, body, reason) => {
    const f = setup();
    const result = await f.handler(beacon(JSON.stringify(body)), ctx);
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body ?? '')).toEqual({ error: expect.any(String) });
    expect(f.pageViews).toHaveLength(0);
    expect(f.measures.lines).toHaveLength(0);
    expect(f.logger.lines.at(-1)).toMatchObject({ message: 'Page view rejected', fields: { outcome: `rejected-${reason}` } });
  });

  it.each([
    ['not JSON', 'lcp=1', 400],
    ['empty', '', 400],
  ])('answers %s with %i', async (_label, body, status) => {
    expect((await setup().handler(beacon(body), ctx)).statusCode).toBe(status);
  });

  it(`answers a body over ${VITALS_MAX_BODY_BYTES} bytes with 413, a GET with 405, a form with 415`, async () => {
    const f = setup();
    const padded = JSON.stringify(VIEW).replace('}', `${' '.repeat(VITALS_MAX_BODY_BYTES)}}`);
    expect((await f.handler(beacon(padded), ctx)).statusCode).toBe(413);
    expect((await f.handler(beacon(JSON.stringify(VIEW), { method: 'GET' }), ctx)).statusCode).toBe(405);
    const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    expect((await f.handler(beacon(JSON.stringify(VIEW), form), ctx)).statusCode).toBe(415);
    expect(f.pageViews).toHaveLength(0);
  });

  it('answers 204, never 5xx, when the page view cannot be kept, and logs why', async () => {
    const logger = new RecordingLogger();
    const broken = createVitalsHandler({
      logger,
      measures: new RecordingMeasures(),
      pageViews: () => {
        throw new RangeError('disk full');
      },
    });
    expect((await broken(beacon(JSON.stringify(VIEW)), ctx)).statusCode).toBe(204);
    expect(logger.lines.at(-1)).toMatchObject({ level: 'error', fields: { errorName: 'RangeError' } });
  });
});

describe('vitals handler entry point (Powertools: a JSON log line and EMF on stdout)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('logs the page view as {message: "Page view", pageView} and writes LCP and INP as one EMF record, nothing about the visitor', async () => {
    const out: string[] = [];
    const capture = (chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(console, 'info').mockImplementation((line: unknown) => void out.push(String(line)));
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    const event = beacon(JSON.stringify(VIEW), { sourceIp: '198.51.100.5' });
    event.headers['user-agent'] = 'Secret-Agent/1.0';
    const result = await handler(event, ctx);
    vi.restoreAllMocks();
    expect(result.statusCode).toBe(204);
    const records = out
      .join('\n')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const emf = records.filter((record) => '_aws' in record);
    expect(emf).toHaveLength(1);
    expect(emf[0]).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: 'Portfolio',
            Dimensions: [['service']],
            Metrics: expect.arrayContaining([
              { Name: 'PageViewLCP', Unit: 'Milliseconds' },
              { Name: 'PageViewINP', Unit: 'Milliseconds' },
            ]),
          },
        ],
      },
      service: 'vitals',
      PageViewLCP: 1835,
      PageViewINP: 72,
    });
    const line = records.find((record) => record.message === 'Page view');
    expect(line).toMatchObject({ pageView: { ...VIEW, lcp: 1835, cls: 0.0432 } });
    expect(out.join('')).not.toContain('198.51.100.5');
    expect(out.join('')).not.toContain('Secret-Agent');
  });
});
