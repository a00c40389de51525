/** The site asset: which paths a deploy invalidates, and what a synth without a build does. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { fastApp, FIXTURE_SCRIPT_HASHES, makeFixtureSite } from './testing';
import { invalidationPathsFor, WebBuild } from './web-build';

describe('invalidationPathsFor', () => {
  it('lists every top-level entry except assets/: folders as wildcards, files by name', () => {
    const site = makeFixtureSite();
    expect(invalidationPathsFor(path.join(site, 'client'))).toEqual([
      '/__spa-fallback.html',
      '/home/*',
      '/index.html',
      '/projects/*',
      '/robots.txt',
      '/sitemap.xml',
      '/videos/*',
    ]);
  });

  it('refuses a build that holds nothing but assets', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'assets-only-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'assets', 'a.js'), '');
    expect(() => invalidationPathsFor(dir)).toThrow(/nothing but assets/);
  });
});

describe('WebBuild', () => {
  it('reads the hashes and paths of a prebuilt site', () => {
    const stack = new Stack(fastApp(), 'S');
    const web = new WebBuild(stack, 'Web', { projectRoot: '/nowhere', buildEnv: {}, prebuiltDir: makeFixtureSite() });
    expect(web.scriptHashes).toEqual(FIXTURE_SCRIPT_HASHES);
    expect(web.invalidationPaths).toContain('/home/*');
  });

  it('names `npm run build` when a prebuilt site has no CSP hashes', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'unbuilt-'));
    mkdirSync(path.join(dir, 'client'));
    writeFileSync(path.join(dir, 'client', 'index.html'), '');
    const stack = new Stack(fastApp(), 'S');
    expect(() => new WebBuild(stack, 'Web', { projectRoot: '/nowhere', buildEnv: {}, prebuiltDir: dir })).toThrow(
      /npm run build/,
    );
  });
});
