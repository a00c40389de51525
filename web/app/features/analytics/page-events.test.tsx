import { act, render, waitFor } from '../../../test/render';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const mockEnv = vi.hoisted(() => ({ gaMeasurementId: 'G-TEST123' }));
vi.mock('../../config/env', () => ({ env: mockEnv }));

const ga = vi.hoisted(() => ({ initialize: vi.fn(), event: vi.fn() }));
vi.mock('react-ga4', () => ({ default: ga }));

import { resetConsentForTests, storeConsent } from '../consent/consent-store';
import { loadAnalytics, resetAnalyticsForTests, sendPageEvent } from './analytics';
import { usePageEvent } from './page-events';

function Page({ name, projectTitle }: { name: string; projectTitle?: string }) {
  usePageEvent(name, projectTitle);
  return <p>{name}</p>;
}

/** Where the visitor is: the address bar and the document's title, as the router would leave them. */
function at(path: string, title: string) {
  window.history.replaceState(null, '', path);
  document.title = title;
}

/** GA4's page parameters for a page of this test's origin. */
const page = (path: string, title: string) => ({ page_location: `${window.location.origin}${path}`, page_title: title });
const HOME = page('/home', 'Alex Example');

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
  at('/home', 'Alex Example');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('usePageEvent', () => {
  it('sends the event with the string form of ReactGA.event once consent is stored', async () => {
    localStorage.setItem('cookieConsent', 'true');
    render(<Page name="homePage" />);
    await waitFor(() => expect(ga.event).toHaveBeenCalledTimes(1));
    // GA4's page parameters (the full URL and the title), not Universal Analytics' page_path.
    expect(ga.event).toHaveBeenCalledWith('homePage', HOME);
    expect(ga.event.mock.calls[0]?.[1]).not.toHaveProperty('page_path');
    expect(ga.initialize).toHaveBeenCalledWith('G-TEST123');
  });

  it('queues events sent before analytics finished loading and sends them after initialize, in order', async () => {
    localStorage.setItem('cookieConsent', 'true');
    sendPageEvent('homePage');
    at('/projects?from=home', 'Projects | Alex Example');
    sendPageEvent('projectsPage');
    expect(ga.event).not.toHaveBeenCalled();

    await waitFor(() => expect(ga.event).toHaveBeenCalledTimes(2));
    expect(ga.event.mock.calls).toEqual([
      ['homePage', HOME],
      ['projectsPage', page('/projects?from=home', 'Projects | Alex Example')],
    ]);
    expect(ga.initialize.mock.invocationCallOrder[0]).toBeLessThan(ga.event.mock.invocationCallOrder[0]!);
    expect(ga.initialize).toHaveBeenCalledTimes(1);
  });

  it('sends a project page with its title as project_title', async () => {
    localStorage.setItem('cookieConsent', 'true');
    await loadAnalytics();
    at('/es/projects/1', 'Gestor de reservas de hotel | Alex Example');
    render(<Page name="Hotel_Booking_Manager" projectTitle="Hotel Booking Manager" />);
    // The analytics code is fetched on demand, so the event leaves a moment after the render.
    await waitFor(() =>
      expect(ga.event).toHaveBeenCalledWith('Hotel_Booking_Manager', {
        ...page('/es/projects/1', 'Gestor de reservas de hotel | Alex Example'),
        project_title: 'Hotel Booking Manager',
      }),
    );
  });

  it('names the page the event was raised on, even when the visitor has moved on before it leaves', async () => {
    localStorage.setItem('cookieConsent', 'true');
    render(<Page name="aboutPage" />);
    at('/contact', 'Contact | Alex Example');
    await waitFor(() => expect(ga.event).toHaveBeenCalledTimes(1));
    expect(ga.event).toHaveBeenCalledWith('aboutPage', HOME);
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
    expect(ga.event).toHaveBeenCalledWith('projectsPage', HOME);
  });

  it('sends once per mount and again when the name changes, also under StrictMode', async () => {
    localStorage.setItem('cookieConsent', 'true');
    await loadAnalytics();
    const { rerender, unmount } = render(
      <StrictMode>
        <Page name="Photography_Portfolio" />
      </StrictMode>,
    );
    rerender(
      <StrictMode>
        <Page name="Photography_Portfolio" />
      </StrictMode>,
    );
    await settle();
    expect(ga.event).toHaveBeenCalledTimes(1);
    rerender(
      <StrictMode>
        <Page name="Dining_Tracker" />
      </StrictMode>,
    );
    await waitFor(() => expect(ga.event).toHaveBeenCalledTimes(2));
    expect(ga.event).toHaveBeenLastCalledWith('Dining_Tracker', HOME);
    unmount();
    render(<Page name="Dining_Tracker" />);
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
      ['contactPage', HOME],
      ['blogsPage', HOME],
    ]);
  });
});
