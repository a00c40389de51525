import { act, english, render, screen, waitFor } from '../../../test/render';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const mockEnv = vi.hoisted(() => ({ gaMeasurementId: 'G-TEST123' }));
vi.mock('../../config/env', () => ({ env: mockEnv }));

const ga = vi.hoisted(() => ({ initialize: vi.fn(), event: vi.fn() }));
vi.mock('react-ga4', () => ({ default: ga }));

const SHORT = 'We use cookies.';

/** A fresh copy of the gate and its stores (consent, analytics), as on a new page load. */
async function freshGate() {
  vi.resetModules();
  const { ConsentGate } = await import('./ConsentGate');
  // The fresh modules' own language context: the one test/render provides is the old copy's.
  const { LocaleProvider } = await import('../../i18n/locale-context');
  const tree = (
    <LocaleProvider bundle={english}>
      <MemoryRouter>
        <ConsentGate />
      </MemoryRouter>
    </LocaleProvider>
  );
  return { ConsentGate, tree };
}

async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

beforeEach(() => {
  mockEnv.gaMeasurementId = 'G-TEST123';
  ga.initialize.mockReset();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ConsentGate', () => {
  it('renders nothing in the prerendered HTML, with or without consent', async () => {
    const { tree } = await freshGate();
    expect(renderToString(tree)).toBe('');
    localStorage.setItem('cookieConsent', 'true');
    expect(renderToString(tree)).toBe('');
  });

  it('hydrates without a mismatch, then shows the banner to a visitor without consent', async () => {
    const { tree } = await freshGate();
    const consoleError = vi.spyOn(console, 'error');
    const container = document.createElement('div');
    container.innerHTML = renderToString(tree);
    document.body.appendChild(container);
    const onRecoverableError = vi.fn();

    const root = await act(async () => hydrateRoot(container, tree, { onRecoverableError }));

    expect(await screen.findByText(SHORT)).toBeInTheDocument();
    expect(onRecoverableError).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
    await settle();
    expect(ga.initialize).not.toHaveBeenCalled();
    act(() => root.unmount());
    container.remove();
  });

  it('with consent stored earlier: no banner, and analytics start', async () => {
    localStorage.setItem('cookieConsent', 'true');
    const { tree } = await freshGate();
    const { container } = render(tree);
    await waitFor(() => expect(ga.initialize).toHaveBeenCalledWith('G-TEST123'));
    await settle();
    expect(container).toBeEmptyDOMElement();
  });

  it('without a measurement id, consent loads no analytics', async () => {
    mockEnv.gaMeasurementId = '';
    localStorage.setItem('cookieConsent', 'true');
    const { tree } = await freshGate();
    render(tree);
    await settle();
    expect(ga.initialize).not.toHaveBeenCalled();
  });
});
