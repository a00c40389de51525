import { act, render, screen } from '../../test/render';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onDemand } from './on-demand';

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount((n) => n + 1)}>
      {label} {count}
    </button>
  );
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('onDemand', () => {
  it('fetches nothing until rendered or preloaded, and only once', async () => {
    const load = vi.fn(() => Promise.resolve(Counter));
    const counter = onDemand('counter', load);
    expect(load).not.toHaveBeenCalled();
    counter.preload();
    counter.preload();
    render(<counter.Render label="Clicks" />);
    expect(await screen.findByRole('button', { name: 'Clicks 0' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('renders nothing while the chunk is on the way, then the component', async () => {
    const chunk = deferred<typeof Counter>();
    const counter = onDemand('counter', () => chunk.promise);
    const { container } = render(<counter.Render label="Clicks" />);
    expect(container).toBeEmptyDOMElement();
    await act(async () => chunk.resolve(Counter));
    expect(screen.getByRole('button', { name: 'Clicks 0' })).toBeInTheDocument();
  });

  it('renders in the same commit once the chunk is there (no Suspense round trip)', async () => {
    const counter = onDemand('counter', () => Promise.resolve(Counter));
    counter.preload();
    await act(async () => {});
    render(<counter.Render label="Now" />);
    expect(screen.getByRole('button', { name: 'Now 0' })).toBeInTheDocument();
  });

  it('load settles once the chunk is there, then Render shows it in its first commit', async () => {
    const chunk = deferred<typeof Counter>();
    const load = vi.fn(() => chunk.promise);
    const counter = onDemand('counter', load);
    let settled = false;
    const arrived = counter.load().then(() => (settled = true));
    await act(async () => {});
    expect(settled).toBe(false);
    chunk.resolve(Counter);
    await arrived;
    render(<counter.Render label="Ready" />);
    expect(screen.getByRole('button', { name: 'Ready 0' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('load rejects when the chunk fails, and a later call fetches again', async () => {
    const load = vi.fn<() => Promise<typeof Counter>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Counter);
    const counter = onDemand('counter', load);
    await expect(counter.load()).rejects.toThrow('offline');
    await expect(counter.load()).resolves.toBeUndefined();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps the component state across re-renders after loading lazily', async () => {
    const chunk = deferred<typeof Counter>();
    const counter = onDemand('counter', () => chunk.promise);
    const { rerender } = render(<counter.Render label="Clicks" />);
    await act(async () => chunk.resolve(Counter));
    await userEvent.click(screen.getByRole('button', { name: 'Clicks 0' }));
    rerender(<counter.Render label="Taps" />);
    expect(screen.getByRole('button', { name: 'Taps 1' })).toBeInTheDocument();
  });

  it('a chunk that fails to load renders nothing and logs, and a later mount tries again', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi.fn<() => Promise<typeof Counter>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Counter);
    const counter = onDemand('counter', load);
    const first = render(
      <main>
        <p>page</p>
        <counter.Render label="Clicks" />
      </main>,
    );
    await act(async () => {});
    expect(screen.getByText('page')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(consoleError.mock.calls.some(([message]) => String(message).includes('Could not show the counter'))).toBe(true);
    first.unmount();

    render(<counter.Render label="Again" />);
    expect(await screen.findByRole('button', { name: 'Again 0' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('a failed preload stays quiet (no unhandled rejection) and is retried', async () => {
    const load = vi.fn<() => Promise<typeof Counter>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Counter);
    const counter = onDemand('counter', load);
    counter.preload();
    await act(async () => {});
    counter.preload();
    await act(async () => {});
    expect(load).toHaveBeenCalledTimes(2);
    render(<counter.Render label="Back" />);
    expect(screen.getByRole('button', { name: 'Back 0' })).toBeInTheDocument();
  });
});
