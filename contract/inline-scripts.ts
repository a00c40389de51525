/**
 * The names the page's constant inline scripts share with the app and the post-build step: the
 * attributes and marks the boot script (web/boot/boot.ts, generated into each page by web/boot/generate.ts)
 * reads and sets. Their text never depends on content, so the CSP admits them by hashes computed from
 * the generated text (infra/shared/security-headers.ts), and a content-only deploy leaves the CloudFront
 * response-headers policy byte-for-byte as it was.
 *
 * Everything else a page runs comes from a file: the post-build step (scripts/postbuild.ts) moves
 * React Router's and React's per-page inline scripts into content-hashed files under assets/ and
 * leaves an empty placeholder of the same element in their place (empty inline scripts never run),
 * and fails the build on any other inline script. To add a constant inline script (e.g. a theme
 * script), add it to web/boot/generate.ts inlineScripts: that is the whole change.
 */

/** Attribute of a moved script's placeholder: the file that holds its code. */
export const MOVED_SCRIPT_ATTRIBUTE = 'data-src';
/**
 * Attribute of the <template> that holds the page's module preloads until its first paint: the
 * <link rel="modulepreload"> elements, unchanged. A template's content is inert, and the HTML
 * standard's speculative parsing never fetches from it either (no preload scanner request); the
 * markup stays valid HTML. The boot script appends a copy of the links to the head.
 */
export const DEFERRED_PRELOADS_ATTRIBUTE = 'data-deferred-preloads';

/** Attribute of a tracked link: its click event's name (CLICK_EVENTS), for the boot script's listener. */
export const CLICK_EVENT_ATTRIBUTE = 'data-event';
/** Attribute of the boot script itself: the events endpoint (VITE_EVENTS_ENDPOINT), so its text stays constant. */
export const EVENTS_ENDPOINT_ATTRIBUTE = 'data-events-endpoint';
/**
 * Set on a click event the boot script has counted: the app's click handler (trackClick) skips such an
 * event, so a click in the moments when both listen (React attached, hydration not yet switched) is
 * sent once.
 */
export const CLICK_COUNTED_PROPERTY = '__portfolioClickCounted';
/**
 * Attribute of the boot script: the page's route pattern and language as JSON (`{"route":"/home","lang":"en"}`,
 * contract/vitals.ts routeOfPath), written into each page by the post-build step, for the page view the boot script sends
 * when the page is hidden or left before the app's page-view code (features/tracking/vitals.ts) started.
 */
export const PAGE_VIEW_ATTRIBUTE = 'data-page-view';
/**
 * `<html data-page-views>`: who counts this document's first page view. The boot script sets it to
 * PAGE_VIEWS_SENT when it sent it; the app's page-view code sets PAGE_VIEWS_APP when it starts (and
 * then leaves the first page view out if the boot script had sent it). Either way, once.
 *
 * A page the boot script counted, left, and restored from the back/forward cache before the app's
 * code started is a page view of its own that nobody has counted: the boot script then sets
 * PAGE_VIEWS_RESTORED, and whichever of the two comes first counts it, without the first load's
 * metrics (the browser's timeline still holds only those).
 */
export const PAGE_VIEWS_ATTRIBUTE = 'data-page-views';
export const PAGE_VIEWS_SENT = 'sent';
export const PAGE_VIEWS_RESTORED = 'restored';

export const PAGE_VIEWS_APP = 'app';
/** `<html data-hydrated="true">`: set once the app has hydrated (use-hydrated.tsx); the boot listener stops there. */
export const HYDRATED_ATTRIBUTE = 'data-hydrated';

/**
 * The longest the scripts wait for the preloaded images: on a slow link the page is already usable
 * without them (real links, the menu, typed text), but the form and the theme control need them.
 */
export const IMAGE_WAIT_MS = 1000;
