/** The site asset: which paths a deploy invalidates, and what a synth without a build does. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { fastApp, makeFixtureSite } from './testing';
import { invalidationPathsFor, WebBuild } from './web-build';
import { scratchDir } from '../../tools/scratch';

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
    const dir = scratchDir('assets-only-');
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'assets', 'a.js'), '');
    expect(() => invalidationPathsFor(dir)).toThrow(/nothing but assets/);
  });
});

describe('WebBuild', () => {
  it('reads the paths of a prebuilt site', () => {
    const stack = new Stack(fastApp(), 'S');
    const web = new WebBuild(stack, 'Web', { projectRoot: '/nowhere', buildEnv: {}, prebuiltDir: makeFixtureSite() });
    expect(web.invalidationPaths).toContain('/home/*');
  });

  it('refuses a prebuilt site whose pages carry inline scripts the policy does not admit', () => {
    const dir = makeFixtureSite();
    writeFileSync(path.join(dir, 'postbuild.json'), JSON.stringify({ inlineScriptHashes: [`sha256-${'B'.repeat(43)}=`] }));
    const stack = new Stack(fastApp(), 'S');
    expect(() => new WebBuild(stack, 'Web', { projectRoot: '/nowhere', buildEnv: {}, prebuiltDir: dir })).toThrow(
      /does not admit.*npm run build/,
    );
  });

  it('names `npm run build` when a prebuilt site did not go through the post-build step', () => {
    const dir = scratchDir('unbuilt-');
    mkdirSync(path.join(dir, 'client'));
    writeFileSync(path.join(dir, 'client', 'index.html'), '');
    const stack = new Stack(fastApp(), 'S');
    expect(() => new WebBuild(stack, 'Web', { projectRoot: '/nowhere', buildEnv: {}, prebuiltDir: dir })).toThrow(/npm run build/);
  });
});

/**
 * A stand-in project whose `npm run build` writes what the real one does (client/ and postbuild.json)
 * and records the VITE_* variables it was given, so the synth-time bundling can be run for real, fast.
 */
function fakeProject(): string {
  const root = scratchDir('fake-project-');
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'fake', private: true, scripts: { build: 'node build.mjs' } }));
  writeFileSync(
    path.join(root, 'build.mjs'),
    `import { mkdirSync, writeFileSync } from 'node:fs';
mkdirSync('web/build/client/assets', { recursive: true });
mkdirSync('web/build/client/home', { recursive: true });
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('VITE_')));
writeFileSync('web/build/client/home/index.html', '<!doctype html>' + JSON.stringify(env));
writeFileSync('web/build/client/assets/app-1a2b.js', '');
writeFileSync('web/build/client/robots.txt', '');
writeFileSync('web/build/postbuild.json', JSON.stringify({ inlineScriptHashes: [] }));
`,
  );
  return root;
}

describe('building the site at synth (local asset bundling, no Docker)', () => {
  it('runs the build with the configuration injected and stages its client files', () => {
    const root = fakeProject();
    const outdir = scratchDir('cdk-out-');
    const app = new App({ outdir }); // bundling on
    const stack = new Stack(app, 'Site', { env: { account: '123456789012', region: 'eu-west-1' } });
    const buildEnv = { VITE_CONTACT_ENDPOINT: '/api/contact', VITE_RECAPTCHA_SITE_KEY: 'site-key-from-config' };
    const web = new WebBuild(stack, 'Web', { projectRoot: root, buildEnv });

    // Invalidation paths come from the build that just ran.
    expect(web.invalidationPaths).toEqual(['/home/*', '/robots.txt']);
    const staged = path.join(outdir, web.asset.assetPath);
    const page = readFileSync(path.join(staged, 'home', 'index.html'), 'utf8');
    expect(JSON.parse(page.replace('<!doctype html>', ''))).toMatchObject(buildEnv);
    expect(existsSync(path.join(staged, 'assets', 'app-1a2b.js'))).toBe(true);
    expect(existsSync(path.join(staged, 'postbuild.json'))).toBe(false); // never uploaded
  }, 120_000);

  it('fails synth, with the cause, when the build fails', () => {
    const root = fakeProject();
    writeFileSync(path.join(root, 'build.mjs'), 'process.exit(3);');
    const stack = new Stack(new App({ outdir: scratchDir('cdk-out-') }), 'Site');
    expect(() => new WebBuild(stack, 'Web', { projectRoot: root, buildEnv: {} })).toThrow(/Failed to bundle asset[\s\S]*npm run build/);
  }, 120_000);
});
