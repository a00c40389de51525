import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CSP_HASHES_FILE, readScriptHashes, SPA_FALLBACK_FILE, WEB_BUILD_DIR, WEB_CLIENT_DIR } from './build-output';
import { CACHE_IMMUTABLE, CACHE_ONE_DAY, CACHE_REVALIDATE, cacheControlFor } from './cache-control';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'build-output-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('build output', () => {
  it('points at web/build and web/build/client, absolute', () => {
    expect(path.isAbsolute(WEB_BUILD_DIR)).toBe(true);
    expect(WEB_BUILD_DIR.endsWith(path.join('web', 'build'))).toBe(true);
    expect(WEB_CLIENT_DIR).toBe(path.join(WEB_BUILD_DIR, 'client'));
    expect(SPA_FALLBACK_FILE).toBe('__spa-fallback.html');
  });

  it('reads the hashes the post-build step wrote', () => {
    const dir = tempDir();
    const hash = `sha256-${'A'.repeat(43)}=`;
    writeFileSync(path.join(dir, CSP_HASHES_FILE), JSON.stringify({ scriptHashes: [hash] }));
    expect(readScriptHashes(dir)).toEqual([hash]);
  });

  it('names `npm run build` when the file is missing or broken', () => {
    const dir = tempDir();
    expect(() => readScriptHashes(dir)).toThrow(/is missing: run `npm run build`/);
    writeFileSync(path.join(dir, CSP_HASHES_FILE), '{not json');
    expect(() => readScriptHashes(dir)).toThrow(/not valid JSON.*npm run build/);
    writeFileSync(path.join(dir, CSP_HASHES_FILE), JSON.stringify({ scriptHashes: ["'unsafe-inline'"] }));
    expect(() => readScriptHashes(dir)).toThrow(/sha256-<base64>/);
  });
});

describe('cacheControlFor', () => {
  it.each([
    ['assets/entry.client-B6gs079y.js', CACHE_IMMUTABLE],
    ['/assets/root-abc.css', CACHE_IMMUTABLE],
    ['home/index.html', CACHE_REVALIDATE],
    ['/__spa-fallback.html', CACHE_REVALIDATE],
    ['index.html', CACHE_REVALIDATE],
    ['videos/demo.mp4', CACHE_ONE_DAY],
    ['images/shot.webp', CACHE_ONE_DAY],
    ['robots.txt', CACHE_ONE_DAY],
    ['sitemap.xml', CACHE_ONE_DAY],
    ['manifest.webmanifest', CACHE_ONE_DAY],
    ['favicon.ico', CACHE_ONE_DAY],
  ])('%s → %s', (key, expected) => {
    expect(cacheControlFor(key)).toBe(expected);
  });
});
