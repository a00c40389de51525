/**
 * `npm run bench:react-dom-init`: how long React DOM's client initialisation takes with and without a
 * DevTools session attached, in Debian's Chromium. It is the longest main-thread task after FCP in
 * Lighthouse's traces (docs/benchmarks.md), and most of it there is V8 collecting source positions, which
 * only a DevTools session makes it do; this measures the difference without tracing anything.
 *
 * A probe page (served by this script beside the build's assets, same origin) imports the build's vendor
 * chunk, so it is fetched and compiled as a page load does, with its compile hint, and then times the
 * first call of the lazy CommonJS initialiser the entry calls for `react-dom/client`, after React's, as
 * entry.client does. The page logs the figure; Chromium runs it N times with no DevTools session (its log
 * on stderr) and N times under Playwright (a DevTools session, as Lighthouse and the browser tests
 * have). A benchmark, never a test: it prints figures.
 *
 * Options: --runs N (default 7).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../tools/chromium';
import { WEB_CLIENT_DIR } from '../../infra/shared/build-output';
import { findInitialisers } from './entry-chunk';
import { runMain, serveOnLoopback, spawnChromium } from './shared';
import { median } from '../../tools/stats';

const ASSETS = path.join(WEB_CLIENT_DIR, 'assets');
const RESULT = /REACT_DOM_INIT_MS ([\d.]+)/;

function probeScript(found: ReturnType<typeof findInitialisers>): string {
  return [
    `import { ${found.react} as react, ${found.reactDomClient} as reactDomClient } from '/assets/${found.vendor}';`,
    'react();',
    'const start = performance.now();',
    'reactDomClient();',
    "console.log('REACT_DOM_INIT_MS ' + (performance.now() - start).toFixed(1));",
  ].join('\n');
}

/** The probe page and script, and the build's scripts beside them (same origin, as module imports need). */
function serve(script: string) {
  return serveOnLoopback((req, res) => {
    const url = req.url ?? '/';
    if (url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end('<!doctype html><html lang="en"><title>probe</title><script type="module" src="/probe.js"></script>');
    }
    if (url === '/probe.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    const name = path.basename(url);
    if (url === `/assets/${name}` && /^[\w.-]+\.js$/.test(name)) {
      try {
        return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(path.join(ASSETS, name)));
      } catch {
        // not in the build: 404 below
      }
    }
    res.writeHead(404).end();
  });
}

/** One load in a fresh Chromium with no DevTools session: the page's console reaches stderr. */
async function withoutDevTools(url: string): Promise<number> {
  const { match, stop } = await spawnChromium(['--enable-logging=stderr', '--v=0', url], RESULT, `no figure from ${url} in 20 s`);
  await stop();
  return Number(match[1]);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 50) throw new Error('--runs must be a whole number from 1 to 50');
  const entry = readdirSync(ASSETS).find((name) => /^entry\.client-[\w-]+\.js$/.test(name));
  if (!entry) throw new Error(`No entry chunk in ${ASSETS}: run \`npm run build\` first (the bench builds nothing).`);
  const found = findInitialisers(readFileSync(path.join(ASSETS, entry), 'utf8'));
  const server = await serve(probeScript(found));
  try {
    const plain: number[] = [];
    for (let i = 0; i < runs; i++) plain.push(await withoutDevTools(`${server.origin}/`));
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    const attached: number[] = [];
    try {
      for (let i = 0; i < runs; i++) {
        const page = await browser.newPage();
        const figure = new Promise<number>((resolve) =>
          page.on('console', (message) => {
            const match = RESULT.exec(message.text());
            if (match) resolve(Number(match[1]));
          }),
        );
        await page.goto(`${server.origin}/`);
        attached.push(await figure);
        await page.close();
      }
    } finally {
      await browser.close();
    }
    console.log(`React DOM's client initialisation (${found.vendor}), ms, ${runs} loads each:`);
    console.log(`  no DevTools session:    median ${median(plain)}  (${plain.join(', ')})`);
    console.log(`  DevTools session (CDP): median ${median(attached)}  (${attached.join(', ')})`);
  } finally {
    await server.stop();
  }
}

runMain(main, 'bench:react-dom-init');
