import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};
const thisYear = () => String(new Date().getFullYear());

/**
 * The year the page was prerendered in, as the HTML holds it: while hydrating, React must render
 * exactly what the prerender wrote, so it is read back from the page rather than from the clock.
 */
function prerenderedYear(): string {
  const written = typeof document === 'undefined' ? null : document.querySelector('.current-year')?.textContent;
  // Nothing written yet: this is the prerender itself (at build time).
  return written || thisYear();
}

/**
 * The visitor's current year. The prerendered page already shows the build's year (so the footer
 * is complete before and without scripts); after hydration it is the visitor's clock's year, in
 * a box reserved at 4 digits wide, so a new year never shifts the layout.
 */
export function CurrentYear() {
  const year = useSyncExternalStore(noSubscription, thisYear, prerenderedYear);
  return <span className="current-year">{year}</span>;
}
