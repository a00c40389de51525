/**
 * The local CDN's static side, through real HTTP against a fixture build: routing by the CloudFront
 * Function, the 404 fallback, path safety, headers, caching, compression, conditional and range requests.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_IMMUTABLE, CACHE_ONE_DAY, CACHE_REVALIDATE } from '../shared/cache-control';
import { FEED_CONTENT_TYPE, PAGE_DATA_CONTENT_TYPE } from '../shared/content-type';
import { startLocalStack, type LocalStack } from './stack';
import { fixtureBuild, send, type RawReply } from './test-support';

const page = (title: string) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>${'<p>Worth compressing.</p>'.repeat(80)}</body></html>`;
const APP_JS = Array.from({ length: 300 }, (_, i) => `export const f${i} = (a) => a * ${i};\n`).join('');
const PAGE_DATA = JSON.stringify(Array.from({ length: 200 }, (_, i) => ['routes/contact', { title: `Contact ${i}` }]));
const VIDEO = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919) % 256));

const fixture = fixtureBuild({
  'home/index.html': page('Home'),
  'projects/3/index.html': page('Project 3'),
  'es/home/index.html': page('Inicio'),
  'es/index.html': page('To Inicio'),
  '__spa-fallback.html': page('Fallback'),
  'assets/app-abc123.js': APP_JS,
  'videos/demo.mp4': VIDEO,
  'robots.txt': 'User-agent: *\nAllow: /\n',
  'contact.data': PAGE_DATA,
  'feed.xml': '<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"/>',
  'es/feed.xml': '<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xml:lang="es"/>',
  'sitemap.xml': '<?xml version="1.0" encoding="UTF-8"?><urlset/>',
});
writeFileSync(path.join(fixture.buildDir, 'secret.txt'), 'outside the client dir');
let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, sesPort: 0, clientDir: fixture.clientDir, quiet: true });
});

afterAll(async () => {
  await stack?.stop();
});

const get = (url: string, headers: Record<string, string> = {}, method = 'GET') => send(stack.url, { path: url, headers, method });
const title = (reply: RawReply) => /<title>([^<]*)<\/title>/.exec(reply.body.toString())?.[1];

describe('routing through the CloudFront Function', () => {
  it('redirects / to /home with 302, keeping the query', async () => {
    const reply = await get('/?utm_source=x&a=1');
    expect(reply.status).toBe(302);
    expect(reply.headers.location).toBe('/home?utm_source=x&a=1');
  });

  it.each([
    ['/home', 'Home'],
    ['/home/', 'Home'],
    ['/projects/3?ref=mail', 'Project 3'],
    ['/es/home', 'Inicio'],
    // A language's root: its prerendered page, which sends the visitor to its home (index-redirect.tsx).
    ['/es', 'To Inicio'],
    ['/es/', 'To Inicio'],
    ['/%68ome', 'Home'], // percent-encoded letters name the same key, as in S3
  ])('%s serves its prerendered page with 200', async (url, expected) => {
    const reply = await get(url);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(title(reply)).toBe(expected);
  });

  // One fallback for every language: the app picks the 404 page of the path's language.
  it.each([
    '/nope',
    '/projects/99',
    '/es/nope',
    '/es/projects/99',
    '/fr',
    '/assets/missing-123.js',
    '/assets',
    '/api/unknown',
    '/api/contact',
  ])('%s gets the fallback page with 404', async (url) => {
    const reply = await get(url);
    expect(reply.status).toBe(404);
    expect(title(reply)).toBe('Fallback');
    expect(reply.headers['cache-control']).toBe(CACHE_REVALIDATE);
  });

  it.each(['/../secret.txt', '/..%2fsecret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/home%00.html'])(
    'never serves anything outside the client dir: %s',
    async (url) => {
      const reply = await get(url);
      expect([400, 404]).toContain(reply.status);
      expect(reply.body.toString()).not.toContain('outside the');
    },
  );

  it('answers 405 with Allow to methods the static behavior does not take', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const reply = await get('/home', {}, method);
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('GET, HEAD');
    }
  });
});

describe('headers', () => {
  it('sets the security headers on every kind of response', async () => {
    const replies = await Promise.all([get('/'), get('/home'), get('/nope'), get('/home', {}, 'POST'), get('/api/events', {}, 'POST')]);
    for (const reply of replies) {
      const csp = String(reply.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp).not.toContain('upgrade-insecure-requests'); // plain http here
      expect(reply.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains; preload');
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['x-frame-options']).toBe('DENY');
      expect(reply.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });

  it.each([
    ['/assets/app-abc123.js', CACHE_IMMUTABLE, 'text/javascript; charset=utf-8'],
    ['/home', CACHE_REVALIDATE, 'text/html; charset=utf-8'],
    ['/videos/demo.mp4', CACHE_ONE_DAY, 'video/mp4'],
    ['/robots.txt', CACHE_ONE_DAY, 'text/plain; charset=utf-8'],
  ])('%s: Cache-Control %s, Content-Type %s', async (url, cacheControl, contentType) => {
    const reply = await get(url);
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe(cacheControl);
    expect(reply.headers['content-type']).toBe(contentType);
    expect(reply.headers.etag).toBeTruthy();
  });
});

describe('compression', () => {
  it('sends brotli when accepted, else gzip, else identity, with Vary', async () => {
    const br = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toBe(APP_JS);

    const gz = await get('/home', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toContain('<h1>Home</h1>');

    const none = await get('/assets/app-abc123.js', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.toString()).toBe(APP_JS);
  });

  it("serves a page's .data as text/x-script (as React Router does, and the upload sets), compressed", async () => {
    const reply = await get('/contact.data', { 'accept-encoding': 'br' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe(PAGE_DATA_CONTENT_TYPE);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(reply.body).toString()).toBe(PAGE_DATA);
    expect(reply.headers['cache-control']).toBe(CACHE_REVALIDATE);
  });

  it("serves each language's feed as application/atom+xml (as the upload sets), other XML by its extension", async () => {
    for (const feed of ['/feed.xml', '/es/feed.xml']) {
      const reply = await get(feed);
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe(FEED_CONTENT_TYPE);
      expect(reply.headers['cache-control']).toBe(CACHE_ONE_DAY);
    }
    expect((await get('/sitemap.xml')).headers['content-type']).toMatch(/^application\/xml/);
  });

  it('compresses the 404 page keeping its status; never media or ranges', async () => {
    const notFound = await get('/nope', { 'accept-encoding': 'br' });
    expect(notFound.status).toBe(404);
    expect(brotliDecompressSync(notFound.body).toString()).toContain('Fallback');
    expect((await get('/videos/demo.mp4', { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
    const ranged = await get('/assets/app-abc123.js', { 'accept-encoding': 'br', range: 'bytes=0-1999' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-encoding']).toBeUndefined();
    expect(ranged.body.toString()).toBe(APP_JS.slice(0, 2000));
  });
});

describe('conditional and range requests', () => {
  it('answers 304 to a matching If-None-Match, with the security headers, never for the 404 page', async () => {
    const etag = String((await get('/home')).headers.etag);
    const again = await get('/home', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['content-security-policy']).toBeTruthy();
    expect((await get('/home', { 'if-none-match': '"other"' })).status).toBe(200);
    const fallbackTag = String((await get('/nope')).headers.etag);
    expect((await get('/nope', { 'if-none-match': fallbackTag })).status).toBe(404);
  });

  it('serves a video byte range with 206 and Content-Range, and 416 beyond the end', async () => {
    const reply = await get('/videos/demo.mp4', { range: 'bytes=100-199' });
    expect(reply.status).toBe(206);
    expect(reply.headers['content-range']).toBe(`bytes 100-199/${VIDEO.length}`);
    expect(reply.body.equals(VIDEO.subarray(100, 200))).toBe(true);
    const suffix = await get('/videos/demo.mp4', { range: 'bytes=-5' });
    expect(suffix.body.equals(VIDEO.subarray(VIDEO.length - 5))).toBe(true);
    const beyond = await get('/videos/demo.mp4', { range: `bytes=${VIDEO.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${VIDEO.length}`);
  });
});
