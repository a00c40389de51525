import { fireEvent, render, screen, within, inEnglish } from '../../test/render';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, createRoutesStub } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { funFacts } from '../../content/fun-facts';
import { site } from '../../content/site';
import { HydrationProvider } from '../components/use-hydrated';
import { SidePanel } from './SidePanel';
import { pickFunFact } from './fun-facts';

const trackClick = vi.hoisted(() => vi.fn());
vi.mock('../features/tracking/track-click', () => ({ trackClick }));

function renderPanel() {
  const Stub = createRoutesStub([{ path: '*', Component: SidePanel }]);
  return render(<Stub initialEntries={['/home']} />);
}

async function openModal() {
  const headshot = await screen.findByRole('button', { name: /fun fact/i });
  await userEvent.click(headshot);
  return { headshot, dialog: screen.getByRole('dialog') };
}

describe('pickFunFact', () => {
  it('maps the random number onto every fact, including the ends', () => {
    expect(pickFunFact(['a', 'b', 'c', 'd', 'e'], () => 0)).toBe('a');
    expect(pickFunFact(['a', 'b', 'c', 'd', 'e'], () => 0.45)).toBe('c');
    expect(pickFunFact(['a', 'b', 'c', 'd', 'e'], () => 0.9999)).toBe('e');
  });
  it('refuses an empty list with a clear message', () => {
    expect(() => pickFunFact([])).toThrow(/at least one fun fact/);
  });
});

describe('desktop side panel', () => {
  beforeEach(() => trackClick.mockClear());
  afterEach(() => vi.restoreAllMocks());

  it('shows name, role, menu, technology badges and the profile link', async () => {
    renderPanel();
    expect(await screen.findByRole('link', { name: site.name })).toBeInTheDocument();
    expect(screen.getByText(site.role)).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/projects', '/about', '/contact', '/blogs']);
    const badges = within(screen.getByRole('list', { name: 'Technologies' })).getAllByRole('listitem');
    expect(badges.map((b) => b.textContent)).toEqual(site.badges);
    const profile = screen.getByRole('link', { name: /linkedin/i });
    expect(profile).toHaveAttribute('href', site.profileUrl);
    expect(profile).toHaveAttribute('rel', 'noopener noreferrer');
    await userEvent.click(profile);
    expect(trackClick).toHaveBeenCalledWith('SIDEBAR_LINKEDIN_CLICK');
  });

  it('counts menu clicks as SIDEBAR_NAV_{MENU}', async () => {
    renderPanel();
    await userEvent.click(await screen.findByRole('link', { name: 'Blogs' }));
    expect(trackClick).toHaveBeenCalledWith('SIDEBAR_NAV', 'Blogs');
  });

  it('opens an labelled, modal dialog with a fact, focus inside', async () => {
    renderPanel();
    const { dialog } = await openModal();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleName('Fun fact');
    expect(funFacts.some((fact) => within(dialog).queryByText(fact))).toBe(true);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' }));
  });

  it.each([
    ['the Close button', () => fireEvent.click(screen.getByRole('button', { name: 'Close' }))],
    ['Got it!', () => fireEvent.click(screen.getByRole('button', { name: 'Got it!' }))],
    ['the backdrop', () => fireEvent.click(screen.getByTestId('modal-backdrop'))],
    ['Escape', () => fireEvent.keyDown(document, { key: 'Escape' })],
  ])('closes with %s and returns focus to the headshot', async (_way, close) => {
    renderPanel();
    const { headshot } = await openModal();
    close();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.activeElement).toBe(headshot);
  });

  it('does not close when the dialog itself is clicked', async () => {
    renderPanel();
    const { dialog } = await openModal();
    fireEvent.click(dialog);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('keeps Tab and Shift+Tab inside the dialog', async () => {
    renderPanel();
    const { dialog } = await openModal();
    const close = within(dialog).getByRole('button', { name: 'Close' });
    const gotIt = within(dialog).getByRole('button', { name: 'Got it!' });
    await userEvent.tab();
    expect(document.activeElement).toBe(gotIt);
    await userEvent.tab();
    expect(document.activeElement).toBe(close);
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(gotIt);
  });

  it('picks a fact at random at each opening', async () => {
    const random = vi.spyOn(Math, 'random');
    random.mockReturnValueOnce(0).mockReturnValueOnce(0.99).mockReturnValueOnce(0.5);
    renderPanel();
    const shown: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { dialog } = await openModal();
      shown.push(within(dialog).getByText((_, el) => el?.tagName === 'P' && funFacts.includes(el.textContent ?? '')).textContent ?? '');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Got it!' }));
    }
    expect(shown).toEqual([funFacts[0], funFacts[4], funFacts[2]]);
    expect(random).toHaveBeenCalledTimes(3);
  });
});

describe('before hydration', () => {
  it('prerenders the headshot visibly not ready (disabled, "Loading…"), ready once hydrated', () => {
    const html = renderToString(
      inEnglish(
        <HydrationProvider>
          <MemoryRouter initialEntries={['/home']}>
            <SidePanel />
          </MemoryRouter>
        </HydrationProvider>,
      ),
    );
    const page = document.createElement('div');
    page.innerHTML = html;
    const button = page.querySelector('button.headshot-button');
    expect(button).toBeDisabled();
    expect(button).toHaveTextContent('Loading…');
    // The visible line is part of the accessible name (label in name), not hidden from it.
    document.body.append(page);
    expect(within(page).getByRole('button', { name: `Show a fun fact about ${site.name} Loading… Needs JavaScript` })).toBe(button);
    page.remove();

    renderPanel();
    const headshot = screen.getByRole('button', { name: `Show a fun fact about ${site.name}` });
    expect(headshot).toBeEnabled();
    expect(headshot).toHaveTextContent('Fun fact?');
  });
});
