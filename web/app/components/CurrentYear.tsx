import { useHydrated } from './use-hydrated';

/** The visitor's current year, rendered after hydration in a box reserved at 4 digits wide. */
export function CurrentYear() {
  const hydrated = useHydrated();
  return <span className="current-year">{hydrated ? new Date().getFullYear() : ''}</span>;
}
