import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const mockEnv = vi.hoisted(() => ({ eventsEndpoint: '/api/events' }));
vi.mock('../../config/env', () => ({ env: mockEnv }));
const vitals = vi.hoisted(() => ({ startVitals: vi.fn(), navigate: vi.fn() }));
vi.mock('./vitals', () => vitals);

describe('countPageView: the vitals module loads when the page is idle, never under Global Privacy Control', () => {
  let idle: (() => void)[];

  beforeEach(() => {
    vi.resetModules();
    vitals.startVitals.mockReset();
    vitals.navigate.mockReset();
    idle = [];
    window.requestIdleCallback = ((run: () => void) => {
      idle.push(run);
      return idle.length;
    }) as typeof window.requestIdleCallback;
    Object.defineProperty(document, 'readyState', { value: 'complete', configurable: true });
  });

  afterEach(() => {
    Reflect.deleteProperty(navigator, 'globalPrivacyControl');
    Reflect.deleteProperty(window, 'requestIdleCallback');
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('loads nothing until idle, then starts with the page views seen so far (repeats too: the module drops them) and the events endpoint', async () => {
    const { countPageView } = await import('./page-views');
    countPageView('/home');
    countPageView('/home');
    countPageView('/projects');
    await settle();
    expect(vitals.startVitals).not.toHaveBeenCalled();
    expect(idle).toHaveLength(1);
    idle[0]!();
    await settle();
    expect(vitals.startVitals).toHaveBeenCalledWith('/api/events', ['/home', '/home', '/projects']);
    countPageView('/about');
    expect(vitals.navigate).toHaveBeenCalledWith('/about');
  });

  it('loads nothing and counts nothing without an events endpoint (a preview build)', async () => {
    mockEnv.eventsEndpoint = '';
    try {
      const { countPageView } = await import('./page-views');
      countPageView('/home');
      await settle();
      expect(idle).toHaveLength(0);
      expect(vitals.startVitals).not.toHaveBeenCalled();
    } finally {
      mockEnv.eventsEndpoint = '/api/events';
    }
  });

  it('waits for the load event when the page is still loading', async () => {
    Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true });
    const { countPageView } = await import('./page-views');
    countPageView('/home');
    expect(idle).toHaveLength(0);
    window.dispatchEvent(new Event('load'));
    expect(idle).toHaveLength(1);
  });

  it('waits 3 s after the load event where requestIdleCallback is missing', async () => {
    Reflect.deleteProperty(window, 'requestIdleCallback');
    vi.useFakeTimers();
    try {
      const { countPageView, NO_IDLE_CALLBACK_DELAY_MS } = await import('./page-views');
      countPageView('/home');
      await vi.advanceTimersByTimeAsync(NO_IDLE_CALLBACK_DELAY_MS - 1);
      expect(vitals.startVitals).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
    } finally {
      vi.useRealTimers();
    }
    await settle();
    expect(vitals.startVitals).toHaveBeenCalledWith('/api/events', ['/home']);
  });

  it('does nothing at all when the browser sends Global Privacy Control', async () => {
    Object.defineProperty(navigator, 'globalPrivacyControl', { value: true, configurable: true });
    const { countPageView } = await import('./page-views');
    countPageView('/home');
    expect(idle).toHaveLength(0);
    await settle();
    expect(vitals.startVitals).not.toHaveBeenCalled();
  });
});

describe('vitalsEndpointOf', () => {
  it('puts page views beside the click events', async () => {
    const { vitalsEndpointOf } = await import('../../../../contract/vitals');
    expect(vitalsEndpointOf('/api/events')).toBe('/api/vitals');
    expect(vitalsEndpointOf('https://api.example.com/prod/events')).toBe('https://api.example.com/prod/vitals');
  });
});
