import { fireEvent, render, screen, within, inEnglish } from '../../test/render';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, createRoutesStub, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HydrationProvider } from '../components/use-hydrated';
import { MobileBar } from './MobileBar';
import { LOCALE_CODES, LOCALES } from '../../content/locales';
import { site } from '../../content/site';
import { ui } from '../../content/ui';

/** The language switcher's entries on /home: each other language's home, by its own name. */
const SWITCHER = LOCALE_CODES.filter((code) => code !== 'en').map((code) => [LOCALES[code].name, `/${code}/home`]);

const trackClick = vi.hoisted(() => vi.fn());
vi.mock('../features/tracking/track-click', () => ({ trackClick }));

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderBar(path = '/home') {
  const Page = () => (
    <>
      <MobileBar />
      <Where />
    </>
  );
  const Stub = createRoutesStub([{ path: '*', Component: Page }]);
  return render(<Stub initialEntries={[path]} />);
}

describe('mobile top bar', () => {
  beforeEach(() => trackClick.mockClear());

  it('shows the owner name and a closed menu button', async () => {
    renderBar();
    expect(await screen.findByRole('link', { name: site.name })).toHaveAttribute('href', '/home');
    const button = screen.getByRole('button', { name: /menu/i });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('opens the menu with the four entries linking to their lowercase paths', async () => {
    renderBar();
    await userEvent.click(await screen.findByRole('button', { name: /menu/i }));
    expect(screen.getByRole('button', { name: /menu/i })).toHaveAttribute('aria-expanded', 'true');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      [ui.menu.Projects, '/projects'],
      [ui.menu.About, '/about'],
      [ui.menu.Contact, '/contact'],
      [ui.menu.Blogs, '/blogs'],
      // The language switcher: the same page in each other language.
      ...SWITCHER,
    ]);
  });

  it('closes when an entry is chosen, navigates and counts the click', async () => {
    renderBar();
    await userEvent.click(await screen.findByRole('button', { name: /menu/i }));
    await userEvent.click(within(screen.getByRole('navigation')).getByRole('link', { name: 'Contact' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/contact');
    expect(screen.getByRole('button', { name: /menu/i })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(trackClick).toHaveBeenCalledWith('SIDEBAR_NAV', 'Contact');
  });

  it('closes on Escape and gives focus back to the menu button', async () => {
    renderBar();
    const button = await screen.findByRole('button', { name: /menu/i });
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(document.activeElement).toBe(button);
  });

  it('toggles closed with the same button', async () => {
    renderBar();
    const button = await screen.findByRole('button', { name: /menu/i });
    await userEvent.click(button);
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('prerenders a native popover menu that opens without scripts, its state left to the browser', () => {
    const html = renderToString(
      inEnglish(
        <HydrationProvider>
          <MemoryRouter initialEntries={['/home']}>
            <MobileBar />
          </MemoryRouter>
        </HydrationProvider>,
      ),
    );
    const page = document.createElement('div');
    page.innerHTML = html;
    const button = page.querySelector('button')!;
    const nav = page.querySelector('nav')!;
    expect(nav).toHaveAttribute('popover', 'auto');
    expect(nav).not.toHaveAttribute('hidden');
    expect(button).toHaveAttribute('popovertarget', nav.id);
    // The browser derives the expanded state from the popover until React takes over.
    expect(button).not.toHaveAttribute('aria-expanded');
    expect(Array.from(nav.querySelectorAll('a'), (a) => a.getAttribute('href'))).toEqual([
      '/projects',
      '/about',
      '/contact',
      '/blogs',
      ...SWITCHER.map(([, href]) => href),
    ]);
  });
});
