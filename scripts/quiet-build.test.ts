import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  BUILD_LOG,
  BUILD_STAMP,
  buildFingerprint,
  contentWarnings,
  failureReport,
  firstError,
  lastLines,
  runLogged,
  stampText,
} from './quiet-build';
import { scratchDir } from '../tools/scratch';

const dir = scratchDir('quiet-build-');

describe('runLogged', () => {
  it('writes both output streams to the log, not the screen, and passes the exit code on', async () => {
    const log = path.join(dir, 'fails.log');
    const code = await runLogged(process.execPath, ['-e', 'console.log("bundled"); console.error("broken"); process.exit(3)'], log);
    expect(code).toBe(3);
    expect(readFileSync(log, 'utf8')).toMatch(/bundled[\s\S]*broken|broken[\s\S]*bundled/);
  });

  it('resolves 0 for a command that succeeds', async () => {
    expect(await runLogged(process.execPath, ['-e', 'console.log("ok")'], path.join(dir, 'ok.log'))).toBe(0);
  });

  it('rejects when the command cannot be started', async () => {
    await expect(runLogged(path.join(dir, 'no-such-command'), [], path.join(dir, 'none.log'))).rejects.toThrow(/ENOENT/);
  });
});

describe('BUILD_LOG', () => {
  it('is in this checkout, where git ignores it (not one file in /tmp shared by every checkout)', () => {
    const root = path.resolve(import.meta.dirname, '..');
    expect(path.relative(root, BUILD_LOG)).toBe(path.join('.local', 'build.log'));
    expect(execFileSync('git', ['check-ignore', '-q', BUILD_LOG], { cwd: root, stdio: 'pipe' }).length).toBe(0); // throws when not ignored
  });

  it('creates its folder when missing', async () => {
    const log = path.join(dir, 'new', 'folder', 'build.log');
    expect(await runLogged(process.execPath, ['-e', 'console.log("ok")'], log)).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('ok\n');
  });
});

describe('lastLines', () => {
  it('keeps the end of the log', () => {
    expect(lastLines('a\nb\nc\nd\n', 2)).toBe('c\nd');
    expect(lastLines('only', 5)).toBe('only');
  });
});

/** Excerpts of real failed builds' logs (colours included), around their first error. */
const ROOT = '/tmp/copy';
const NOISE = [
  'vite v8.3.8 building client environment for production...',
  'web/build/client/assets/error-D92_1Xi7.js                0.63 kB │ gzip:   0.38 kB',
  '\x1b[33m[PLUGIN_TIMINGS] \x1b[0mJavaScript callbacks ran for 2.3s of this 3.1s build (73%).',
  '  ⚠️  Future Flag Warning: Route middleware support is changing in React Router v8.',
].join('\n');
const RENDER_ERROR = `${NOISE}
✓ 1 asset cleaned from React Router server build.

TypeError: Cannot read properties of undefined (reading 'here')
    at About (file:///tmp/copy/web/app/routes/about.tsx:29:83)
    at renderWithHooks (/work/node_modules/react-dom/cjs/react-dom-server.node.production.js:4844:18)
TypeError: Cannot read properties of undefined (reading 'here')
    at About (file:///tmp/copy/web/app/routes/about.tsx:29:83)
✗ Build failed in 726ms
Build failed with 1 error:

[plugin react-router]
Error: Prerender (html): Received a 500 status code from \`entry.server.tsx\` while prerendering the \`/\` path.
<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/></head><body></body></html>
    at aggregateBindingErrorsIntoJsError (file:///work/node_modules/rolldown/dist/shared/error-CLo6EJKG.mjs:50:18)
`;
const PARSE_ERROR = `${NOISE}
\x1b[32m✓\x1b[0m 135 modules transformed.
✗ Build failed in 1.74s
Build failed with 1 error:

\x1b[31m[builtin:vite-transform] \x1b[0mUnterminated string
   \x1b[38;5;246m╭\x1b[0m\x1b[38;5;246m─\x1b[0m\x1b[38;5;246m[\x1b[0m web/content/fr/ui.ts:6:13 \x1b[38;5;246m]\x1b[0m
   \x1b[38;5;246m│\x1b[0m
 \x1b[38;5;246m6 │\x1b[0m   skipLink: 'Saltar al contenido principal,
\x1b[38;5;246m───╯\x1b[0m
    at aggregateBindingErrorsIntoJsError (file:///work/node_modules/rolldown/dist/shared/error-CLo6EJKG.mjs:50:18)
    at run2 (/work/node_modules/@react-router/dev/dist/cli/index.js:2711:7) {
  errors: [Getter/Setter]
}
`;
const CONTENT_ERROR = `${NOISE}
✗ Build failed in 77ms
Build failed with 1 error:

[plugin react-router:virtual-modules]
Error: The languages in web/content/locales.ts are not complete:
  - web/content/locales.ts: fr is missing fallback.loading (every language's line has the fields of en's)
    at checkAllCatalogues (/tmp/copy/web/content/check.ts:211:34)
    at prerender (/tmp/copy/react-router.config.ts:13:11)
`;
const SCRIPT_ERROR = `${NOISE}
/tmp/copy/scripts/postbuild.ts:40
  throw new Error('postbuild: no page found');
        ^

Error: postbuild: no page found
    at main (/tmp/copy/scripts/postbuild.ts:40:9)
    at node:internal/modules/run_main:123:26
`;

describe('firstError: the first real error of a failed build, with its file and line', () => {
  it.each([
    [
      'an error thrown while prerendering a page (the bundle source-mapped)',
      RENDER_ERROR,
      "TypeError: Cannot read properties of undefined (reading 'here')",
      'web/app/routes/about.tsx:29:83',
    ],
    ['a syntax error the bundler reports with a code frame', PARSE_ERROR, 'Unterminated string', 'web/content/fr/ui.ts:6:13'],
    ['an error of a build script', SCRIPT_ERROR, 'Error: postbuild: no page found', 'scripts/postbuild.ts:40:9'],
  ])('%s', (_label, log, message, location) => {
    expect(firstError(log, ROOT)).toEqual({ message, location });
  });

  it("keeps every line of the content check's message, which names the file itself", () => {
    expect(firstError(CONTENT_ERROR, ROOT)).toEqual({
      message:
        "Error: The languages in web/content/locales.ts are not complete:\n  - web/content/locales.ts: fr is missing fallback.loading (every language's line has the fields of en's)",
      location: undefined,
    });
  });

  it('reads a TypeScript diagnostic', () => {
    expect(firstError(`${NOISE}\nweb/content/locales.ts(12,3): error TS2741: Property 'fallback' is missing.\n`, ROOT)).toEqual({
      message: "TS2741: Property 'fallback' is missing.",
      location: 'web/content/locales.ts:12:3',
    });
  });

  it('finds nothing in a log without an error (warnings and asset names are not errors)', () => {
    expect(firstError(NOISE, ROOT)).toBeUndefined();
  });
});

describe('failureReport: what npm start prints when the build fails', () => {
  it('starts with the first error: file, line and message, then where the whole log is', () => {
    const report = failureReport(RENDER_ERROR, 1, '/tmp/build.log', ROOT);
    expect(report.split('\n')[0]).toBe("web/app/routes/about.tsx:29:83: TypeError: Cannot read properties of undefined (reading 'here')");
    expect(report).not.toMatch(/DOCTYPE|node_modules|Future Flag/);
    expect(report).toMatch(/The build failed \(exit code 1\); the whole log is \/tmp\/build\.log\.$/);
  });

  it('falls back to the end of the log when it finds no error', () => {
    const report = failureReport('line 1\nsomething odd happened\n', 2, 'L', ROOT);
    expect(report).toBe('line 1\nsomething odd happened\n\nThe build failed (exit code 2); the whole log is L.');
  });
});

describe('contentWarnings', () => {
  it('repeats each content warning of the log once, in order', () => {
    const log = `${NOISE}\nContent warning: fr (Français) still has the texts of es\nother\nContent warning: fr (Français) still has the texts of es\nContent warning: de\n`;
    expect(contentWarnings(log, 'Content warning:')).toEqual([
      'Content warning: fr (Français) still has the texts of es',
      'Content warning: de',
    ]);
  });
});

describe("npm start's build, skipped when nothing it reads has changed", () => {
  const project = scratchDir('quiet-build-inputs-');
  mkdirSync(path.join(project, 'web/content'), { recursive: true });
  writeFileSync(path.join(project, 'web/content/site.ts'), 'export const a = 1;\n');
  writeFileSync(path.join(project, 'package-lock.json'), '{}\n');

  it("fingerprints the files the build reads, the .env files, the VITE_ variables and a preview's, and nothing else", () => {
    const first = buildFingerprint(project, { HOME: '/a' });
    expect(buildFingerprint(project, { HOME: '/b', LOCAL_CAPTCHA: 'fake', PORT: '9000' })).toBe(first);
    expect(buildFingerprint(project, { VITE_SITE_URL: 'https://example.com' })).not.toBe(first);
    expect(buildFingerprint(project, { PREVIEW_PATH: 'pr-7/abc1234' })).not.toBe(first);
    expect(buildFingerprint(project, { PREVIEW_LABEL: 'Preview: pull request 7' })).not.toBe(first);
    writeFileSync(path.join(project, '.env.local'), 'VITE_X=1\n');
    const withEnvFile = buildFingerprint(project, {});
    expect(withEnvFile).not.toBe(first);
    writeFileSync(path.join(project, 'web/content/site.ts'), 'export const a = 2;\n');
    expect(buildFingerprint(project, {})).not.toBe(withEnvFile);
  });

  it('ties the stamp to the build it describes: none without a report, another after a rebuild', () => {
    const report = path.join(project, 'postbuild.json');
    expect(stampText('abc', report)).toBeUndefined();
    writeFileSync(report, '{}');
    const stamp = stampText('abc', report)!;
    expect(stamp.startsWith('abc ')).toBe(true);
    utimesSync(report, new Date(), new Date(Date.now() + 5_000));
    expect(stampText('abc', report)).not.toBe(stamp);
  });

  it('keeps its stamp beside the build log, in this checkout', () => {
    expect(path.dirname(BUILD_STAMP)).toBe(path.dirname(BUILD_LOG));
  });
});
