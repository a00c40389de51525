import { render, screen, waitFor } from '../../test/render';
import userEvent from '@testing-library/user-event';
import { Link, createRoutesStub } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { site } from '../../content/site';
import { AppShell } from './AppShell';
import { HydrationProvider } from '../components/use-hydrated';
import { takeOverScrollRestoration } from './ScrollReset';

vi.mock('../features/tracking/track-click', () => ({ trackClick: vi.fn() }));

describe('shared layout', () => {
  beforeEach(() => {
    window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  });

  it('has a skip link to main, the landmarks, and a footer with the current year and rights notice', async () => {
    const Page = () => (
      <AppShell>
        <h1>Page</h1>
      </AppShell>
    );
    const Stub = createRoutesStub([{ path: '*', Component: Page }]);
    render(<Stub initialEntries={['/about']} />);
    const skip = await screen.findByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveAttribute('href', '#main');
    const main = screen.getByRole('main');
    expect(main).toHaveAttribute('id', 'main');
    expect(main).toContainElement(screen.getByRole('heading', { name: 'Page' }));
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('complementary')).toBeInTheDocument();
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()} ${site.name}. All rights reserved.`);
  });

  it('leaves the first render where it is, starts each navigation at the top, ', async () => {
    const Page = () => (
      <AppShell>
        <Link to="/blogs">next page</Link>
        <Link to="/blogs#intro">same page</Link>
      </AppShell>
    );
    const Stub = createRoutesStub([{ path: '*', Component: Page }]);
    render(<Stub initialEntries={['/projects']} />);
    await screen.findByRole('main');
    // The first render is the page's load (or hydration): a visitor who scrolled keeps reading.
    expect(window.scrollTo).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('link', { name: 'next page' }));
    expect(window.scrollTo).toHaveBeenCalledTimes(1);
    expect(window.scrollTo).toHaveBeenLastCalledWith(0, 0);
    // A change of hash alone is not a new page.
    await userEvent.click(screen.getByRole('link', { name: 'same page' }));
    expect(window.scrollTo).toHaveBeenCalledTimes(1);
  });

  it("switches the browser's own scroll restoration off, so a reload starts at the top", () => {
    // jsdom has no scrollRestoration: give its history one, as browsers have.
    Object.defineProperty(window.history, 'scrollRestoration', { value: 'auto', writable: true, configurable: true });
    takeOverScrollRestoration();
    expect(window.history.scrollRestoration).toBe('manual');
  });

  it('marks the document as hydrated once the switch to hydrated has rendered', async () => {
    delete document.documentElement.dataset.hydrated;
    const Stub = createRoutesStub([
      {
        path: '*',
        Component: () => (
          <HydrationProvider>
            <AppShell>page</AppShell>
          </HydrationProvider>
        ),
      },
    ]);
    render(<Stub initialEntries={['/home']} />);
    await screen.findByRole('main');
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-hydrated', 'true'));
  });
});
