import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, createRoutesStub } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppShell } from './AppShell';

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
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()} Alex Example. All rights reserved.`);
  });

  it('starts every route at the top, on load and after each navigation', async () => {
    const Page = () => (
      <AppShell>
        <Link to="/blogs">next page</Link>
      </AppShell>
    );
    const Stub = createRoutesStub([{ path: '*', Component: Page }]);
    render(<Stub initialEntries={['/projects']} />);
    await screen.findByRole('main');
    expect(window.scrollTo).toHaveBeenCalledTimes(1);
    expect(window.scrollTo).toHaveBeenLastCalledWith(0, 0);
    await userEvent.click(screen.getByRole('link', { name: 'next page' }));
    expect(window.scrollTo).toHaveBeenCalledTimes(2);
    expect(window.scrollTo).toHaveBeenLastCalledWith(0, 0);
  });
});
