/**
 * The local CDN's static side, through real HTTP against a fixture build: routing by the CloudFront
 * Function, the 404 fallback, path safety, headers, caching, compression, conditional and range requests.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTBUILD_REPORT_FILE } from '../shared/build-output';
import { CACHE_IMMUTABLE, CACHE_ONE_DAY, CACHE_REVALIDATE } from '../shared/cache-control';
import { contentSecurityPolicy, INLINE_SCRIPT_HASHES } from '../shared/security-headers';
import { startLocalStack, type LocalStack } from './stack';
import { chooseEncoding, parseRange } from './static-site';

const page = (title: string, inline = `console.log(${JSON.stringify(title)})`) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `${'<p>Padding so the page is worth compressing.</p>'.repeat(40)}</main>` +
  `<script>${inline}</script><script type="module" src="/assets/app-abc123.js"></script></body></html>`;

const VIDEO = Buffer.alloc(50_000);
for (let i = 0; i < VIDEO.length; i++) VIDEO[i] = (i * 7919) % 256;
// Varied enough that brotli's levels give different sizes (the warm-up test tells them apart).
const APP_JS = Array.from({ length: 300 }, (_, i) => `export function f${i}(a, b) { return a * ${i} + b - ${(i * 7) % 13}; }\n`).join('');

let root: string;
let stack: LocalStack;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Raw HTTP (fetch would normalize the path and decode bodies). */
function get(rawPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  const { port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: rawPath, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'local-cdn-'));
  const build = path.join(root, 'build');
  const client = path.join(build, 'client');
  const files: Record<string, string | Buffer> = {
    'home/index.html': page('Home'),
    'projects/index.html': page('Projects'),
    'projects/3/index.html': page('Project 3'),
    'index.html': page('Root'),
    '__spa-fallback.html': page('Fallback', 'window.fallback = true'),
    'assets/app-abc123.js': APP_JS,
    'videos/demo.mp4': VIDEO,
    'images/shot.webp': Buffer.from('RIFF0000WEBPVP8 '),
    'robots.txt': 'User-agent: *\nAllow: /\n',
    'sitemap.xml': `<?xml version="1.0"?><urlset>${'<url><loc>https://example.com/</loc></url>'.repeat(30)}</urlset>`,
    'manifest.webmanifest': JSON.stringify({ name: 'Portfolio', icons: [] }),
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'space name/file.txt': 'spaced',
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(client, name)), { recursive: true });
    writeFileSync(path.join(client, name), content);
  }
  writeFileSync(path.join(build, 'secret.txt'), 'outside the client dir');
  writeFileSync(path.join(root, 'secret.txt'), 'outside the build');
  symlinkSync(path.join(build, 'secret.txt'), path.join(client, 'link.txt'));
  writeFileSync(path.join(build, POSTBUILD_REPORT_FILE), JSON.stringify({ inlineScriptHashes: [...INLINE_SCRIPT_HASHES] }));
  stack = await startLocalStack({ port: 0, sesPort: 0, clientDir: client, quiet: true });
});

afterAll(async () => {
  await stack?.stop();
  rmSync(root, { recursive: true, force: true });
});

const title = (reply: Reply) => /<title>([^<]*)<\/title>/.exec(reply.body.toString())?.[1];

describe('routing through the CloudFront Function', () => {
  it('redirects / to /home with 302, keeping the query', async () => {
    const reply = await get('/?utm_source=x&a=1');
    expect(reply.status).toBe(302);
    expect(reply.headers.location).toBe('/home?utm_source=x&a=1');
    expect((await get('/')).headers.location).toBe('/home');
  });

  it.each([
    ['/home', 'Home'],
    ['/home/', 'Home'],
    ['/projects', 'Projects'],
    ['/projects/3', 'Project 3'],
    ['/projects/3/', 'Project 3'],
    ['/projects/3?ref=mail', 'Project 3'],
    ['/home/index.html', 'Home'],
    ['/%68ome', 'Home'], // percent-encoded letters decode to the same key, as in S3
  ])('%s serves its prerendered page with 200', async (url, expected) => {
    const reply = await get(url);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(title(reply)).toBe(expected);
  });

  it.each(['/nope', '/projects/99', '/projects/3/extra', '/assets/missing-123.js', '/HOME', '/home//', '/assets'])(
    '%s gets the fallback page with 404',
    async (url) => {
      const reply = await get(url);
      expect(reply.status).toBe(404);
      expect(title(reply)).toBe('Fallback');
      expect(reply.headers['cache-control']).toBe(CACHE_REVALIDATE);
    },
  );

  it('serves files whose names need encoding', async () => {
    const reply = await get('/space%20name/file.txt');
    expect(reply.status).toBe(200);
    expect(reply.body.toString()).toBe('spaced');
  });

  it('answers 400 to malformed percent-encoding, 414 to URLs CloudFront would refuse', async () => {
    expect((await get('/home%E0%A4%A')).status).toBe(400);
    expect((await get(`/${'a'.repeat(9000)}`)).status).toBe(414);
  });

  it('treats a very long path within limits as a missing object', async () => {
    const reply = await get(`/${'segment/'.repeat(500)}x`);
    expect(reply.status).toBe(404);
    expect(title(reply)).toBe('Fallback');
    expect((await get(`/${'a'.repeat(4000)}`)).status).toBe(404); // a name longer than the file system allows
  });

  it.each([
    '/../secret.txt',
    '/../build/secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%5c..%5csecret.txt',
    '/home%00.html',
    '/link.txt',
    '/%2fetc%2fpasswd',
    '//etc/passwd',
  ])('never serves anything outside the client dir: %s', async (url) => {
    const reply = await get(url);
    expect([400, 404]).toContain(reply.status);
    expect(reply.body.toString()).not.toContain('outside the');
  });

  it('answers 405 with Allow to methods the static behavior does not take', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const reply = await get('/home', {}, method);
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('GET, HEAD');
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const reply = await get('/assets/app-abc123.js', {}, 'HEAD');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-length']).toBe(String(Buffer.byteLength(APP_JS)));
    expect(reply.body.length).toBe(0);
  });
});

describe('headers', () => {
  it('sets the security headers, with the policy computed from source, on every kind of response', async () => {
    const replies = await Promise.all([
      get('/'),
      get('/home'),
      get('/nope'),
      get('/assets/app-abc123.js'),
      get('/home', {}, 'POST'),
      get('/api/unknown', {}, 'POST'),
      get('/api/events', { 'content-type': 'application/json' }, 'POST'),
    ]);
    for (const reply of replies) {
      const csp = String(reply.headers['content-security-policy']);
      expect(csp).toBe(contentSecurityPolicy({ upgradeInsecureRequests: false }));
      for (const hash of INLINE_SCRIPT_HASHES) expect(csp).toContain(`'${hash}'`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp).not.toContain('upgrade-insecure-requests');
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
    ['/images/shot.webp', CACHE_ONE_DAY, 'image/webp'],
    ['/robots.txt', CACHE_ONE_DAY, 'text/plain; charset=utf-8'],
    ['/sitemap.xml', CACHE_ONE_DAY, 'application/xml; charset=utf-8'],
    ['/manifest.webmanifest', CACHE_ONE_DAY, 'application/manifest+json; charset=utf-8'],
    ['/favicon.svg', CACHE_ONE_DAY, 'image/svg+xml'],
  ])('%s: Cache-Control %s, Content-Type %s', async (url, cacheControl, contentType) => {
    const reply = await get(url);
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe(cacheControl);
    expect(reply.headers['content-type']).toBe(contentType);
    expect(reply.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(reply.headers['last-modified']).toBeTruthy();
  });
});

describe('compression', () => {
  it('sends brotli when accepted, else gzip, else identity, with Vary', async () => {
    const br = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toBe(APP_JS);
    expect(br.body.length).toBeLessThan(APP_JS.length / 5);
    expect(br.headers.etag).toMatch(/^W\/"/);

    const gz = await get('/home', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toContain('<h1>Home</h1>');

    const none = await get('/assets/app-abc123.js', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.toString()).toBe(APP_JS);
  });

  it('serves the maximum-quality brotli body once the start-up warm-up has run', async () => {
    const best = brotliCompressSync(Buffer.from(APP_JS), { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } });
    const deadline = Date.now() + 5000;
    let body = (await get('/assets/app-abc123.js', { 'accept-encoding': 'br' })).body;
    while (!body.equals(best) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      body = (await get('/assets/app-abc123.js', { 'accept-encoding': 'br' })).body;
    }
    expect(body.length).toBe(best.length);
  });

  it('compresses the 404 fallback page too, keeping its status', async () => {
    const reply = await get('/nope', { 'accept-encoding': 'br' });
    expect(reply.status).toBe(404);
    expect(brotliDecompressSync(reply.body).toString()).toContain('Fallback');
  });

  it('leaves media, small files and ranges uncompressed', async () => {
    expect((await get('/videos/demo.mp4', { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
    expect((await get('/robots.txt', { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
    const ranged = await get('/assets/app-abc123.js', { 'accept-encoding': 'br', range: 'bytes=0-9' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-encoding']).toBeUndefined();
    expect(ranged.body.toString()).toBe(APP_JS.slice(0, 10));
  });

  it('writes no compressed files into the client dir', async () => {
    const { readdirSync } = await import('node:fs');
    const names = readdirSync(path.join(root, 'build', 'client'), { recursive: true }).map(String);
    expect(names.filter((n) => /\.(br|gz)$/.test(n))).toEqual([]);
  });

  it('picks encodings by Accept-Encoding quality', () => {
    expect(chooseEncoding('gzip, br')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0')).toBe('identity');
    expect(chooseEncoding(undefined)).toBe('identity');
    expect(chooseEncoding('identity')).toBe('identity');
  });
});

describe('conditional requests', () => {
  it('answers 304 to a matching If-None-Match (strong or weak) and If-Modified-Since', async () => {
    const first = await get('/home', { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    const again = await get('/home', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['content-security-policy']).toBeTruthy();
    expect((await get('/home', { 'if-none-match': etag.replace(/^W\//, '') })).status).toBe(304);
    expect((await get('/home', { 'if-none-match': '"other"' })).status).toBe(200);
    expect((await get('/home', { 'if-modified-since': String(first.headers['last-modified']) })).status).toBe(304);
    expect((await get('/home', { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status).toBe(200);
  });

  it('never answers 304 for the 404 page', async () => {
    const first = await get('/nope');
    expect((await get('/nope', { 'if-none-match': String(first.headers.etag) })).status).toBe(404);
  });
});

describe('range requests (video)', () => {
  it('serves byte ranges with 206 and Content-Range', async () => {
    const reply = await get('/videos/demo.mp4', { range: 'bytes=100-199' });
    expect(reply.status).toBe(206);
    expect(reply.headers['content-range']).toBe(`bytes 100-199/${VIDEO.length}`);
    expect(reply.headers['accept-ranges']).toBe('bytes');
    expect(reply.body.equals(VIDEO.subarray(100, 200))).toBe(true);

    const open = await get('/videos/demo.mp4', { range: 'bytes=49990-' });
    expect(open.body.equals(VIDEO.subarray(49_990))).toBe(true);
    const suffix = await get('/videos/demo.mp4', { range: 'bytes=-5' });
    expect(suffix.body.equals(VIDEO.subarray(VIDEO.length - 5))).toBe(true);
  });

  it('answers 416 beyond the end, and the whole file for a stale If-Range', async () => {
    const beyond = await get('/videos/demo.mp4', { range: `bytes=${VIDEO.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${VIDEO.length}`);
    const stale = await get('/videos/demo.mp4', { range: 'bytes=0-9', 'if-range': '"stale"' });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(VIDEO.length);
  });

  it('parses the range forms', () => {
    expect(parseRange('bytes=0-0', 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-20', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-2', 10)).toBeUndefined();
    expect(parseRange('bytes=0-1,3-4', 10)).toBeUndefined();
    expect(parseRange('items=0-1', 10)).toBeUndefined();
  });
});

describe('the API behavior on the same server', () => {
  it('maps an unknown API route to the fallback page with 404, like the distribution', async () => {
    for (const [url, method] of [
      ['/api/unknown', 'POST'],
      ['/api/contact', 'GET'],
      ['/api', 'GET'],
    ] as const) {
      const reply = await get(url, {}, method);
      expect(reply.status).toBe(404);
      expect(title(reply)).toBe('Fallback');
    }
  });
});
