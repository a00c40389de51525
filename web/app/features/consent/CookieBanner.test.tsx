import { act, render, screen, waitFor, within, inEnglish } from '../../../test/render';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const mockEnv = vi.hoisted(() => ({ gaMeasurementId: 'G-TEST123' }));
vi.mock('../../config/env', () => ({ env: mockEnv }));

const ga = vi.hoisted(() => ({ initialize: vi.fn(), event: vi.fn() }));
vi.mock('react-ga4', () => ({ default: ga }));

import { resetAnalyticsForTests } from '../analytics/analytics';
import { CookieBanner } from './CookieBanner';
import { resetConsentForTests } from './consent-store';

const SHORT = 'We use cookies.';
const LONG = 'We use cookies to enhance your experience and improve website functionality and content.';
/** The toggle's accessible names: its visible + or - first (label in name), then what it shows. */
const COLLAPSED = '+ More about cookies';
const EXPANDED = '- More about cookies';

function renderBanner() {
  return render(
    <MemoryRouter>
      <CookieBanner />
    </MemoryRouter>,
  );
}

/** Lets the dynamic import() of react-ga4 and its .then() run. */
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
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('CookieBanner', () => {
  it('starts collapsed: the short text, a Privacy policy link and a "+" toggle, no Accept', () => {
    renderBanner();
    const banner = screen.getByRole('region', { name: 'Cookie consent' });
    expect(within(banner).getByText(SHORT)).toBeInTheDocument();
    expect(within(banner).queryByText(LONG)).not.toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', '/privacy-policy');
    const toggle = within(banner).getByRole('button', { name: COLLAPSED });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // The visible text as designed; the name adds what it is about, and aria-controls names what it changes.
    expect(toggle).toHaveTextContent(/^\+$/);
    const controlled = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(controlled).toHaveTextContent(SHORT);
    expect(controlled).toContainElement(within(banner).getByRole('link', { name: 'Privacy policy' }));
    expect(within(banner).queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
  });

  it('expands with the toggle to the long text, Accept and the Privacy policy link, and collapses again', async () => {
    const user = userEvent.setup();
    renderBanner();
    await user.click(screen.getByRole('button', { name: COLLAPSED }));

    const toggle = screen.getByRole('button', { name: EXPANDED });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveTextContent(/^-$/);
    const controlled = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(controlled).toHaveTextContent(LONG);
    expect(controlled).toContainElement(screen.getByRole('button', { name: 'Accept' }));
    expect(screen.getByText(LONG)).toBeInTheDocument();
    expect(screen.queryByText(SHORT)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Accept' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', '/privacy-policy');

    await user.click(toggle);
    expect(screen.getByRole('button', { name: COLLAPSED })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText(SHORT)).toBeInTheDocument();
  });

  it('Accept stores cookieConsent=true, hides the banner and loads analytics', async () => {
    const user = userEvent.setup();
    renderBanner();
    await settle();
    expect(ga.initialize).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: COLLAPSED }));
    await user.click(screen.getByRole('button', { name: 'Accept' }));

    expect(localStorage.getItem('cookieConsent')).toBe('true');
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
    await waitFor(() => expect(ga.initialize).toHaveBeenCalledWith('G-TEST123'));
    expect(ga.initialize).toHaveBeenCalledTimes(1);
  });

  it('with consent stored earlier: no banner, and analytics load at start', async () => {
    localStorage.setItem('cookieConsent', 'true');
    const { container } = renderBanner();
    expect(container).toBeEmptyDOMElement();
    await waitFor(() => expect(ga.initialize).toHaveBeenCalledWith('G-TEST123'));
  });

  it('only the exact string "true" counts as consent', async () => {
    localStorage.setItem('cookieConsent', 'yes');
    renderBanner();
    expect(screen.getByRole('region', { name: 'Cookie consent' })).toBeInTheDocument();
    await settle();
    expect(ga.initialize).not.toHaveBeenCalled();
  });

  it('without consent analytics never load', async () => {
    const user = userEvent.setup();
    renderBanner();
    await user.click(screen.getByRole('button', { name: COLLAPSED }));
    await settle();
    expect(ga.initialize).not.toHaveBeenCalled();
    expect(ga.event).not.toHaveBeenCalled();
  });

  it('without a measurement id, Accept still hides the banner but analytics never load', async () => {
    mockEnv.gaMeasurementId = '';
    const user = userEvent.setup();
    renderBanner();
    await user.click(screen.getByRole('button', { name: COLLAPSED }));
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
    await settle();
    expect(ga.initialize).not.toHaveBeenCalled();
  });

  it('an analytics error is logged with console.error only', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    ga.initialize.mockImplementation(() => {
      throw new Error('gtag exploded');
    });
    localStorage.setItem('cookieConsent', 'true');
    renderBanner();
    await waitFor(() => expect(consoleError).toHaveBeenCalled());
    expect(String(consoleError.mock.calls[0]?.[0])).toContain('Analytics');
    expect(consoleError.mock.calls[0]?.[1]).toEqual(new Error('gtag exploded'));
  });

  it('survives a localStorage that throws: treated as no consent, Accept still closes the banner', async () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    const user = userEvent.setup();
    renderBanner();
    expect(screen.getByText(SHORT)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: COLLAPSED }));
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
    // The visitor accepted for this visit, so analytics may load even if storage refused to keep it.
    await waitFor(() => expect(ga.initialize).toHaveBeenCalledTimes(1));
  });

  it('follows consent given in another tab (storage event)', async () => {
    renderBanner();
    expect(screen.getByRole('region', { name: 'Cookie consent' })).toBeInTheDocument();
    localStorage.setItem('cookieConsent', 'true');
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'cookieConsent', newValue: 'true' }));
    });
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
    await waitFor(() => expect(ga.initialize).toHaveBeenCalledTimes(1));
  });
});

describe('CookieBanner and the prerendered HTML', () => {
  const tree = inEnglish(
    <MemoryRouter>
      <CookieBanner />
    </MemoryRouter>,
  );

  it('renders nothing on the server, so consented visitors never see a flash', () => {
    expect(renderToString(tree)).toBe('');
    localStorage.setItem('cookieConsent', 'true');
    expect(renderToString(tree)).toBe('');
  });

  it('hydrates without a mismatch, then shows the banner to a visitor without consent', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const container = document.createElement('div');
    container.innerHTML = renderToString(tree);
    document.body.appendChild(container);
    const onRecoverableError = vi.fn();

    const root = await act(async () => hydrateRoot(container, tree, { onRecoverableError }));

    expect(screen.getByText(SHORT)).toBeInTheDocument();
    expect(onRecoverableError).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
    act(() => root.unmount());
    container.remove();
  });
});
