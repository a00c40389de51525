// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { cpuByProgram, hostPace, programOf, REFERENCE_PACE_SECONDS, type ProcessSample } from './test-cpu';

/** Command lines as /proc showed them during an `npm test` run (shortened). */
const SEEN: [comm: string, cmdline: string, program: string][] = [
  ['chromium', '/usr/lib/chromium/chromium --show-component-extension-options --headless --remote-debugging-pipe', 'Chromium: browser'],
  ['chromium', '/usr/lib/chromium/chromium --type=renderer --crashpad-handler-pid=0 --lang=en-US', 'Chromium: renderer'],
  ['exe', '/proc/self/exe --type=utility --utility-sub-type=network.mojom.NetworkService --lang=en-US', 'Chromium: utility'],
  ['firefox-esr', '/usr/bin/firefox-esr --remote-debugging-port=0 --headless --profile /tmp/playwright_firefoxdev_profile-B', 'Firefox'],
  ['Web Content', '/usr/lib/firefox-esr/firefox-esr -contentproc -isForBrowser -prefsHandle 0:26969', 'Firefox'],
  ['Sandbox Forked', '/usr/lib/firefox-esr/firefox-esr -contentproc -ipcHandle 0 -signalPipe 1', 'Firefox'],
  ['WebKitWebProces', '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/WebKitWebProcess 4 12 20', 'WebKit'],
  ['MiniBrowser', '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser --automation', 'WebKit'],
  ['WebKitWebDriver', '/usr/bin/WebKitWebDriver --port=35759', 'WebKit'],
  ['Xvfb', 'Xvfb :90 -screen 0 1920x1200x24 -nolisten tcp', "Xvfb (WebKit's display)"],
  ['kdamond.0', '', "the kernel's threads"],
  [
    'node',
    '/usr/bin/node --experimental-import-meta-resolve --require /tmp/m1/node_modules/vitest/suppress-warnings.cjs --conditions node',
    "Vitest workers (the tests, Playwright's client)",
  ],
  ['MainThread', '/usr/bin/node /tmp/m1/node_modules/vitest/vitest.mjs run', 'Vitest main process'],
  [
    'MainThread',
    'node /tmp/portfolio-fixture-builds-5d5d/fixtures-b730.partial-O54zxT/node_modules/.bin/react-router build',
    'site builds',
  ],
  ['MainThread', 'node /tmp/m1/node_modules/.bin/tsc -b', 'type-check (tsc -b)'],
  ['MainThread', 'node /tmp/m1/node_modules/.bin/eslint .', 'ESLint'],
  ['MainThread', '/usr/bin/node --import tsx /tmp/m1/e2e/support/local-stack-process.ts', 'local stacks of the browser tests'],
  ['MainThread', '/usr/bin/node --import tsx /tmp/m1/infra/bin/github.ts', 'other Node programs (npm, tsx, those tests start)'],
  ['npm run setup', 'npm run setup', 'other Node programs (npm, tsx, those tests start)'],
  ['esbuild', '/tmp/m1/node_modules/@esbuild/linux-x64/bin/esbuild --service=0.28.2 --ping', 'esbuild (transforms, bundling)'],
  ['aws', '/usr/bin/python /usr/bin/aws --endpoint-url http://127.0.0.1:45575 s3 cp site/assets s3://portfolio-previews', 'aws'],
];

describe('bench:test-cpu', () => {
  it.each(SEEN)('counts %s (%s) under %s', (comm, cmdline, program) => {
    expect(programOf({ comm, cmdline })).toBe(program);
  });

  it("adds each process's CPU since its first sample, per program, and nothing a process used before", () => {
    const sample = (comm: string, cmdline: string, cpu: number): ProcessSample => ({ comm, cmdline, cpu });
    const first = new Map([
      ['1@10', sample('kdamond.0', '', 300)],
      ['2@50', sample('chromium', '/usr/lib/chromium/chromium --type=renderer', 0)],
    ]);
    const last = new Map([
      ['1@10', sample('kdamond.0', '', 305.5)],
      ['2@50', sample('chromium', '/usr/lib/chromium/chromium --type=renderer', 2)],
      ['3@60', sample('chromium', '/usr/lib/chromium/chromium --type=renderer', 1.5)],
      ['4@70', sample('idle', '/bin/sleep 1', 0)],
    ]);
    expect(Object.fromEntries(cpuByProgram(first, last))).toEqual({ "the kernel's threads": 5.5, 'Chromium: renderer': 3.5 });
  });

  it("gives the host's pace as the reference work's CPU time and its multiple of the usual", () => {
    const { seconds, ratio } = hostPace(Buffer.alloc(1 << 16, 'page views count once '));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(REFERENCE_PACE_SECONDS);
    expect(ratio).toBeCloseTo(seconds / REFERENCE_PACE_SECONDS, 10);
  });
});
