import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const mockEnv = vi.hoisted(() => ({ eventsEndpoint: '/api/events' }));
vi.mock('../../config/env', () => ({ env: mockEnv }));

import { CLICK_COUNTED_PROPERTY } from '../../../../contract/inline-scripts';
import { trackClick } from './track-click';

function setSendBeacon(value: unknown): void {
  Object.defineProperty(navigator, 'sendBeacon', { value, configurable: true, writable: true });
}

/** jsdom's Blob has no text(): read it the way old browsers do. */
function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

describe('trackClick (first-party click events)', () => {
  const fetchMock = vi.fn();

  beforeEach(() => {
    mockEnv.eventsEndpoint = '/api/events';
    fetchMock.mockReset().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'sendBeacon');
  });

  it('sends nothing without an events endpoint (a preview build)', () => {
    const beacon = vi.fn().mockReturnValue(true);
    setSendBeacon(beacon);
    mockEnv.eventsEndpoint = '';
    trackClick('HOME_EXPLORE_PROJECTS_CLICK');
    expect(beacon).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends {name} with sendBeacon to the events endpoint, as JSON on the same origin', async () => {
    const beacon = vi.fn().mockReturnValue(true);
    setSendBeacon(beacon);

    trackClick('PROJECT_VIEW', 'Hotel Booking Manager');

    expect(beacon).toHaveBeenCalledTimes(1);
    const [url, body] = beacon.mock.calls[0] as [string, Blob];
    expect(url).toBe('/api/events');
    expect(body.type).toBe('application/json');
    expect(JSON.parse(await blobText(body))).toStrictEqual({ name: 'PROJECT_VIEW_HOTEL_BOOKING_MANAGER' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('uses the prefix alone when there is no text', async () => {
    const beacon = vi.fn().mockReturnValue(true);
    setSendBeacon(beacon);
    trackClick('BLOGS_CLIENT_BLOGS');
    const [, body] = beacon.mock.calls[0] as [string, Blob];
    expect(JSON.parse(await blobText(body))).toStrictEqual({ name: 'BLOGS_CLIENT_BLOGS' });
  });

  it('sends text/plain to a cross-origin endpoint (a beacon cannot be preflighted)', () => {
    mockEnv.eventsEndpoint = 'https://api.example.com/events';
    const beacon = vi.fn().mockReturnValue(true);
    setSendBeacon(beacon);
    trackClick('SIDEBAR_NAV', 'About');
    const [url, body] = beacon.mock.calls[0] as [string, Blob];
    expect(url).toBe('https://api.example.com/events');
    expect(body.type).toBe('text/plain;charset=utf-8');
  });

  it('falls back to fetch with keepalive when sendBeacon is missing', () => {
    trackClick('SIDEBAR_NAV', 'Projects');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/events');
    expect(init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'omit' });
    expect(JSON.parse(init.body as string)).toStrictEqual({ name: 'SIDEBAR_NAV_PROJECTS' });
  });

  it('falls back to fetch when sendBeacon refuses the beacon (returns false)', () => {
    setSendBeacon(vi.fn().mockReturnValue(false));
    trackClick('HOME_EXPLORE_PROJECTS_CLICK');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('never throws when sendBeacon throws, and still tries fetch', () => {
    setSendBeacon(
      vi.fn(() => {
        throw new TypeError('blocked by an extension');
      }),
    );
    expect(() => trackClick('SIDEBAR_LINKEDIN_CLICK')).not.toThrow();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('swallows a failing endpoint (rejected fetch) and a fetch that throws synchronously', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(() => trackClick('BLOG_READ', 'Serverless on AWS')).not.toThrow();
    // Let the rejection settle: an unhandled rejection would fail this test run.
    await new Promise((resolve) => setTimeout(resolve, 0));

    fetchMock.mockImplementationOnce(() => {
      throw new TypeError('fetch is locked down');
    });
    expect(() => trackClick('BLOG_READ', 'Serverless on AWS')).not.toThrow();
  });

  it('sends nothing for a name that cannot be valid', () => {
    const beacon = vi.fn().mockReturnValue(true);
    setSendBeacon(beacon);
    trackClick('', '');
    trackClick('bad prefix!');
    expect(beacon).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends nothing for a click the page's boot script already counted (before the app took over)", () => {
    const beacon = vi.fn().mockReturnValue(true);
    setSendBeacon(beacon);
    const link = document.createElement('a');
    link.addEventListener('click', () => trackClick('SIDEBAR_NAV', 'About'));
    document.body.append(link);
    const counted = new MouseEvent('click', { bubbles: true });
    Object.assign(counted, { [CLICK_COUNTED_PROPERTY]: 1 });
    link.dispatchEvent(counted);
    expect(beacon).not.toHaveBeenCalled();
    link.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(beacon).toHaveBeenCalledTimes(1);
    link.remove();
  });
});
