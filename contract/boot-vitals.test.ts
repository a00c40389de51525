/**
 * The page view the boot script sends when a page is left before the app started: its TTFB and FCP
 * must be what web-vitals (the app's own page-view code) would report for the same timeline. The script
 * runs in a bare context whose browser objects are stubs holding that timeline.
 */
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BOOT_METRIC_MAX_MS, HYDRATION_BOOT_SCRIPT, PAGE_VIEW_ATTRIBUTE, EVENTS_ENDPOINT_ATTRIBUTE } from './inline-scripts';

interface Timeline {
  navigation?: { responseStart: number; activationStart?: number };
  fcp?: number;
  now?: number;
  hidden?: boolean;
}

/** Runs the boot script on a page with this timeline, leaves the page, and returns the beacon it sent. */
function pageViewOnLeave({ navigation, fcp, now = 5_000, hidden = false }: Timeline): Record<string, unknown> | undefined {
  const sent: { url: string; body: string }[] = [];
  const listeners: Record<string, (() => void)[]> = {};
  const attributes: Record<string, string> = {};
  const script = { getAttribute: (name: string) => ({ [EVENTS_ENDPOINT_ATTRIBUTE]: '/api/events', [PAGE_VIEW_ATTRIBUTE]: '{"route":"/","lang":"en"}' })[name] ?? null };
  const context = {
    document: {
      documentElement: { getAttribute: (name: string) => attributes[name] ?? null, setAttribute: (name: string, value: string) => void (attributes[name] = value) },
      currentScript: script,
      visibilityState: hidden ? 'hidden' : 'visible',
      readyState: 'loading',
      addEventListener: () => undefined,
      querySelectorAll: () => [],
    },
    navigator: { sendBeacon: (url: string, body: string) => (sent.push({ url, body }), true) },
    performance: {
      now: () => now,
      getEntriesByType: (type: string) => (type === 'navigation' && navigation ? [navigation] : []),
      getEntriesByName: (name: string) => (name === 'first-contentful-paint' && fcp !== undefined ? [{ startTime: fcp }] : []),
    },
    matchMedia: () => ({ matches: false }),
    history: {},
    addEventListener: (type: string, listener: () => void) => void (listeners[type] ??= []).push(listener),
  };
  vm.runInNewContext(HYDRATION_BOOT_SCRIPT, context);
  for (const listener of listeners.pagehide ?? []) listener();
  expect(sent.length).toBeLessThanOrEqual(1);
  return sent[0] && (JSON.parse(sent[0].body) as Record<string, unknown>);
}

describe("the boot script's TTFB and FCP, as web-vitals computes them", () => {
  it('measures from activationStart', () => {
    expect(pageViewOnLeave({ navigation: { responseStart: 180.4, activationStart: 100 }, fcp: 400 })).toMatchObject({ ttfb: 80, fcp: 300, nav: 'load', device: 'desktop' });
  });

  it('clamps to 0 a value before activation (a prerendered page activated after its first byte), rather than dropping it', () => {
    const view = pageViewOnLeave({ navigation: { responseStart: 120, activationStart: 900 }, fcp: 850 });
    expect(view).toMatchObject({ ttfb: 0, fcp: 0 });
  });

  it('sends no TTFB when the navigation entry is unusable (responseStart 0 or after now), and FCP from 0', () => {
    expect(pageViewOnLeave({ navigation: { responseStart: 0, activationStart: 300 }, fcp: 400 })).toMatchObject({ fcp: 400 });
    expect(pageViewOnLeave({ navigation: { responseStart: 0, activationStart: 300 }, fcp: 400 })).not.toHaveProperty('ttfb');
    expect(pageViewOnLeave({ navigation: { responseStart: 9_000, activationStart: 300 }, fcp: 400, now: 5_000 })).not.toHaveProperty('ttfb');
    expect(pageViewOnLeave({ fcp: 250 })).toEqual(expect.objectContaining({ fcp: 250 }));
  });

  it('sends no FCP for a page opened hidden, and leaves out a value past the API\'s bound', () => {
    expect(pageViewOnLeave({ navigation: { responseStart: 50 }, fcp: 400, hidden: true })).not.toHaveProperty('fcp');
    const late = pageViewOnLeave({ navigation: { responseStart: BOOT_METRIC_MAX_MS + 10 }, now: BOOT_METRIC_MAX_MS + 20 });
    expect(late).not.toHaveProperty('ttfb');
  });
});
