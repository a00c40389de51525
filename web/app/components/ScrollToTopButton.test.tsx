import { act, fireEvent, render, screen, inEnglish } from '../../test/render';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HydrationProvider } from './use-hydrated';
import { BackToTopButton } from './BackToTopButton';
import { ScrollToTopButton } from './ScrollToTopButton';

function scrollWindowTo(y: number) {
  act(() => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    window.dispatchEvent(new Event('scroll'));
  });
}

function mockReducedMotion(reduce: boolean) {
  window.matchMedia = vi.fn().mockImplementation((query: string) => ({
    matches: reduce && query.includes('prefers-reduced-motion: reduce'),
    media: query,
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
  })) as unknown as typeof window.matchMedia;
}

describe('scroll to top', () => {
  let scrollTo: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    scrollTo = vi.fn();
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
    mockReducedMotion(false);
  });
  afterEach(() => {
    scrollWindowTo(0);
  });

  it('appears only once the page is scrolled more than 300 px', () => {
    render(<ScrollToTopButton />);
    expect(screen.queryByRole('button', { name: /top/i })).not.toBeInTheDocument();
    scrollWindowTo(300);
    expect(screen.queryByRole('button', { name: /top/i })).not.toBeInTheDocument();
    scrollWindowTo(301);
    expect(screen.getByRole('button', { name: /top/i })).toBeInTheDocument();
    scrollWindowTo(120);
    expect(screen.queryByRole('button', { name: /top/i })).not.toBeInTheDocument();
  });

  it('is shown at once when the page loads already scrolled', () => {
    scrollWindowTo(900);
    render(<ScrollToTopButton />);
    expect(screen.getByRole('button', { name: /top/i })).toBeInTheDocument();
  });

  it('scrolls smoothly to the top and moves focus to the main region', () => {
    const main = document.createElement('main');
    main.id = 'main';
    main.tabIndex = -1;
    document.body.append(main);
    render(<ScrollToTopButton />);
    scrollWindowTo(1200);
    fireEvent.click(screen.getByRole('button', { name: /top/i }));
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, left: 0, behavior: 'smooth' });
    expect(document.activeElement).toBe(main);
    main.remove();
  });

  it('scrolls instantly for visitors who prefer reduced motion', () => {
    mockReducedMotion(true);
    render(<BackToTopButton />);
    fireEvent.click(screen.getByRole('button', { name: /top/i }));
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, left: 0, behavior: 'auto' });
  });

  it('prerenders the in-page button disabled: it cannot scroll before the scripts have hydrated the page', () => {
    const page = document.createElement('div');
    page.innerHTML = renderToString(
      inEnglish(
        <HydrationProvider>
          <BackToTopButton />
        </HydrationProvider>,
      ),
    );
    expect(page.querySelector('button')).toBeDisabled();
    render(<BackToTopButton />);
    expect(screen.getByRole('button', { name: /top/i })).toBeEnabled();
  });
});
