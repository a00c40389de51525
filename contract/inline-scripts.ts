/**
 * The only inline scripts a page may carry. Their text never depends on content, so the CSP admits
 * them by a hash computed from this source (infra/shared/security-headers.ts), and a content-only
 * deploy leaves the CloudFront response-headers policy byte-for-byte as it was.
 *
 * Everything else a page runs comes from a file: the post-build step (scripts/postbuild.ts) moves
 * React Router's and React's per-page inline scripts into content-hashed files under assets/ and
 * leaves an empty placeholder of the same element in their place (empty inline scripts never run),
 * and fails the build on any other inline script. To add a constant inline script (e.g. a theme
 * script), add its source to INLINE_SCRIPTS: that is the whole change.
 */
import { THEME_SCRIPT } from './theme-script';
import { PHONE_MEDIA_QUERY } from './viewport';

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
 */
export const PAGE_VIEWS_ATTRIBUTE = 'data-page-views';
export const PAGE_VIEWS_SENT = 'sent';
export const PAGE_VIEWS_APP = 'app';
/**
 * The largest TTFB or FCP (ms) the boot script sends with its page view: the vitals API's bound for both
 * (contract/vitals.ts VITALS_MAX, checked equal by its test; not imported, so the route list stays out of
 * the app's first-load chunk).
 */
export const BOOT_METRIC_MAX_MS = 600_000;
/** `<html data-hydrated="true">`: set once the app has hydrated (use-hydrated.tsx); the boot listener stops there. */
const HYDRATED_ATTRIBUTE = 'data-hydrated';

/**
 * Starts the page's scripts after its first paint: waits for the document to be parsed and for the
 * images the page preloads (its largest element, such as the first video poster) to arrive, at most
 * IMAGE_WAIT_MS, so the scripts never compete with them for the network; then for one frame to be
 * painted (a task queued from requestAnimationFrame runs after that frame); then adds the
 * deferred module preloads (a copy of each such template's links), then loads each placeholder's
 * file, all of them in document order (async false, module scripts too): React Router's route-module
 * script must run after its context script, which the parser guaranteed by running that one inline
 * first, even when the modules are cached.
 * Until the app has hydrated it also counts clicks on tracked links (CLICK_EVENT_ATTRIBUTE): one
 * listener on the document, in the capture phase, sends the link's event name to the events endpoint
 * (the script's own EVENTS_ENDPOINT_ATTRIBUTE) with sendBeacon, as trackClick does, and marks the
 * event (CLICK_COUNTED_PROPERTY) so the app's handler, if React already listens, does not send it
 * again. Once `<html data-hydrated="true">` is set it leaves every click to the app. And it sends the
 * document's page view if the page is hidden or left before the app's page-view code started
 * (PAGE_VIEWS_ATTRIBUTE), unless Global Privacy Control is on: a visitor who leaves a slow page early
 * is counted too, with the TTFB and FCP the browser's timeline already holds (LCP, CLS and INP need
 * observers, which are the web-vitals library's job).
 * It first switches off the browser's own scroll restoration, before the browser could restore a
 * reload's old position: a reload starts at the top, and hydration never scrolls (the layout scrolls
 * only when the visitor navigates). Plain ES2015 so every browser the site supports parses it.
 */
/**
 * The longest the scripts wait for the preloaded images: on a slow link the page is already usable
 * without them (real links, the menu, typed text), but the form and the theme control need them.
 */
export const IMAGE_WAIT_MS = 1000;

function bootScript(): string {
  return (
  "(function(){var d=document,de=d.documentElement,cs=d.currentScript,hid=d.visibilityState==='hidden';" +
  `var ep=cs&&cs.getAttribute('${EVENTS_ENDPOINT_ATTRIBUTE}'),pv=cs&&cs.getAttribute('${PAGE_VIEW_ATTRIBUTE}');` +
  'function send(u,b){try{if(navigator.sendBeacon&&navigator.sendBeacon(u,b))return}catch(x){}' +
  "try{fetch(u,{method:'POST',body:b,keepalive:true,credentials:'omit',headers:{'Content-Type':'text/plain;charset=UTF-8'}})" +
  "['catch'](function(){})}catch(x){}}" +
  "if(ep)d.addEventListener('click',function(e){" +
  `if(de.getAttribute('${HYDRATED_ATTRIBUTE}')==='true')return;` +
  `var a=e.target&&e.target.closest?e.target.closest('[${CLICK_EVENT_ATTRIBUTE}]'):null;if(!a)return;` +
  `e.${CLICK_COUNTED_PROPERTY}=1;send(ep,JSON.stringify({name:a.getAttribute('${CLICK_EVENT_ATTRIBUTE}')}))},true);` +
  // The page view, when the page is hidden or left before the app's page-view code has started.
  'function view(){' +
  `if(!ep||!pv||de.getAttribute('${PAGE_VIEWS_ATTRIBUTE}')||navigator.globalPrivacyControl===true)return;` +
  `de.setAttribute('${PAGE_VIEWS_ATTRIBUTE}','${PAGE_VIEWS_SENT}');` +
  `var v=JSON.parse(pv);v.device=matchMedia('${PHONE_MEDIA_QUERY}').matches?'phone':'desktop';v.nav='load';` +
  // TTFB and FCP as web-vitals computes them, from the entries the browser already keeps (no observer):
  // the navigation entry only when its responseStart is above 0 and before now (else no TTFB, and FCP
  // from 0); each value from activationStart, clamped at 0 (a prerendered page activated after its first
  // byte); FCP only if the page was shown from its start. An absent or out-of-range value is left out
  // (JSON.stringify drops undefined): the server would refuse the beacon.
  "var p=performance,e=p.getEntriesByType('navigation')[0],n=e&&e.responseStart>0&&e.responseStart<p.now()?e:{}," +
  "f=p.getEntriesByName('first-contentful-paint')[0];" +
  `function ms(t){if(!(t>=0))return;t=Math.round(Math.max(t-(n.activationStart||0),0));if(t<=${BOOT_METRIC_MAX_MS})return t}` +
  'v.ttfb=ms(n.responseStart);if(f&&!hid)v.fcp=ms(f.startTime);' +
  "send(ep.replace(/[^/]*$/,'vitals'),JSON.stringify(v))}" +
  "addEventListener('pagehide',view);" +
  "d.addEventListener('visibilitychange',function(){if(d.visibilityState==='hidden')view()});" +
  "if('scrollRestoration' in history)history.scrollRestoration='manual';" +
  'function start(){' +
  `d.querySelectorAll('template[${DEFERRED_PRELOADS_ATTRIBUTE}]').forEach(function(t){` +
  'd.head.appendChild(d.importNode(t.content,true))});' +
  `d.querySelectorAll('script[${MOVED_SCRIPT_ATTRIBUTE}]').forEach(function(p){` +
  "var s=d.createElement('script');if(p.type)s.type=p.type;s.async=false;" +
  `s.src=p.getAttribute('${MOVED_SCRIPT_ATTRIBUTE}');d.head.appendChild(s)})}` +
  'var started=0;function afterPaint(){if(started)return;started=1;' +
  'requestAnimationFrame(function(){setTimeout(start,0)})}' +
  'function parsed(){' +
  "var ls=d.querySelectorAll('link[rel=preload][as=image]'),n=ls.length;" +
  'if(!n)return afterPaint();' +
  `setTimeout(afterPaint,${IMAGE_WAIT_MS});` +
  'ls.forEach(function(l){var i=new Image();' +
  'i.onload=i.onerror=function(){if(--n===0)afterPaint()};' +
  'if(l.imageSrcset){i.sizes=l.imageSizes;i.srcset=l.imageSrcset}i.src=l.href})}' +
  "if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',parsed);else parsed()" +
  '})()'
  );
}

// Built by a call the bundler may drop: the browser build renders the element empty (root.tsx), so none
// of this text, nor the names it is made of, ships in a script.
export const HYDRATION_BOOT_SCRIPT = /* @__PURE__ */ bootScript();

/** Every constant inline script, by source text. One line per script. */
export const INLINE_SCRIPTS: readonly string[] = [
  // Sets the stored light/dark choice before the first paint, so a reload never flashes the other theme.
  THEME_SCRIPT,
  HYDRATION_BOOT_SCRIPT,
];
