/**
 * The boot script: its early page view's metrics as web-vitals computes them, and the generated text
 * itself (web/boot/generate.ts, as vitest.config.ts defines it for the tests the way vite.config.ts does
 * for the site) run against a stand-in of the browser's globals.
 */
import { Blob } from 'node:buffer';
import { URL } from 'node:url';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { checkVitalsBeacon, VITALS_MAX } from '../../contract/vitals';
import { LOCALE_CODES } from '../content/locales';
import { earlyMetrics, type EarlyTimeline } from './boot';

/** The generated boot script (esbuild cannot run in this jsdom environment: the config generated it in Node). */
declare const __BOOT_SCRIPT__: string;

const shown = (navigation: EarlyTimeline['navigation'], firstContentfulPaint?: number): EarlyTimeline => ({
  navigation,
  firstContentfulPaint,
  now: 10_000,
  hiddenAtStart: false,
});

describe('earlyMetrics: TTFB and FCP as web-vitals computes them', () => {
  it('counts from activationStart, rounded to whole milliseconds', () => {
    expect(earlyMetrics(shown({ responseStart: 250.6 }, 900.2))).toEqual({ ttfb: 251, fcp: 900 });
    expect(earlyMetrics(shown({ responseStart: 300, activationStart: 100 }, 900))).toEqual({ ttfb: 200, fcp: 800 });
  });

  it('clamps a value before activation at 0, as web-vitals does (Math.max(…, 0)), rather than dropping it', () => {
    expect(earlyMetrics(shown({ responseStart: 50, activationStart: 120 }, 100))).toEqual({ ttfb: 0, fcp: 0 });
  });

  it('ignores a navigation entry whose responseStart is 0 or later than now, as web-vitals does', () => {
    expect(earlyMetrics(shown({ responseStart: 0 }))).toEqual({});
    expect(earlyMetrics(shown({ responseStart: 20_000 }))).toEqual({});
    expect(earlyMetrics(shown(undefined))).toEqual({});
  });

  it('leaves FCP out when the page was hidden from its start, and any value over the API bound', () => {
    expect(earlyMetrics({ ...shown({ responseStart: 100 }, 500), hiddenAtStart: true })).toEqual({ ttfb: 100 });
    const late = VITALS_MAX.fcp + 1;
    expect(earlyMetrics({ navigation: { responseStart: late }, firstContentfulPaint: late, now: late + 1, hiddenAtStart: false })).toEqual(
      {},
    );
    expect(
      earlyMetrics({ navigation: { responseStart: VITALS_MAX.ttfb }, firstContentfulPaint: undefined, now: late, hiddenAtStart: false }),
    ).toEqual({ ttfb: VITALS_MAX.ttfb });
  });
});

interface Stand {
  sent: { url: string; body: Promise<string> }[];
  window: Record<string, ((event?: { persisted: boolean }) => void) | undefined>;
  html: Map<string, string>;
}

/** Runs the generated text in a context holding only the globals it uses, as a page at `href`. */
function runBoot(timing: { responseStart: number; activationStart?: number; fcp?: number; now: number }): Stand {
  const stand: Stand = { sent: [], window: {}, html: new Map() };
  const attributes: Record<string, string> = {
    'data-events-endpoint': '/api/events',
    'data-page-view': '{"route":"/blogs/:slug","lang":"es"}',
  };
  const location = { href: 'https://alex.example/es/blogs/hola', origin: 'https://alex.example' };
  const context = vm.createContext({
    document: {
      currentScript: { getAttribute: (name: string) => attributes[name] ?? null },
      visibilityState: 'visible',
      readyState: 'complete',
      documentElement: {
        getAttribute: (name: string) => stand.html.get(name) ?? null,
        setAttribute: (name: string, value: string) => stand.html.set(name, value),
      },
      addEventListener: () => undefined,
      querySelectorAll: () => [],
    },
    addEventListener: (type: string, listener: (event?: { persisted: boolean }) => void) => void (stand.window[type] = listener),
    history: {},
    navigator: { sendBeacon: (url: string, body: InstanceType<typeof Blob>) => stand.sent.push({ url, body: body.text() }) > 0 },
    performance: {
      getEntriesByType: () => [{ responseStart: timing.responseStart, activationStart: timing.activationStart ?? 0 }],
      getEntriesByName: () => (timing.fcp === undefined ? [] : [{ startTime: timing.fcp }]),
      now: () => timing.now,
    },
    matchMedia: () => ({ matches: true }),
    requestAnimationFrame: () => undefined,
    setTimeout: () => undefined,
    window: { location },
    URL,
    Blob,
  });
  vm.runInContext(__BOOT_SCRIPT__, context);
  return stand;
}

describe('the generated boot script', () => {
  it("sends the page's early view once, to the vitals endpoint, its metrics clamped at 0 as web-vitals does", async () => {
    const stand = runBoot({ responseStart: 40, activationStart: 90, fcp: 60, now: 5_000 });
    stand.window.pagehide!();
    stand.window.pagehide!();
    expect(stand.sent.map((beacon) => beacon.url)).toEqual(['/api/vitals']);
    const beacon = JSON.parse(await stand.sent[0]!.body) as Record<string, unknown>;
    expect(beacon).toEqual({ route: '/blogs/:slug', lang: 'es', device: 'phone', nav: 'load', ttfb: 0, fcp: 0 });
    expect(checkVitalsBeacon(beacon, LOCALE_CODES).ok).toBe(true);
    expect(stand.html.get('data-page-views')).toBe('sent');
  });

  it("counts a restore from the back/forward cache of a page it counted, once, without the first load's metrics", async () => {
    const stand = runBoot({ responseStart: 40, fcp: 60, now: 5_000 });
    stand.window.pagehide!();
    stand.window.pageshow!({ persisted: false });
    stand.window.pagehide!();
    expect(stand.sent).toHaveLength(1);
    stand.window.pageshow!({ persisted: true });
    expect(stand.html.get('data-page-views')).toBe('restored');
    stand.window.pagehide!();
    stand.window.pagehide!();
    expect(stand.sent).toHaveLength(2);
    expect(JSON.parse(await stand.sent[1]!.body)).toEqual({ route: '/blogs/:slug', lang: 'es', device: 'phone', nav: 'load' });
    // Once the app's code has started, a restore is its to count.
    stand.html.set('data-page-views', 'app');
    stand.window.pageshow!({ persisted: true });
    stand.window.pagehide!();
    expect(stand.sent).toHaveLength(2);
    expect(stand.html.get('data-page-views')).toBe('app');
  });

  it('leaves out a value over the API bound, so the server still takes the page view', async () => {
    const late = VITALS_MAX.ttfb + 5;
    const stand = runBoot({ responseStart: late, now: late + 10 });
    stand.window.pagehide!();
    const beacon = JSON.parse(await stand.sent[0]!.body) as Record<string, unknown>;
    expect(beacon).toEqual({ route: '/blogs/:slug', lang: 'es', device: 'phone', nav: 'load' });
    expect(checkVitalsBeacon(beacon, LOCALE_CODES).ok).toBe(true);
  });

  it('is one constant statement with none of the modules it does not use (page table, languages, theme)', () => {
    const text = __BOOT_SCRIPT__;
    expect(text).toMatch(/^\(\(\)=>\{.*\}\)\(\);$/);
    expect(text).not.toContain('\n');
    expect(text).not.toMatch(/<\/script|<!--/i);
    for (const absent of ['/projects/:projectId', 'English', 'localStorage', 'import ', 'export '])
      expect(text, absent).not.toContain(absent);
  });
});
