import { act, fireEvent, render, screen, waitFor } from '../../test/render';
import { Link, createRoutesStub, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchHost } from './SearchHost';

const loadLanguageSearch = vi.hoisted(() => vi.fn(() => Promise.resolve(() => [])));
vi.mock('./index-loader', () => ({ loadLanguageSearch }));
// The dialog itself is the browser tests' (jsdom has no modal <dialog>): here, a stand-in that says it is open.
vi.mock('./SearchDialog', () => ({
  SearchDialog: ({ onClose, initialQuery }: { onClose: () => void; initialQuery?: string }) => (
    <div role="dialog" aria-label="search" aria-modal="true">
      <p data-testid="typed">{initialQuery}</p>
      <button type="button" onClick={onClose}>
        close
      </button>
    </div>
  ),
}));

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderHost() {
  const Page = () => (
    <>
      <Link to="/search" className="search-link">
        Search
      </Link>
      <Link to="/about">About</Link>
      <input aria-label="a field" />
      <Where />
      <SearchHost />
    </>
  );
  const Stub = createRoutesStub([{ path: '*', Component: Page }]);
  return render(<Stub initialEntries={['/home']} />);
}

const dialog = () => screen.queryByRole('dialog', { hidden: true });

describe('the search control once the page has hydrated', () => {
  beforeEach(() => loadLanguageSearch.mockClear());

  it('marks the links to /search as opening a dialog, and no other link', async () => {
    renderHost();
    expect(await screen.findByRole('link', { name: 'Search' })).toHaveAttribute('aria-haspopup', 'dialog');
    expect(screen.getByRole('link', { name: 'About' })).not.toHaveAttribute('aria-haspopup');
  });

  it('opens the dialog on a plain click instead of going to /search; a modified click is left to the browser', async () => {
    renderHost();
    const link = await screen.findByRole('link', { name: 'Search' });
    fireEvent.click(link);
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/home');
    fireEvent.click(screen.getByRole('button', { name: 'close' }));
    expect(dialog()).toBeNull();
    // Ctrl+click is the visitor asking for the page itself (a new tab, in a browser).
    fireEvent.click(link, { ctrlKey: true });
    expect(dialog()).toBeNull();
  });

  it('opens on / outside a field, not while typing in one, and on Ctrl+K and Cmd+K', async () => {
    renderHost();
    await screen.findByRole('link', { name: 'Search' });
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'a field' }), { key: '/' });
    expect(dialog()).toBeNull();
    fireEvent.keyDown(document.body, { key: '/' });
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'close' }));
    for (const modifier of [{ ctrlKey: true }, { metaKey: true }]) {
      fireEvent.keyDown(document.body, { key: 'k', ...modifier });
      expect(await screen.findByRole('dialog')).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'close' }));
    }
    fireEvent.keyDown(document.body, { key: 'k' });
    expect(dialog()).toBeNull();
  });

  it("fetches the language's index ahead when the link is pointed at or focused", async () => {
    renderHost();
    const link = await screen.findByRole('link', { name: 'Search' });
    expect(loadLanguageSearch).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.pointerOver(link);
    });
    expect(loadLanguageSearch).toHaveBeenCalledWith('en');
    loadLanguageSearch.mockClear();
    fireEvent.pointerOver(screen.getByRole('link', { name: 'About' }));
    fireEvent.focusIn(screen.getByRole('link', { name: 'About' }));
    expect(loadLanguageSearch).not.toHaveBeenCalled();
    fireEvent.focusIn(link);
    expect(loadLanguageSearch).toHaveBeenCalledWith('en');
  });

  it('keeps what is typed before the dialog comes, in a field focused by the click itself, and hands it over', async () => {
    renderHost();
    const link = await screen.findByRole('link', { name: 'Search' });
    fireEvent.click(link);
    // The dialog's code is still on its way: the keys land in the type-ahead field.
    const ahead = document.activeElement as HTMLInputElement;
    expect(ahead).toHaveAccessibleName('Search');
    fireEvent.change(ahead, { target: { value: 'diseno' } });
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(screen.getByTestId('typed')).toHaveTextContent('diseno');
    // Given up in the effect after the dialog's own (which took focus): it may run after findByRole returns.
    await waitFor(() => expect(ahead.isConnected).toBe(false));
  });

  it('gives the dialog up when Escape comes before it does, and focus goes back to the link', async () => {
    renderHost();
    const link = await screen.findByRole('link', { name: 'Search' });
    fireEvent.click(link);
    const ahead = document.activeElement as HTMLInputElement;
    fireEvent.keyDown(ahead, { key: 'Escape' });
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(dialog()).toBeNull();
    expect(ahead.isConnected).toBe(false);
    expect(link).toHaveFocus();
  });
});
