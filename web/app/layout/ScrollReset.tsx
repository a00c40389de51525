import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** Stops the browser from restoring an old scroll position on reload and on back and forward. */
export function takeOverScrollRestoration(): void {
  if (typeof window !== 'undefined' && 'scrollRestoration' in window.history) {
    window.history.scrollRestoration = 'manual';
  }
}

// As early as this code runs (before hydration), so a reload from here on starts at the top. The
// page's inline boot script should do the same before the browser restores anything.
takeOverScrollRestoration();

/**
 * Every page starts at the top: a fresh load does by itself (the browser's restoration is off),
 * and each navigation to another path scrolls there. Hydration is not a navigation: a visitor
 * who scrolled while the scripts were on their way keeps reading where they are.
 */
export function ScrollReset() {
  const { pathname } = useLocation();
  const shownPath = useRef(pathname);

  useLayoutEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
