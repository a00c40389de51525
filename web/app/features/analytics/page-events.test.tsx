import { act, render, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const mockEnv = vi.hoisted(() => ({ gaMeasurementId: 'G-TEST123' }));
vi.mock('../../config/env', () => ({ env: mockEnv }));

const ga = vi.hoisted(() => ({ initialize: vi.fn(), event: vi.fn() }));
vi.mock('react-ga4', () => ({ default: ga }));

import { resetConsentForTests, storeConsent } from '../consent/consent-store';
import { loadAnalytics, resetAnalyticsForTests, sendPageEvent } from './analytics';
import { usePageEvent } from './page-events';

function Page({ name }: { name: string }) {
  usePageEvent(name);
  return <p>{name}</p>;
}

async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

beforeEach(() => {
  mockEnv.gaMeasurementId = 'G-TEST123';
  ga.initialize.mockReset();
  ga.event.mockReset();
  resetAnalyticsForTests();
  resetConsentForTests();
  window.history.replaceState(null, '', '/home');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('usePageEvent', () => {
  it('sends the event with the string form of ReactGA.event once consent is stored', async () => {
    localStorage.setItem('cookieConsent', 'true');
    render(<Page name="homePage" />);
    await waitFor(() => expect(ga.event).toHaveBeenCalledTimes(1));
    expect(ga.event).toHaveBeenCalledWith('homePage', { page_path: '/home' });
    expect(ga.initialize).toHaveBeenCalledWith('G-TEST123');
  });

  it('queues events sent before analytics finished loading and sends them after initialize, in order', async () => {
    localStorage.setItem('cookieConsent', 'true');
    sendPageEvent('homePage');
    window.history.replaceState(null, '', '/projects');
    sendPageEvent('projectsPage');
    expect(ga.event).not.toHaveBeenCalled();

    await waitFor(() => expect(ga.event).toHaveBeenCalledTimes(2));
    expect(ga.event.mock.calls).toEqual([
      ['homePage', { page_path: '/home' }],
      ['projectsPage', { page_path: '/projects' }],
    ]);
    expect(ga.initialize.mock.invocationCallOrder[0]).toBeLessThan(ga.event.mock.invocationCallOrder[0]!);
    expect(ga.initialize).toHaveBeenCalledTimes(1);
  });

  it('keeps a project title as written', async () => {
    localStorage.setItem('cookieConsent', 'true');
    await loadAnalytics();
    render(<Page name="Hotel Booking Manager" />);
    // The analytics code is fetched on demand, so the event leaves a moment after the render.
    await waitFor(() => expect(ga.event).toHaveBeenCalledWith('Hotel Booking Manager', { page_path: '/home' }));
  });

  it('sends nothing and loads nothing without consent', async () => {
    render(<Page name="homePage" />);
    await settle();
    expect(ga.event).not.toHaveBeenCalled();
    expect(ga.initialize).not.toHaveBeenCalled();
  });

  it('sends nothing without a measurement id, even with consent', async () => {
    mockEnv.gaMeasurementId = '';
    localStorage.setItem('cookieConsent', 'true');
    render(<Page name="homePage" />);
    await settle();
    expect(ga.event).not.toHaveBeenCalled();
    expect(ga.initialize).not.toHaveBeenCalled();
  });

  it('does not send for the page that was open before Accept, but does for the next one', async () => {
    const { rerender } = render(<Page name="homePage" />);
    await settle();
    act(() => {
      storeConsent();
    });
    rerender(<Page name="projectsPage" />);
    await waitFor(() => expect(ga.event).toHaveBeenCalledTimes(1));
    expect(ga.event).toHaveBeenCalledWith('projectsPage', { page_path: '/home' });
  });

  it('sends once per mount and again when the name changes, also under StrictMode', async () => {
    localStorage.setItem('cookieConsent', 'true');
    await loadAnalytics();
    const { rerender, unmount } = render(
      <StrictMode>
        <Page name="Photography Portfolio" />
      </StrictMode>,
    );
    rerender(
      <StrictMode>
        <Page name="Photography Portfolio" />
      </StrictMode>,
    );
    await settle();
    expect(ga.event).toHaveBeenCalledTimes(1);
    rerender(
      <StrictMode>
        <Page name="Dining Tracker" />
      </StrictMode>,
    );
    await waitFor(() => expect(ga.event).toHaveBeenCalledTimes(2));
    expect(ga.event).toHaveBeenLastCalledWith('Dining Tracker', { page_path: '/home' });
    unmount();
    render(<Page name="Dining Tracker" />);
    await waitFor(() => expect(ga.event).toHaveBeenCalledTimes(3));
    await settle();
    expect(ga.event).toHaveBeenCalledTimes(3);
  });

  it('logs an error from ReactGA.event with console.error and keeps rendering', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    ga.event.mockImplementation(() => {
      throw new Error('dataLayer is frozen');
    });
    localStorage.setItem('cookieConsent', 'true');
    await loadAnalytics();
    const { getByText } = render(<Page name="aboutPage" />);
    expect(getByText('aboutPage')).toBeInTheDocument();
    await waitFor(() => expect(consoleError).toHaveBeenCalledTimes(1));
    await settle();
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(getByText('aboutPage')).toBeInTheDocument();
    expect(String(consoleError.mock.calls[0]?.[0])).toContain('aboutPage');
  });

  it('logs a failed load with console.error, keeps the queue, and sends it when a later call loads', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    ga.initialize.mockImplementationOnce(() => {
      throw new Error('blocked');
    });
    localStorage.setItem('cookieConsent', 'true');
    sendPageEvent('contactPage');
    await waitFor(() => expect(consoleError).toHaveBeenCalledTimes(1));
    expect(ga.event).not.toHaveBeenCalled();

    expect(await loadAnalytics()).toBe(true);
    sendPageEvent('blogsPage');
    expect(ga.event.mock.calls).toEqual([
      ['contactPage', { page_path: '/home' }],
      ['blogsPage', { page_path: '/home' }],
    ]);
  });
});
