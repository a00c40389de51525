import { LOCALES, LOCALE_CODES } from '../content/locales';
import { render, screen } from '@testing-library/react';
import { createRoutesStub } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary, HydrateFallback, links, meta } from './root';

vi.mock('./features/tracking/track-click', () => ({ trackClick: vi.fn() }));

describe('root route', () => {
  it('links the favicons (SVG with an ICO fallback), the touch icon and the web manifest', () => {
    const hrefs = links().map((l) => `${l.rel} ${l.href}`);
    expect(hrefs).toEqual(
      expect.arrayContaining(['icon /favicon.svg', 'icon /favicon.ico', 'apple-touch-icon /apple-touch-icon.png', 'manifest /site.webmanifest']),
    );
  });

  it('keeps the SPA fallback page (served with status 404) out of search results', () => {
    expect(meta()).toContainEqual({ name: 'robots', content: 'noindex' });
  });

  it('has a quiet hydrate fallback that reserves the main area, with a heading for assistive technology only, in every language', () => {
    const { container } = render(<HydrateFallback />);
    expect(container.firstElementChild).toHaveClass('page-placeholder');
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading).toHaveClass('visually-hidden');
    // One page serves the unknown paths of every language: each line is marked with its language.
    for (const code of LOCALE_CODES) {
      const line = heading.querySelector(`[lang="${code}"]`);
      expect(line).toHaveTextContent(`${LOCALES[code].fallback.loading}${LOCALES[code].fallback.needsScripts}`);
    }
    expect(heading.querySelector('[lang="en"]')).toHaveTextContent(/^Loading the page…\s*This page needs JavaScript$/);
  });

  it('shows a friendly error with a way home when a page throws', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Boom = () => {
      throw new Error('boom');
    };
    const Stub = createRoutesStub([{ path: '/', Component: Boom, ErrorBoundary }]);
    render(<Stub initialEntries={['/']} />);
    expect(await screen.findByRole('heading', { name: 'Something went wrong.' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
    spy.mockRestore();
  });
});
