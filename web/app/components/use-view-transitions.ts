import { useClientValue } from './use-hydrated';

const REDUCE_QUERY = '(prefers-reduced-motion: reduce)';

function query(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(REDUCE_QUERY) : null;
}

/** Whether the visitor asks for reduced motion (no when the browser cannot tell). */
export function prefersReducedMotion(): boolean {
  return query()?.matches === true;
}

function subscribe(listener: () => void) {
  const media = query();
  media?.addEventListener('change', listener);
  return () => media?.removeEventListener('change', listener);
}

/**
 * Whether in-app links should animate the page change with a view transition (React Router's
 * `viewTransition`): yes unless the visitor prefers reduced motion. Browsers without view
 * transitions simply navigate. False in the prerender and while hydrating (links navigate in-app only
 * once hydrated), true or false from the `hydrated` switch on.
 */
export function useViewTransitions(): boolean {
  return useClientValue(subscribe, () => !query()?.matches, false);
}
