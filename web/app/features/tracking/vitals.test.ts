import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Metric } from 'web-vitals';

/** web-vitals at its boundary: the callbacks the module registers, called by the test as the browser would. */
const callbacks = vi.hoisted(() => new Map<string, { report: (metric: Metric) => void; options: unknown }>());
vi.mock('web-vitals', () => {
  const on = (name: string) => (report: (metric: Metric) => void, options: unknown) => void callbacks.set(name, { report, options });
  return { onCLS: on('CLS'), onFCP: on('FCP'), onINP: on('INP'), onLCP: on('LCP'), onTTFB: on('TTFB') };
});

function metric(name: Metric['name'], value: number, extra: Partial<Metric> = {}): Metric {
  return {
    name,
    value,
    delta: value,
    rating: 'good',
    id: 'v',
    entries: [],
    navigationType: 'navigate',
    navigationId: 1,
    ...extra,
  } as Metric;
}

function setViewport(phone: boolean): void {
  window.matchMedia = ((query: string) => ({
    matches: phone && query.includes('max-width'),
    media: query,
  })) as unknown as typeof window.matchMedia;
}

function hide(): void {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
}

describe('vitals: one beacon per page view', () => {
  let beacons: { url: string; body: Record<string, unknown> }[];
  let vitals: typeof import('./vitals');

  beforeEach(async () => {
    vi.resetModules();
    callbacks.clear();
    beacons = [];
    setViewport(false);
    Object.defineProperty(navigator, 'sendBeacon', {
      configurable: true,
      value: (url: string, blob: Blob) => {
        // jsdom's Blob has no text(); the payload is read back from the Blob's parts by the helper below.
        beacons.push({ url, body: JSON.parse(blobParts.get(blob) ?? '{}') as Record<string, unknown> });
        return true;
      },
    });
    vitals = await import('./vitals');
  });

  afterEach(() => {
    // Each test loads a fresh module; its listeners stay on window: send what it holds now, so the next test sees only its own.
    window.dispatchEvent(new Event('pagehide'));
    Reflect.deleteProperty(navigator, 'sendBeacon');
  });

  it('registers all five metrics with every change reported and soft navigations split', () => {
    vitals.startVitals('/api/events', ['/home']);
    expect([...callbacks.keys()].sort()).toEqual(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']);
    for (const { options } of callbacks.values()) expect(options).toEqual({ reportAllChanges: true, reportSoftNavs: true });
  });

  it('sends the first load once, on hide, with the latest values, the pattern and no address', () => {
    vitals.startVitals('/api/events', ['/es/projects/3']);
    callbacks.get('TTFB')!.report(metric('TTFB', 120.4));
    callbacks.get('LCP')!.report(metric('LCP', 900));
    callbacks.get('LCP')!.report(metric('LCP', 1834.6));
    callbacks.get('CLS')!.report(metric('CLS', 0.031234));
    expect(beacons).toHaveLength(0);
    hide();
    hide();
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons).toEqual([
      {
        url: '/api/vitals',
        body: { route: '/projects/:projectId', lang: 'es', device: 'desktop', nav: 'load', ttfb: 120, lcp: 1835, cls: 0.0312 },
      },
    ]);
  });

  it('sends the page view before a client-side navigation when it starts, then the new one with its soft-navigation metrics', () => {
    setViewport(true);
    vitals.startVitals('/api/events', ['/home']);
    callbacks.get('LCP')!.report(metric('LCP', 1500));
    callbacks.get('INP')!.report(metric('INP', 64));
    vitals.navigate('/projects');
    // A late value of the first load is not sent again: its page view is complete.
    callbacks.get('INP')!.report(metric('INP', 400));
    callbacks.get('LCP')!.report(metric('LCP', 320, { navigationType: 'soft-navigation', navigationURL: 'http://localhost/projects' }));
    // A soft navigation's value for another address (reported late) belongs to no open page view.
    callbacks.get('CLS')!.report(metric('CLS', 0.5, { navigationType: 'soft-navigation', navigationURL: 'http://localhost/home' }));
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons.map((b) => b.body)).toEqual([
      { route: '/home', lang: 'en', device: 'phone', nav: 'load', lcp: 1500, inp: 64 },
      { route: '/projects', lang: 'en', device: 'phone', nav: 'client', lcp: 320 },
    ]);
  });

  it('counts navigations seen before it loaded, in order, and ignores a repeat of the same path', () => {
    // The idle loader queues every path it is given; a path repeated in a row (an effect run twice) is one page view.
    vitals.startVitals('/api/events', ['/home', '/home', '/about', '/about', '/contact']);
    vitals.navigate('/contact');
    hide();
    expect(beacons.map((b) => [b.body.route, b.body.nav])).toEqual([
      ['/home', 'load'],
      ['/about', 'client'],
      ['/contact', 'client'],
    ]);
  });

  it('leaves the first page view to the boot script when it already sent it, and says it has taken over', () => {
    document.documentElement.setAttribute('data-page-views', 'sent');
    vitals.startVitals('/api/events', ['/home']);
    expect(document.documentElement.getAttribute('data-page-views')).toBe('app');
    callbacks.get('LCP')!.report(metric('LCP', 900));
    vitals.navigate('/about');
    hide();
    expect(beacons.map((b) => [b.body.route, b.body.nav])).toEqual([['/about', 'client']]);
    document.documentElement.removeAttribute('data-page-views');
  });

  it("counts a restore from the back/forward cache that came before it started, without the first load's metrics", () => {
    // The boot script sent the first load's page view as the page was left, and marked the restore.
    document.documentElement.setAttribute('data-page-views', 'restored');
    vitals.startVitals('/api/events', ['/home']);
    expect(document.documentElement.getAttribute('data-page-views')).toBe('app');
    // The observers start after the restore: what they report from the timeline is the first load's.
    callbacks.get('LCP')!.report(metric('LCP', 900));
    callbacks.get('TTFB')!.report(metric('TTFB', 80));
    vitals.navigate('/about');
    callbacks.get('LCP')!.report(metric('LCP', 300, { navigationType: 'soft-navigation', navigationURL: 'http://localhost/about' }));
    hide();
    expect(beacons.map((b) => b.body)).toEqual([
      { route: '/home', lang: 'en', device: 'desktop', nav: 'load' },
      { route: '/about', lang: 'en', device: 'desktop', nav: 'client', lcp: 300 },
    ]);
    document.documentElement.removeAttribute('data-page-views');
  });

  it('leaves out a value the server would refuse, and keeps the page view', () => {
    vitals.startVitals('/api/events', ['/nowhere']);
    callbacks.get('LCP')!.report(metric('LCP', 700_000));
    hide();
    expect(beacons.map((b) => b.body)).toEqual([{ route: '*', lang: 'en', device: 'desktop', nav: 'load' }]);
  });
});

/** What each Blob was made of: jsdom's Blob cannot be read synchronously. */
const blobParts = new WeakMap<Blob, string>();
const NativeBlob = globalThis.Blob;
globalThis.Blob = class extends NativeBlob {
  constructor(parts?: BlobPart[], options?: BlobPropertyBag) {
    super(parts, options);
    blobParts.set(this, (parts ?? []).map(String).join(''));
  }
} as typeof Blob;
