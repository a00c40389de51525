import type { Page, Route } from 'playwright-core';

/** The page's own scripts: the entry, the route modules and their chunks. */
export const OWN_SCRIPTS = /\/assets\/[^/?]+\.js(\?|$)/;

/**
 * Holds every request for the page's own scripts until `release()` is called: the prerendered
 * HTML and CSS arrive, React does not (a slow phone's first seconds). Counts what it held; later
 * requests (another page's scripts) pass once released.
 */
export async function holdScripts(page: Page): Promise<{ release: () => void; held: () => number; firstHeld: Promise<void> }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let firstIn!: () => void;
  // The browser asks for the scripts as it parses the page; the test's route handler hears of it a
  // moment later. A test that must act while a script is already waiting awaits this.
  const firstHeld = new Promise<void>((resolve) => (firstIn = resolve));
  let held = 0;
  await page.route(OWN_SCRIPTS, async (route: Route) => {
    held += 1;
    firstIn();
    await gate;
    // The test may have ended (context closed) while the request waited.
    await route.continue().catch(() => {});
  });
  return { release, held: () => held, firstHeld };
}
