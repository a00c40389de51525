/**
 * The CSP's Google sources against what the installed libraries really load: no test reaches
 * Google, so the URLs are read from the packages themselves, and a library update that moves a
 * script to another host fails here instead of on the live site.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allows, parseCsp } from '../scripts/smoke/csp';
import { contentSecurityPolicy } from './security-headers';

const SELF = 'https://www.portfolio.dev';
const policy = parseCsp(contentSecurityPolicy({ upgradeInsecureRequests: true }));
const require = createRequire(import.meta.url);

/** A file of an installed package, by its path inside the package. */
function packageFile(name: string, file: string): string {
  return readFileSync(path.join(path.dirname(require.resolve(`${name}/package.json`)), file), 'utf8');
}

/** The capture group of `pattern` in `text`, or a failure that says which library changed. */
function extract(text: string, pattern: RegExp, what: string): string {
  const match = pattern.exec(text);
  if (!match?.[1]) throw new Error(`${what} not found: the library changed, check the CSP against its new code`);
  return match[1];
}

describe("the Content-Security-Policy admits Google's scripts as the installed libraries load them", () => {
  it('reCAPTCHA: the api.js URL react-google-recaptcha builds (default host, not recaptcha.net)', () => {
    const wrapper = packageFile('react-google-recaptcha', 'lib/esm/recaptcha-wrapper.js');
    const host = extract(wrapper, /useRecaptchaNet \? "[^"]+" : "([^"]+)"/, 'react-google-recaptcha default host');
    // getURL's last, unconditional return (the one before it is for reCAPTCHA Enterprise).
    const scriptPath = extract(wrapper, /\n {2}return "https:\/\/" \+ hostname \+ "([^"?]+)\?/, 'react-google-recaptcha script path');
    const url = `https://${host}${scriptPath}?onload=onloadcallback&render=explicit`;
    expect(url).toBe('https://www.google.com/recaptcha/api.js?onload=onloadcallback&render=explicit');
    expect(allows(policy, 'script-src', url, SELF)).toBe(true);
  });

  it('reCAPTCHA: the widget code api.js pulls from gstatic, and the widget and challenge frames', () => {
    expect(allows(policy, 'script-src', 'https://www.gstatic.com/recaptcha/releases/abc123/recaptcha__en.js', SELF)).toBe(true);
    for (const frame of [
      'https://www.google.com/recaptcha/api2/anchor?k=key',
      'https://www.google.com/recaptcha/api2/bframe?k=key',
      'https://recaptcha.google.com/recaptcha/api2/anchor?k=key',
    ]) {
      expect(allows(policy, 'frame-src', frame, SELF), frame).toBe(true);
    }
    // Only the reCAPTCHA paths, not all of google.com.
    expect(allows(policy, 'script-src', 'https://www.google.com/maps/api.js', SELF)).toBe(false);
    expect(allows(policy, 'frame-src', 'https://www.google.com/search', SELF)).toBe(false);
  });

  it("GA4: react-ga4's default gtag.js URL, and the hits it sends", () => {
    const ga4 = packageFile('react-ga4', 'dist/index.mjs');
    const gtagUrl = extract(ga4, /gtagUrl = "([^"]+)"/, 'react-ga4 default gtagUrl');
    expect(allows(policy, 'script-src', `${gtagUrl}?id=G-AB12CD34EF`, SELF)).toBe(true);
    for (const hit of ['https://region1.google-analytics.com/g/collect', 'https://www.google-analytics.com/g/collect']) {
      expect(allows(policy, 'connect-src', hit, SELF), hit).toBe(true);
      expect(allows(policy, 'img-src', hit, SELF), hit).toBe(true);
    }
    expect(allows(policy, 'connect-src', 'https://region1.analytics.google.com/g/collect', SELF)).toBe(true);
  });
});
