import { useSyncExternalStore } from 'react';

const REDUCE_QUERY = '(prefers-reduced-motion: reduce)';

function query(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(REDUCE_QUERY) : null;
}

function subscribe(listener: () => void) {
  const media = query();
  media?.addEventListener('change', listener);
  return () => media?.removeEventListener('change', listener);
}

/**
 * Whether in-app links should animate the page change with a view transition (React Router's
 * `viewTransition`): yes unless the visitor prefers reduced motion. Browsers without view
 * transitions simply navigate. False in the prerender, where links do not navigate in-app anyway.
 */
export function useViewTransitions(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => !query()?.matches,
    () => false,
  );
}
