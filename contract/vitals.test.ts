import { describe, expect, it } from 'vitest';
import { CLSThresholds, FCPThresholds, INPThresholds, LCPThresholds, TTFBThresholds } from 'web-vitals';
import { checkVitalsBeacon, routeOfPath, VITALS_ROUTES, VITALS_THRESHOLDS } from './vitals';

// The test's own languages, the default first: the owner's may be others.
const LANGUAGES = ['en', 'es'];

describe('routeOfPath: the pattern and language of an address, never the address', () => {
  it.each([
    ['/', '/', 'en'],
    ['/home', '/home', 'en'],
    ['/es/home', '/home', 'es'],
    ['/es', '/', 'es'],
    ['/projects/3', '/projects/:projectId', 'en'],
    ['/es/projects/7', '/projects/:projectId', 'es'],
    ['/privacy-policy/', '/privacy-policy', 'en'],
    ['/blogs/every-feature', '/blogs/:slug', 'en'],
    ['/es/blogs/every-feature/', '/blogs/:slug', 'es'],
    ['/blogs/tags/css', '/blogs/tags/:tag', 'en'],
    ['/es/blogs/tags/css', '/blogs/tags/:tag', 'es'],
    ['/blogs/tags', '/blogs/:slug', 'en'],
    ['/blogs/tags/css/more', '*', 'en'],
    ['/es/error', '/error', 'es'],
    ['/no/such/page', '*', 'en'],
    ['/projects/3/more', '*', 'en'],
    // qaa: ISO 639's range for local use, never a site's language.
    ['/qaa/home', '*', 'en'],
    ['/*', '*', 'en'],
  ])('%s → %s in %s', (pathname, route, lang) => {
    expect(routeOfPath(pathname, LANGUAGES)).toEqual({ route, lang });
  });

  it('gives only patterns the server accepts', () => {
    for (const path of ['/', '/home', '/es/projects/x', '/blogs/a-post', '/es/blogs/tags/x', '/zzz']) {
      const { route, lang } = routeOfPath(path, LANGUAGES);
      expect(checkVitalsBeacon({ route, lang, device: 'phone', nav: 'load' }, LANGUAGES).ok).toBe(true);
    }
    expect(VITALS_ROUTES).toEqual(expect.arrayContaining(['/projects/:projectId', '/blogs/:slug', '/blogs/tags/:tag', '*']));
  });

  it('reads the languages it is given: the first is the unprefixed one', () => {
    expect(routeOfPath('/home', ['fr', 'en'])).toEqual({ route: '/home', lang: 'fr' });
    expect(routeOfPath('/en/home', ['fr', 'en'])).toEqual({ route: '/home', lang: 'en' });
    expect(routeOfPath('/es/home', ['fr', 'en'])).toEqual({ route: '*', lang: 'fr' });
  });
});

describe('checkVitalsBeacon', () => {
  it('keeps the known fields, rounded', () => {
    expect(
      checkVitalsBeacon({ route: '/home', lang: 'en', device: 'desktop', nav: 'load', lcp: 0.4, cls: 0.123456, ttfb: 0 }, LANGUAGES),
    ).toEqual({
      ok: true,
      beacon: { route: '/home', lang: 'en', device: 'desktop', nav: 'load', lcp: 0, cls: 0.1235, ttfb: 0 },
    });
  });

  it.each([null, 'x', 3, [], { route: '/home' }, { route: '/home', lang: 'en', device: 'phone', nav: 'load', lcp: Number.NaN }])(
    'refuses %j',
    (value) => {
      expect(checkVitalsBeacon(value, LANGUAGES).ok).toBe(false);
    },
  );

  it('refuses a language it was not given', () => {
    expect(checkVitalsBeacon({ route: '/home', lang: 'es', device: 'phone', nav: 'load' }, ['en'])).toMatchObject({
      ok: false,
      reason: 'lang',
    });
  });

  it("uses Google's thresholds, good below poor", () => {
    expect(VITALS_THRESHOLDS.lcp).toEqual({ good: 2500, poor: 4000 });
    expect(VITALS_THRESHOLDS.inp).toEqual({ good: 200, poor: 500 });
    expect(VITALS_THRESHOLDS.cls).toEqual({ good: 0.1, poor: 0.25 });
    for (const { good, poor } of Object.values(VITALS_THRESHOLDS)) expect(good).toBeLessThan(poor);
    // The same numbers the browser's library rates with.
    const library = { lcp: LCPThresholds, inp: INPThresholds, cls: CLSThresholds, fcp: FCPThresholds, ttfb: TTFBThresholds };
    for (const [metric, [good, poor]] of Object.entries(library)) {
      expect(VITALS_THRESHOLDS[metric as keyof typeof library], metric).toEqual({ good, poor });
    }
  });
});
