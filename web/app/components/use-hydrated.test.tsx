import { render, screen, waitFor } from '../../test/render';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HYDRATED_MARK, HydrationProvider, useHydrated } from './use-hydrated';

function State() {
  return <p>{useHydrated() ? 'hydrated' : 'prerendered'}</p>;
}

describe('useHydrated', () => {
  it('is false in the prerendered HTML, under the provider', () => {
    expect(
      renderToString(
        <HydrationProvider>
          <State />
        </HydrationProvider>,
      ),
    ).toContain('prerendered');
  });

  it('turns true after the first render in the browser, and marks <html data-hydrated> and the performance timeline once', async () => {
    delete document.documentElement.dataset.hydrated;
    performance.clearMarks(HYDRATED_MARK);
    const { unmount } = render(
      <HydrationProvider>
        <State />
      </HydrationProvider>,
    );
    expect(await screen.findByText('hydrated')).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-hydrated', 'true'));
    expect(performance.getEntriesByName(HYDRATED_MARK, 'mark')).toHaveLength(1);
    // A second provider (a remount) keeps the first moment: the page hydrated once.
    unmount();
    render(
      <HydrationProvider>
        <State />
      </HydrationProvider>,
    );
    await waitFor(() => expect(screen.getByText('hydrated')).toBeInTheDocument());
    expect(performance.getEntriesByName(HYDRATED_MARK, 'mark')).toHaveLength(1);
  });

  it('is true outside the provider: a component rendered on its own is rendered by the browser', () => {
    render(<State />);
    expect(screen.getByText('hydrated')).toBeInTheDocument();
  });
});
