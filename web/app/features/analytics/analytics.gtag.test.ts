import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The real react-ga4 (not mocked): proves what reaches the page, i.e. the gtag.js script tag and
// the dataLayer, only appears after consent. jsdom does not fetch external scripts.
const mockEnv = vi.hoisted(() => ({ gaMeasurementId: 'G-TEST123' }));
vi.mock('../../config/env', () => ({ env: mockEnv }));

import { resetConsentForTests, storeConsent } from '../consent/consent-store';
import { loadAnalytics, resetAnalyticsForTests, sendPageEvent } from './analytics';

const gtagScripts = () => document.querySelectorAll('script[src^="https://www.googletagmanager.com/gtag/js"]');
type DataLayerWindow = Window & { dataLayer?: unknown[] };

beforeEach(() => {
  resetAnalyticsForTests();
  resetConsentForTests();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('analytics with the real react-ga4', () => {
  it('adds no Google script and no dataLayer before consent, then loads gtag.js once after it', async () => {
    sendPageEvent('homePage');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(gtagScripts()).toHaveLength(0);
    expect((window as DataLayerWindow).dataLayer).toBeUndefined();

    storeConsent();
    expect(await loadAnalytics()).toBe(true);
    expect(await loadAnalytics()).toBe(true);
    const scripts = gtagScripts();
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toHaveAttribute('src', 'https://www.googletagmanager.com/gtag/js?id=G-TEST123');

    document.title = 'Hotel Booking Manager | Alex Example';
    sendPageEvent('Hotel_Booking_Manager', {
      page_location: 'https://example.dev/projects/1',
      page_title: document.title,
      project_title: 'Hotel Booking Manager',
    });
    sendPageEvent('homePage');
    const events = ((window as DataLayerWindow).dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>));
    // react-ga4 passes GA4's parameters through to gtag unchanged.
    expect(events).toContainEqual([
      'event',
      'Hotel_Booking_Manager',
      {
        page_location: 'https://example.dev/projects/1',
        page_title: 'Hotel Booking Manager | Alex Example',
        project_title: 'Hotel Booking Manager',
      },
    ]);
    expect(events).toContainEqual([
      'event',
      'homePage',
      { page_location: window.location.href, page_title: 'Hotel Booking Manager | Alex Example' },
    ]);
  });

  it('logs a gtag.js that fails to load (blocked, offline) with console.error', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    storeConsent();
    await loadAnalytics();
    gtagScripts()[0]?.dispatchEvent(new Event('error'));
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(String(consoleError.mock.calls[0]?.[0])).toContain('gtag.js');
  });
});
