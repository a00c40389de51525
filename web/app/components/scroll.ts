import { prefersReducedMotion } from './use-view-transitions';

/** The scroll-to-top button appears once the page is scrolled past this many pixels. */
export const SCROLL_TOP_THRESHOLD = 300;

/**
 * Scrolls to the top, smoothly unless the visitor asked for reduced motion, and moves keyboard
 * focus to the main region so it is not lost when the floating button disappears.
 */
export function scrollToTop(): void {
  window.scrollTo({ top: 0, left: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  document.getElementById('main')?.focus({ preventScroll: true });
}
