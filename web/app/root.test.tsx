import { LOCALES, LOCALE_CODES, localeDirection } from '../content/locales';
import { ui as english } from '../content/ui';
import { ui as spanish } from '../content/es/ui';
import { act, englishMatches, render, screen } from '../test/render';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { homeLink } from './i18n/paths';
import { EveryLanguageNotFound } from './layout/FallbackPage';
import { notFoundTexts } from './layout/fallback-texts.server';
import { ErrorBoundary, HydrateFallback, links, meta } from './root';

vi.mock('./features/tracking/track-click', () => ({ trackClick: vi.fn() }));

describe('root route', () => {
  it('links the favicons (SVG with an ICO fallback), the touch icon and the web manifest', () => {
    const hrefs = links().map((l) => `${l.rel} ${l.href}`);
    expect(hrefs).toEqual(
      expect.arrayContaining([
        'icon /favicon.svg',
        'icon /favicon.ico',
        'apple-touch-icon /apple-touch-icon.png',
        'manifest /site.webmanifest',
      ]),
    );
  });

  it('keeps the SPA fallback page (served with status 404) out of search results', () => {
    expect(meta()).toContainEqual({ name: 'robots', content: 'noindex' });
  });

  it('has a quiet hydrate fallback that reserves the main area, with a heading for assistive technology only, in every language', () => {
    const { container } = render(<HydrateFallback />);
    expect(container.firstElementChild).toHaveClass('page-placeholder');
    const heading = screen.getByRole('heading', { level: 1 });
    const loading = heading.querySelector('.visually-hidden');
    // Hidden from sight with scripts, and not shown at all without them (the 404 words are then).
    expect(loading).toHaveClass('when-scripting');
    // One page serves the unknown paths of every language: each line is marked with its language.
    for (const code of LOCALE_CODES) {
      expect(loading?.querySelector(`[lang="${code}"]`)).toHaveTextContent(LOCALES[code].fallback.loading);
      expect(loading?.querySelector(`[lang="${code}"]`)).toHaveAttribute('dir', localeDirection(code));
    }
    // Every language's line, in the order of locales.ts.
    expect(heading.textContent?.replace(/\s+/g, ' ').trim()).toBe(LOCALE_CODES.map((code) => LOCALES[code].fallback.loading).join(' '));
    // The browser renders no <noscript> content: nothing of the 404 words is in the scripts' output.
    expect([...container.querySelectorAll('noscript')].map((n) => n.innerHTML)).toEqual(['', '']);
  });

  describe('without JavaScript (the prerendered fallback page)', () => {
    /** The fallback page as the build prerenders it (entry.server.tsx), and its <noscript> content as a browser without scripts parses it. */
    function prerendered(): { html: string; page: HTMLElement } {
      const html = renderToString(
        <EveryLanguageNotFound.Provider value={notFoundTexts()}>
          <HydrateFallback />
        </EveryLanguageNotFound.Provider>,
      );
      const page = document.createElement('div');
      page.innerHTML = html.replaceAll(/<\/?noscript>/g, '');
      return { html, page };
    }

    it("shows the 404 page's heading, message and a link home in every language, each marked with its language", () => {
      const { html, page } = prerendered();
      expect(html.match(/<noscript>/g)).toHaveLength(2);
      const headings = page.querySelectorAll('h1');
      expect(headings).toHaveLength(1);
      for (const code of LOCALE_CODES) {
        const { notFound } = code === 'en' ? english : spanish;
        expect(headings[0]?.querySelector(`.fallback-page__line[lang="${code}"]`)).toHaveTextContent(notFound.heading);
        expect(headings[0]?.querySelector(`.fallback-page__line[lang="${code}"]`)).toHaveAttribute('dir', localeDirection(code));
        const block = page.querySelector(`.fallback-page__language[lang="${code}"]`);
        expect(block).toHaveAttribute('dir', localeDirection(code));
        expect(block?.querySelector('p')).toHaveTextContent(notFound.message);
        const link = block?.querySelector('a');
        expect(link).toHaveTextContent(notFound.goHome);
        expect(link).toHaveAttribute('href', homeLink(code));
      }
      expect(page.querySelector('[lang="es"] a')).toHaveAttribute('href', '/es/home');
      expect(page.querySelector('[lang="en"] a')).toHaveAttribute('href', '/');
    });

    it('hydrates with the browser build without a mismatch, leaving the <noscript> content as the HTML has it', async () => {
      const { html } = prerendered();
      const container = document.createElement('div');
      container.innerHTML = html;
      document.body.appendChild(container);
      const noscriptBefore = [...container.querySelectorAll('noscript')].map((n) => n.innerHTML);
      const consoleError = vi.spyOn(console, 'error');
      const onRecoverableError = vi.fn();
      const root = await act(async () => hydrateRoot(container, <HydrateFallback />, { onRecoverableError }));
      expect(onRecoverableError).not.toHaveBeenCalled();
      expect(consoleError).not.toHaveBeenCalled();
      expect([...container.querySelectorAll('noscript')].map((n) => n.innerHTML)).toEqual(noscriptBefore);
      expect(noscriptBefore.join('')).toContain(spanish.notFound.heading);
      act(() => root.unmount());
      container.remove();
    });

    it('names the language whose ui.ts is missing', () => {
      expect(() => notFoundTexts({ '../../content/ui.ts': english })).toThrow(/web\/content\/es\/ui\.ts/);
    });
  });

  it('shows a friendly error with a way home when a page throws', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Boom = () => {
      throw new Error('boom');
    };
    const Stub = createRoutesStub([{ path: '/', Component: Boom, ErrorBoundary, handle: englishMatches[0]!.handle }]);
    render(<Stub initialEntries={['/']} />);
    expect(await screen.findByRole('heading', { name: 'Something went wrong.' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
    spy.mockRestore();
  });
});
