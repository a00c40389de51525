import { act, render, screen } from '../../test/render';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CurrentYear } from './CurrentYear';

afterEach(() => {
  vi.useRealTimers();
});

describe('<CurrentYear />', () => {
  it('prerenders the year of the build, so the footer is complete without scripts', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 5, 1));
    expect(renderToString(<CurrentYear />)).toContain('2025');
  });

  it("hydrates without a mismatch, then shows the visitor's year when it differs from the build's", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 11, 31, 23, 0));
    const container = document.createElement('p');
    container.innerHTML = renderToString(<CurrentYear />);
    document.body.append(container);
    vi.setSystemTime(new Date(2026, 0, 1, 9, 0));
    const consoleError = vi.spyOn(console, 'error');
    const root = await act(async () => hydrateRoot(container, <CurrentYear />));
    expect(container).toHaveTextContent('2026');
    expect(consoleError, 'no hydration mismatch').not.toHaveBeenCalled();
    consoleError.mockRestore();
    act(() => root.unmount());
    container.remove();
  });

  it('renders the current year on the client', () => {
    render(<CurrentYear />);
    expect(screen.getByText(String(new Date().getFullYear()))).toBeInTheDocument();
  });
});
