/** The smoke check's CSP reading: source matching and inline-script hashes as a browser computes them. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { allows, inlineScripts, parseCsp, unadmittedScripts } from './csp';

const sha = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

describe('CSP reading', () => {
  const policy = parseCsp(
    "default-src 'self'; script-src 'self' https://www.google.com/recaptcha/ https://www.googletagmanager.com; " +
      'connect-src https://*.google-analytics.com; frame-src https://www.google.com/recaptcha/',
  );
  const self = 'https://site.dev';

  it('matches host, wildcard host, path prefix and self, and falls back to default-src', () => {
    expect(allows(policy, 'script-src', 'https://www.google.com/recaptcha/api.js', self)).toBe(true);
    expect(allows(policy, 'script-src', 'https://www.google.com/maps/api.js', self)).toBe(false);
    expect(allows(policy, 'script-src', 'http://www.googletagmanager.com/gtag/js', self)).toBe(false);
    expect(allows(policy, 'connect-src', 'https://region1.google-analytics.com/g/collect', self)).toBe(true);
    expect(allows(policy, 'connect-src', 'https://google-analytics.com.evil.dev/', self)).toBe(false);
    expect(allows(policy, 'img-src', 'https://site.dev/a.png', self)).toBe(true);
    expect(allows(policy, 'img-src', 'https://cdn.dev/a.png', self)).toBe(false);
  });

  it('finds executable inline scripts only and hashes their exact text', () => {
    const html =
      '<script>window.a=1;</script><script type="module" async="">import "/x.js";</script>' +
      '<script src="/b.js"></script><script type="application/ld+json">{"a":1}</script><script id="_R_">b()</script>' +
      '<script data-src="/assets/inline-1.js"></script>'; // an empty placeholder never runs
    const scripts = inlineScripts(html);
    expect(scripts.map((s) => s.hash)).toEqual([sha('window.a=1;'), sha('import "/x.js";'), sha('b()')]);
  });

  it("admits by hash; 'unsafe-inline' only counts when there is no hash or nonce", () => {
    const scripts = inlineScripts('<script>a()</script><script>b()</script>');
    expect(unadmittedScripts(parseCsp(`script-src '${sha('a()')}'`), scripts).map((s) => s.hash)).toEqual([sha('b()')]);
    expect(unadmittedScripts(parseCsp("script-src 'unsafe-inline'"), scripts)).toEqual([]);
    expect(unadmittedScripts(parseCsp(`script-src 'unsafe-inline' '${sha('a()')}'`), scripts)).toHaveLength(1);
  });
});
