import { useEffect, useLayoutEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * Spec §2: every page starts scrolled to the top, on load and on each navigation (also back and
 * forward, and reloads: the browser's own restoration is switched off).
 */
export function ScrollReset() {
  const { pathname } = useLocation();
  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
  }, []);
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
