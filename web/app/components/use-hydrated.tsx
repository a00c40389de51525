import { createContext, startTransition, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';

/**
 * Whether the page has hydrated. Outside a HydrationProvider (a component rendered on its own, as in
 * unit tests, is rendered by the client from the start) it is true.
 */
const HydratedContext = createContext(true);

/** The performance mark set once, when the page has hydrated and switched to its client-only parts. */
export const HYDRATED_MARK = 'hydrated';

/**
 * False in the prerendered HTML and during hydration, true afterwards. The switch is a transition, so
 * the parts that change with it (greeting, buttons that need the scripts, the theme control) re-render
 * in short slices after hydration instead of in one long synchronous task (Total Blocking Time).
 */
export function HydrationProvider({ children }: { children: ReactNode }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => startTransition(() => setHydrated(true)), []);
  // `<html data-hydrated>` once that switch has rendered: an observable signal for tests and styles,
  // independent of when the scripts arrive; and a `hydrated` performance mark, the moment the page
  // became fully interactive, which `npm run bench:engines` reads in every engine.
  useEffect(() => {
    if (!hydrated) return;
    document.documentElement.dataset.hydrated = 'true';
    if (performance.getEntriesByName(HYDRATED_MARK).length === 0) performance.mark(HYDRATED_MARK);
  }, [hydrated]);
  return <HydratedContext.Provider value={hydrated}>{children}</HydratedContext.Provider>;
}

/**
 * False in the prerendered HTML and during hydration, true afterwards. Text that depends on the
 * visitor's clock (greeting, year) waits for it, so the HTML and the first client render agree.
 */
export function useHydrated(): boolean {
  return useContext(HydratedContext);
}

/**
 * A value from the browser (a media query, the stored theme, an API's presence) that the prerender
 * cannot know: `serverValue` in the HTML and while hydrating, the store's value once the page has
 * hydrated, then kept in step with the store. The switch rides the `hydrated` transition (rendered
 * in slices). Giving useSyncExternalStore a server snapshot that differs from the client's would
 * instead make React re-render every consumer synchronously right after hydration
 * (react-dom's updateStoreInstance → forceStoreRerender): one long task on every page.
 */
export function useClientValue<T>(subscribe: (onChange: () => void) => () => void, getSnapshot: () => T, serverValue: T): T {
  const hydrated = useHydrated();
  const server = () => serverValue;
  return useSyncExternalStore(subscribe, hydrated ? getSnapshot : server, server);
}
