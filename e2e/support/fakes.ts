/**
 * Stand-ins for Google's scripts, served with page.route so no test ever reaches Google.
 * Both are plain browser scripts, sent as text.
 */

/** react-google-recaptcha loads exactly this (node_modules/react-google-recaptcha/lib/esm/recaptcha-wrapper.js). */
export const RECAPTCHA_SCRIPT_URL = 'https://www.google.com/recaptcha/api.js?onload=onloadcallback&render=explicit';
/** react-ga4 loads https://www.googletagmanager.com/gtag/js?id=<measurement id>. */
export const GTAG_SCRIPT_PATTERN = /^https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=/;
export const RECAPTCHA_SCRIPT_PATTERN = /^https:\/\/www\.google\.com\/recaptcha\/api\.js(\?|$)/;

// The fake reCAPTCHA api.js is shared with `LOCAL_CAPTCHA=fake npm start` (tools/fake-recaptcha.ts).
export { FAKE_CAPTCHA_LABEL, FAKE_RECAPTCHA_JS } from '../../tools/fake-recaptcha';

/**
 * A fake gtag.js: records that it loaded (window.__fakeGtag) and leaves window.dataLayer, which
 * react-ga4 fills with every gtag(...) call, for the tests to read. It sends nothing anywhere.
 */
export const FAKE_GTAG_JS = String.raw`(function () {
  window.dataLayer = window.dataLayer || [];
  window.__fakeGtag = { loaded: true, src: document.currentScript ? document.currentScript.src : '', at: Date.now() };
})();`;
