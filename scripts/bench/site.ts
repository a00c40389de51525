/**
 * `npm run bench`: the site's weight and Lighthouse scores, per route, against the local stack.
 *
 * It builds nothing: it measures the existing production build in web/build (run `npm run build`
 * first; it stops with a message when the build is missing). It starts the local stack on
 * ephemeral ports, then for every route prints:
 *   - the HTML size, raw and gzip;
 *   - the gzip size of the JS a first load fetches (the deferred module preloads, the moved
 *     scripts the boot script starts and the static imports of the moved module scripts), with
 *     React, React DOM and React Router (the vendor chunk) listed apart from the site's own code,
 *     and the CSS the page links (inlined, so nothing is fetched for the first paint);
 *   - Lighthouse mobile scores (performance, accessibility, best practices, SEO) with FCP, LCP,
 *     Speed Index, TBT and CLS, in both throttling modes: simulated (Lighthouse's default) and
 *     applied (devtools, real paint times). Each figure is the median of N runs (default 3).
 * Google's hosts are blocked in Lighthouse, so an offline machine's failures never count.
 * Results: a table on stdout and JSON in .bench/site-latest.json (plus a timestamped copy).
 *
 * Before the routes it measures a blank control page (served by the bench itself: no script,
 * stylesheet or image): what Lighthouse reports for it is the browser's and the machine's own work,
 * the floor under every route's figures on this machine.
 *
 * Options: --runs N (1..9), --routes /home,/blogs (default: every prerendered page; a 404 page
 *          would fail SEO by design), --throttling simulate|devtools|both (default both),
 *          --no-lighthouse (sizes only), --no-control (skip the blank page), --save-traces DIR.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import { median } from '../../tools/stats';
import { BUSY_BENCHMARK_INDEX, blockingOf, commitTaskOf, longTasksOf, processTrace, tasksAfterFcp, type LongTask } from './trace-tasks';
import { chromiumPath } from '../../tools/chromium';
import { runMain, saveFigures, serveOnLoopback, spawnChromium } from './shared';
import { startLocalStack } from '../../infra/local/stack';
import { WEB_CLIENT_DIR } from '../../infra/shared/build-output';
import { pagesOfEveryLocale } from '../../web/app/prerender-paths';

/** Every prerendered page a visitor opens ("/" only redirects). */
const ROUTES = pagesOfEveryLocale();

/**
 * Lighthouse's hardware advice: "Minimum 2 dedicated cores (4 recommended)"
 * (https://github.com/GoogleChrome/lighthouse/blob/main/docs/variability.md#run-on-adequate-hardware).
 */
const RECOMMENDED_CORES = 4;

/** The budgets, per route (docs/benchmarks.md). */
const GOALS = {
  firstLoadJsGzipKb: 120,
  performance: 100,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  lcpMs: { simulate: 1000, devtools: 1200 },
  tbtMs: 50,
  // No main-thread task after FCP over 12.5 ms of CPU at 1×: none over 50 ms on the 4× simulated phone.
  longestTaskMs: 12.5,
  cls: 0,
};
type Throttling = 'simulate' | 'devtools';
const BLOCKED_URL_PATTERNS = ['*://*.google.com/*', '*://*.gstatic.com/*', '*://*.googletagmanager.com/*', '*://*.google-analytics.com/*'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

interface Options {
  runs: number;
  routes: string[];
  lighthouse: boolean;
  throttling: Throttling[];
  /** --save-traces DIR: each run's Lighthouse trace and report, to open in DevTools' Performance panel. */
  saveTraces?: string;
  /** Measure the blank control page first (--no-control: skip it). */
  control: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { runs: 3, routes: ROUTES, lighthouse: true, throttling: ['simulate', 'devtools'], control: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--runs') {
      const runs = Number(value());
      if (!Number.isInteger(runs) || runs < 1 || runs > 9) throw new Error('--runs must be a whole number from 1 to 9');
      options.runs = runs;
    } else if (arg === '--routes') {
      const routes = value()
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean);
      if (routes.length === 0 || !routes.every((r) => r.startsWith('/'))) {
        throw new Error('--routes takes paths starting with "/", separated by commas, e.g. --routes /home,/blogs');
      }
      options.routes = routes;
    } else if (arg === '--throttling') {
      const mode = value();
      if (mode === 'both') options.throttling = ['simulate', 'devtools'];
      else if (mode === 'simulate' || mode === 'devtools') options.throttling = [mode];
      else throw new Error('--throttling takes simulate, devtools or both');
    } else if (arg === '--no-lighthouse') {
      options.lighthouse = false;
    } else if (arg === '--save-traces') {
      options.saveTraces = path.resolve(value());
    } else if (arg === '--no-control') {
      options.control = false;
    } else {
      throw new Error(
        `Unknown option ${arg}. Options: --runs N, --routes /a,/b, --throttling simulate|devtools|both, --no-lighthouse, --no-control, --save-traces DIR`,
      );
    }
  }
  return options;
}

const gzipSize = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

const attr = (tag: string, name: string) => new RegExp(`\\s${name}=["']([^"']*)["']`, 'i').exec(tag)?.[1];
const STATIC_IMPORT = /(?:^|[;\s])import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.m?js)["']/g;

/**
 * The same-origin JS and CSS a first load of this HTML uses, as absolute paths: JS from the module
 * preloads (including those the boot script adds from their template after the first paint), the
 * moved scripts the boot script starts (and the static imports of moved module scripts, read
 * through `readText`), plus any script file still in the HTML; CSS from the stylesheet links
 * (inlined by the post-build step, so counted once here but not fetched).
 */
async function firstLoadAssets(html: string, readText: (asset: string) => Promise<string>): Promise<{ js: string[]; css: string[] }> {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = (attr(tag, 'rel') ?? '').toLowerCase().split(/\s+/);
    const href = attr(tag, 'href');
    if (!href) continue;
    if (rel.includes('modulepreload')) js.add(href);
    if (rel.includes('stylesheet')) css.add(href);
  }
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attrs = '', body = ''] = match;
    const tag = `<script ${attrs}>`;
    const src = attr(tag, 'src') ?? attr(tag, 'data-src');
    const isModule = /type=["']?module/i.test(attrs);
    if (src && /\.m?js(\?|$)/.test(src)) js.add(src);
    const code = isModule ? (src ? await readText(src) : body) : '';
    for (const imp of code.matchAll(STATIC_IMPORT)) js.add(imp[1]!);
    if (isModule) for (const imp of code.matchAll(/import\(\s*["']([^"']+\.m?js)["']\s*\)/g)) js.add(imp[1]!);
  }
  const local = (list: Set<string>) => [...list].filter((p) => p.startsWith('/') && !p.startsWith('//'));
  return { js: local(js), css: local(css) };
}

/** React, React DOM, the scheduler and React Router: the vendor chunk (vite.config.ts). */
const isFramework = (asset: string) => /\/vendor-[\w-]+\.js$/.test(asset);

interface RouteSizes {
  route: string;
  status: number;
  htmlBytes: number;
  htmlGzipBytes: number;
  jsFiles: number;
  jsGzipBytes: number;
  /** Of jsGzipBytes: React, React DOM and React Router. */
  frameworkJsGzipBytes: number;
  cssFiles: number;
  cssGzipBytes: number;
}

async function fetchBytes(url: string): Promise<{ status: number; bytes: Uint8Array }> {
  const response = await fetch(url);
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function measureSizes(origin: string, route: string, assetCache: Map<string, number>): Promise<RouteSizes> {
  const page = await fetchBytes(`${origin}${route}`);
  const html = new TextDecoder().decode(page.bytes);
  const assets = await firstLoadAssets(html, async (asset) => {
    const file = await fetchBytes(`${origin}${asset}`);
    if (file.status !== 200) throw new Error(`${route} references ${asset}, which answers ${file.status}`);
    return new TextDecoder().decode(file.bytes);
  });
  const sum = async (paths: string[]) => {
    let total = 0;
    for (const asset of paths) {
      if (!assetCache.has(asset)) {
        const file = await fetchBytes(`${origin}${asset}`);
        if (file.status !== 200) throw new Error(`${route} references ${asset}, which answers ${file.status}`);
        assetCache.set(asset, gzipSize(file.bytes));
      }
      total += assetCache.get(asset)!;
    }
    return total;
  };
  return {
    route,
    status: page.status,
    htmlBytes: page.bytes.length,
    htmlGzipBytes: gzipSize(page.bytes),
    jsFiles: assets.js.length,
    jsGzipBytes: await sum(assets.js),
    frameworkJsGzipBytes: await sum(assets.js.filter(isFramework)),
    cssFiles: assets.css.length,
    cssGzipBytes: await sum(assets.css),
  };
}

/** The control: a page with text only, no script, stylesheet or image, so nothing Lighthouse measures on it is the site's. */
const CONTROL_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>Blank control page</title><meta name="description" content="A blank page the bench measures as the machine\'s floor.">' +
  '</head><body><main><h1>Blank control page</h1><p>Text only: no script, no stylesheet, no image.</p></main></body></html>';

const CONTROL_ROW = '(blank control)';

/** Serves CONTROL_HTML at every path, from this process like the local stack. */
const startControlServer = () =>
  serveOnLoopback((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(CONTROL_HTML);
  });

/** Starts Chromium with a DevTools port for Lighthouse; resolves once the port is known. */
async function startChromium(): Promise<{ port: number; stop(): Promise<void> }> {
  const { match, stop } = await spawnChromium(
    ['--remote-debugging-port=0', 'about:blank'],
    /DevTools listening on ws:\/\/[^:]+:(\d+)\//,
    `Chromium (${chromiumPath()}) did not start`,
  );
  return { port: Number(match[1]), stop };
}

interface LighthouseRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  speedIndexMs: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's measure of the machine's speed during the run (below BUSY_BENCHMARK_INDEX: busy). */
  benchmarkIndex: number;
  /** From the run's trace (simulated throttling only, whose trace is the unthrottled load): the longest main-thread task after FCP, ms of CPU at 1×. */
  longestTaskMs: number;
  /** Σ max(0, 4·task − 50) over those tasks, ms. */
  simulatedBlockingMs: number;
  /** The longest of those tasks by wall time, ms (above its CPU time when the machine was busy). */
  longestWallMs: number;
  /** The navigation's commit task, before any of the page's code (simulated mode): ms of CPU, and of wall time (what Lighthouse scales). */
  commitCpuMs: number;
  commitWallMs: number;
  /** Audits that failed in a category other than performance (why a score is below 100). */
  failing: string[];
  /** Lighthouse's long-tasks audit: the tasks its TBT counts, as it times them (simulated on the phone in simulated mode). */
  longTasks: LongTask[];
}

async function runLighthouse(url: string, port: number, throttlingMethod: Throttling, saveAs?: string): Promise<LighthouseRun> {
  const result = await lighthouse(url, {
    port,
    throttlingMethod,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    formFactor: 'mobile',
    blockedUrlPatterns: BLOCKED_URL_PATTERNS,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const failing = CATEGORIES.filter((c) => c !== 'performance').flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${category}:${ref.id}`),
  );
  if (saveAs) {
    mkdirSync(path.dirname(saveAs), { recursive: true });
    writeFileSync(`${saveAs}.trace.json`, JSON.stringify(result.artifacts.Trace));
    writeFileSync(`${saveAs}.report.json`, JSON.stringify(lhr));
  }
  const longTasks = longTasksOf(lhr);
  // The trace of the observed load: unthrottled under simulated throttling, CPU-slowed under devtools.
  const processed = throttlingMethod === 'simulate' ? processTrace(result.artifacts.Trace) : undefined;
  const blocking = processed && blockingOf(tasksAfterFcp(processed));
  const commit = processed && commitTaskOf(processed);
  return {
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    longestTaskMs: blocking?.longestTaskMs ?? Number.NaN,
    simulatedBlockingMs: blocking?.simulatedBlockingMs ?? Number.NaN,
    longestWallMs: blocking?.longestWallMs ?? Number.NaN,
    commitCpuMs: commit?.cpuMs ?? Number.NaN,
    commitWallMs: commit?.wallMs ?? Number.NaN,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: Math.round(numeric('first-contentful-paint')),
    lcpMs: Math.round(numeric('largest-contentful-paint')),
    speedIndexMs: Math.round(numeric('speed-index')),
    tbtMs: Math.round(numeric('total-blocking-time')),
    cls: Math.round(numeric('cumulative-layout-shift') * 1000) / 1000,
    failing,
    longTasks,
  };
}

/** Lighthouse sometimes loses a trace on a busy machine (NO_NAVSTART, NO_FCP): such a run is retried, twice at most. */
async function runLighthouseWithRetry(url: string, port: number, throttling: Throttling, saveAs?: string): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runLighthouse(url, port, throttling, saveAs);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.warn(`  retrying ${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** A long task's attribution, short: the script's or page's path, or Lighthouse's word for work no script owns. */
function taskSource(url: string): string {
  if (!URL.canParse(url)) return url || 'no attribution';
  return new URL(url).pathname;
}

/** A run measured while the machine was busy (Lighthouse's own slow-CPU warning threshold). */
function isBusy(run: Pick<LighthouseRun, 'benchmarkIndex'>): boolean {
  return run.benchmarkIndex < BUSY_BENCHMARK_INDEX;
}

/** The median of the runs taken on a quiet machine; of all runs (and so flagged by the caller) when every run was busy. */
function medianRun(all: LighthouseRun[]): LighthouseRun {
  const quiet = all.filter((run) => !isBusy(run));
  const runs = quiet.length > 0 ? quiet : all;
  // Each figure's median, in the runs' own order of keys (the JSON report keeps it).
  const figures = Object.fromEntries(
    Object.entries(runs[0]!)
      .filter(([, value]) => typeof value === 'number')
      .map(([key]) => [key, median(runs.map((r) => r[key as keyof LighthouseRun] as number))]),
  ) as Omit<LighthouseRun, 'failing' | 'longTasks'>;
  return {
    ...figures,
    failing: [...new Set(runs.flatMap((r) => r.failing))],
    // The run whose TBT is the median's: the tasks behind the figure shown.
    longTasks: runs.reduce((best, r) => (Math.abs(r.tbtMs - figures.tbtMs) < Math.abs(best.tbtMs - figures.tbtMs) ? r : best)).longTasks,
  };
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const line = (row: string[]) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

type Modes = Partial<Record<Throttling, { median: LighthouseRun; runs: LighthouseRun[] }>>;
type RouteResult = { sizes: RouteSizes; lighthouse: Modes };

/** The sizes table, a Lighthouse table per throttling mode, and (simulated) the main-thread tasks behind TBT. */
function printTables(options: Options, results: RouteResult[], control: Modes | undefined): void {
  const sizeRows = results.map(({ sizes: s }) => [
    s.route,
    String(s.status),
    kb(s.htmlGzipBytes).toFixed(1),
    `${kb(s.jsGzipBytes).toFixed(1)} (${s.jsFiles})`,
    kb(s.frameworkJsGzipBytes).toFixed(1),
    kb(s.jsGzipBytes - s.frameworkJsGzipBytes).toFixed(1),
    kb(s.cssGzipBytes).toFixed(1),
  ]);
  console.log(`\n${table([['route', 'status', 'HTML gz', 'JS gz (files)', 'React+RR', 'site JS', 'CSS gz (inlined)'], ...sizeRows])}`);
  // The control first, in the Lighthouse tables only: the floor the routes' figures stand on.
  const measured = [
    ...(control ? [{ route: CONTROL_ROW, lighthouse: control }] : []),
    ...results.map(({ sizes, lighthouse }) => ({ route: sizes.route, lighthouse })),
  ];
  for (const mode of options.lighthouse ? options.throttling : []) {
    const rows = measured.map(({ route, lighthouse }) => {
      const lh = lighthouse[mode]!.median;
      return [route, lh.performance, lh.accessibility, lh.bestPractices, lh.seo, lh.fcpMs, lh.lcpMs, lh.speedIndexMs, lh.tbtMs, lh.cls].map(
        String,
      );
    });
    console.log(`\nLighthouse mobile, ${mode === 'simulate' ? 'simulated' : 'applied (devtools)'} throttling:`);
    console.log(table([['route', 'perf', 'a11y', 'BP', 'SEO', 'FCP ms', 'LCP ms', 'SI ms', 'TBT ms', 'CLS'], ...rows]));
  }
  if (options.lighthouse && options.throttling.includes('simulate')) {
    const rows = measured.map(({ route, lighthouse }) => {
      const { median: lh, runs } = lighthouse.simulate!;
      const busy = runs.filter(isBusy).length;
      const tbts = runs.map((r) => r.tbtMs);
      return [
        route,
        `${lh.tbtMs} (${Math.min(...tbts)}–${Math.max(...tbts)})`,
        lh.longestTaskMs.toFixed(1),
        String(lh.simulatedBlockingMs),
        lh.longestWallMs.toFixed(1),
        `${lh.commitCpuMs.toFixed(1)} / ${lh.commitWallMs.toFixed(1)}`,
        String(lh.benchmarkIndex),
        busy === 0
          ? 'quiet'
          : busy === runs.length
            ? `BUSY (all ${busy}; median of busy runs)`
            : `${busy} of ${runs.length} busy, left out`,
      ];
    });
    console.log(`\nMain-thread tasks after FCP, from Lighthouse's trace of the unthrottled load (simulated mode; docs/benchmarks.md):`);
    console.log(
      table([
        [
          'route',
          'TBT ms (runs)',
          'longest task ms (1×)',
          'Σ max(0, 4·task − 50) ms',
          'longest wall ms',
          'commit task CPU / wall ms',
          'benchmarkIndex',
          'machine',
        ],
        ...rows,
      ]),
    );
  }
  console.log(
    `\nSizes in KB (1024 bytes); gzip -9 computed here. Lighthouse ${options.lighthouse ? `${options.runs} run(s) per route and mode, median, ` : 'skipped, '}` +
      `mobile, Google hosts blocked.`,
  );
}

/** Each goal a route missed, with what the figure stands on (the long tasks, the blank control's floor). */
function goalMisses(results: RouteResult[], control: Modes | undefined): string[] {
  const misses: string[] = [];
  for (const { sizes: s, lighthouse } of results) {
    if (kb(s.jsGzipBytes) > GOALS.firstLoadJsGzipKb)
      misses.push(`${s.route}: first-load JS ${kb(s.jsGzipBytes)} KB > ${GOALS.firstLoadJsGzipKb}`);
    for (const [mode, m] of Object.entries(lighthouse) as [Throttling, { median: LighthouseRun; runs: LighthouseRun[] }][]) {
      const lh = m.median;
      const at = `${s.route} (${mode})`;
      if (lh.performance < GOALS.performance) misses.push(`${at}: performance ${lh.performance} < ${GOALS.performance}`);
      if (lh.lcpMs > GOALS.lcpMs[mode]) misses.push(`${at}: LCP ${lh.lcpMs} ms > ${GOALS.lcpMs[mode]}`);
      if (lh.tbtMs > GOALS.tbtMs) {
        const tasks = lh.longTasks.map((t) => `${t.durationMs} ms at ${t.startMs} ms (${taskSource(t.url)})`);
        const floor =
          control?.[mode] &&
          `; the blank control page: ${Math.min(...control[mode].runs.map((r) => r.tbtMs))}–${Math.max(...control[mode].runs.map((r) => r.tbtMs))} ms`;
        misses.push(
          `${at}: TBT ${lh.tbtMs} ms > ${GOALS.tbtMs}; Lighthouse's long tasks: ${tasks.join(', ') || 'none listed'}${floor ?? ''}`,
        );
      }
      if (lh.longestTaskMs > GOALS.longestTaskMs)
        misses.push(`${at}: a main-thread task of ${lh.longestTaskMs} ms after FCP > ${GOALS.longestTaskMs}`);
      const busy = m.runs.filter(isBusy).length;
      if (busy === m.runs.length)
        misses.push(
          `${at}: every run on a busy machine (benchmarkIndex ${lh.benchmarkIndex} < ${BUSY_BENCHMARK_INDEX}): not a measure of the site`,
        );
      if (lh.cls > GOALS.cls) misses.push(`${at}: CLS ${lh.cls}`);
      if (lh.accessibility < GOALS.accessibility) misses.push(`${at}: accessibility ${lh.accessibility}`);
      if (lh.bestPractices < GOALS.bestPractices) misses.push(`${at}: best practices ${lh.bestPractices}`);
      if (lh.seo < GOALS.seo) misses.push(`${at}: SEO ${lh.seo}`);
      if (lh.failing.length) misses.push(`${at}: failing audits ${lh.failing.join(', ')}`);
    }
  }
  return misses;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (!existsSync(path.join(WEB_CLIENT_DIR, 'home', 'index.html'))) {
    throw new Error(`No production build in ${WEB_CLIENT_DIR}: run \`npm run build\` first (the bench builds nothing).`);
  }
  console.log(`Measuring the existing build in ${WEB_CLIENT_DIR} (npm run bench builds nothing).`);
  const cores = availableParallelism();
  console.log(`Machine: ${cores} CPU(s), ${cpus()[0]?.model.trim() ?? 'unknown model'}.`);
  if (options.lighthouse && cores < RECOMMENDED_CORES) {
    console.log(
      `  Lighthouse recommends ${RECOMMENDED_CORES} dedicated cores: on ${cores}, Chromium's processes, Lighthouse and the local stack share them, ` +
        'and TBT (simulated from wall times) moves from run to run with that sharing; compare with the blank control page (docs/benchmarks.md).',
    );
  }
  const stack = await startLocalStack({ port: 0, sesPort: 0, quiet: true });
  const chromium = options.lighthouse ? await startChromium() : undefined;
  const started = Date.now();
  const measure = async (url: string, name: string): Promise<Modes> => {
    const modes: Modes = {};
    for (const mode of chromium ? options.throttling : []) {
      const runs: LighthouseRun[] = [];
      for (let i = 0; i < options.runs; i++) {
        const saveAs = options.saveTraces && path.join(options.saveTraces, `${name.replace(/\//g, '_')}-${mode}-${i + 1}`);
        runs.push(await runLighthouseWithRetry(url, chromium!.port, mode, saveAs));
      }
      modes[mode] = { median: medianRun(runs), runs };
    }
    return modes;
  };
  try {
    let control: Modes | undefined;
    if (chromium && options.control) {
      const server = await startControlServer();
      try {
        control = await measure(`${server.origin}/control`, '/control');
      } finally {
        await server.stop();
      }
      console.log(
        `blank control page: ${Object.entries(control)
          .map(([mode, m]) => `${mode}: TBT ${m.runs.map((r) => r.tbtMs).join(', ')} ms`)
          .join('; ')}`,
      );
    }
    const assetCache = new Map<string, number>();
    const results: RouteResult[] = [];
    for (const route of options.routes) {
      const sizes = await measureSizes(stack.url, route, assetCache);
      const modes = await measure(`${stack.url}${route}`, route);
      results.push({ sizes, lighthouse: modes });
      console.log(
        `${route}: html ${kb(sizes.htmlGzipBytes)} KB gz, js ${kb(sizes.jsGzipBytes)} KB gz` +
          Object.entries(modes)
            .map(([mode, m]) => `, ${mode}: perf ${m.median.performance}, LCP ${m.median.lcpMs} ms`)
            .join(''),
      );
    }

    printTables(options, results, control);
    const misses = goalMisses(results, control);
    console.log(misses.length ? `\nBelow the goals:\n  ${misses.join('\n  ')}` : '\nEvery goal met.');

    const report = {
      at: new Date().toISOString(),
      seconds: Math.round((Date.now() - started) / 1000),
      node: process.version,
      cpus: cores,
      build: WEB_CLIENT_DIR,
      goals: GOALS,
      options,
      blockedUrlPatterns: BLOCKED_URL_PATTERNS,
      control,
      routes: results,
      misses,
    };
    saveFigures('site-latest.json', report);
    saveFigures(`site-${report.at.replace(/[:.]/g, '-')}.json`, report);
    console.log(`\nJSON: .bench/site-latest.json (${report.seconds} s)`);
  } finally {
    await chromium?.stop();
    await stack.stop();
  }
}

runMain(main, 'bench');
