import type { Page } from 'playwright-core';

/** The page's own scripts: the entry, the route modules and their chunks. */
export const OWN_SCRIPTS = /\/assets\/[^/?]+\.js(\?|$)/;

/**
 * Holds every request for the page's own scripts until `release()` is called: the prerendered
 * HTML and CSS arrive, React does not (a slow phone's first seconds). Counts what it held; later
 * requests (another page's scripts) pass once released.
 *
 * Paused with a narrow CDP Fetch pattern rather than page.route, which would pause every request of the
 * page on its way through this process. The HTTP cache is off meanwhile, so every script is asked for.
 */
export async function holdScripts(
  page: Page,
): Promise<{ release: () => void; held: () => number; heldFor: (documentUrl: string) => number; firstHeld: Promise<void> }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let firstIn!: () => void;
  // The browser asks for the scripts as it parses the page; the test hears of it a moment later. A
  // test that must act while a script is already waiting awaits this.
  const firstHeld = new Promise<void>((resolve) => (firstIn = resolve));
  let held = 0;
  // The document that asked for each held script (its Referer): one page reused for many shows which held what.
  const askedBy: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Fetch.requestPaused', async ({ requestId, request }) => {
    if (OWN_SCRIPTS.test(request.url)) {
      held += 1;
      askedBy.push(request.headers.Referer ?? request.headers.referer ?? '');
      firstIn();
      await gate;
    }
    // The test may have ended (context closed) while the request waited.
    await cdp.send('Fetch.continueRequest', { requestId }).catch(() => {});
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*/assets/*.js*' }] });
  return { release, held: () => held, heldFor: (documentUrl) => askedBy.filter((url) => url === documentUrl).length, firstHeld };
}

/** How many of the page's own scripts have arrived in its document (a resource's timing entry comes when it has). */
export function ownScriptsArrived(page: Page): Promise<number> {
  return page.evaluate(
    (source) => performance.getEntriesByType('resource').filter((entry) => new RegExp(source).test(entry.name)).length,
    OWN_SCRIPTS.source,
  );
}
