import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBuildMatchesPolicy, POSTBUILD_REPORT_FILE, SPA_FALLBACK_FILE, WEB_BUILD_DIR, WEB_CLIENT_DIR } from './build-output';
import { INLINE_SCRIPT_HASHES } from './security-headers';
import { CACHE_IMMUTABLE, CACHE_ONE_DAY, CACHE_REVALIDATE, cacheControlFor } from './cache-control';
import { scratchDir } from '../../tools/scratch';

const dirs: string[] = [];
const tempDir = () => {
  const dir = scratchDir('build-output-');
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

  it('accepts a build whose inline scripts the policy admits', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, POSTBUILD_REPORT_FILE), JSON.stringify({ inlineScriptHashes: [...INLINE_SCRIPT_HASHES] }));
    expect(checkBuildMatchesPolicy(dir, INLINE_SCRIPT_HASHES).inlineScriptHashes).toEqual(INLINE_SCRIPT_HASHES);
  });

  it('refuses a build made from other inline-script sources', () => {
    const dir = tempDir();
    const stale = `sha256-${'A'.repeat(43)}=`;
    writeFileSync(path.join(dir, POSTBUILD_REPORT_FILE), JSON.stringify({ inlineScriptHashes: [stale] }));
    expect(() => checkBuildMatchesPolicy(dir, INLINE_SCRIPT_HASHES)).toThrow(
      new RegExp(`does not admit \\(${stale.replace(/[+/=]/g, '\\$&')}\\).*npm run build`),
    );
  });

  it('names `npm run build` when the report is missing or broken', () => {
    const dir = tempDir();
    expect(() => checkBuildMatchesPolicy(dir, INLINE_SCRIPT_HASHES)).toThrow(/is missing: run `npm run build`/);
    writeFileSync(path.join(dir, POSTBUILD_REPORT_FILE), '{not json');
    expect(() => checkBuildMatchesPolicy(dir, INLINE_SCRIPT_HASHES)).toThrow(/not valid JSON.*npm run build/);
    writeFileSync(path.join(dir, POSTBUILD_REPORT_FILE), JSON.stringify({ inlineScriptHashes: ["'unsafe-inline'"] }));
    expect(() => checkBuildMatchesPolicy(dir, INLINE_SCRIPT_HASHES)).toThrow(/sha256-<base64>/);
  });
});

describe('cacheControlFor', () => {
  it.each([
    ['assets/entry.client-B6gs079y.js', CACHE_IMMUTABLE],
    ['/assets/root-abc.css', CACHE_IMMUTABLE],
    // A language's search index: a hashed module like the others (scripts/search-index.ts).
    ['assets/_virtual_search-index-es-H09MSG0T.js', CACHE_IMMUTABLE],
    ['home/index.html', CACHE_REVALIDATE],
    ['/__spa-fallback.html', CACHE_REVALIDATE],
    ['index.html', CACHE_REVALIDATE],
    ['contact.data', CACHE_REVALIDATE],
    ['/es/projects/3.data', CACHE_REVALIDATE],
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
