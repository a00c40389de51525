/**
 * `npm run bench:search`: the search's own figures (docs/benchmarks.md, "Search").
 *
 *   - the gzip size of each language's index as built (web/build: run `npm run build` first), and of an
 *     index made the same way from the shipped content plus 100 generated posts of about 900 words;
 *   - on the perf bench's slowed phone (Lighthouse's own mobile throttling settings, applied to Chromium
 *     over the DevTools protocol: 4× CPU, its slow-4G latency and bandwidth), from the click on the search
 *     control to the first results shown (the visitor types a word as soon as the field has focus), with
 *     nothing fetched ahead and with the control pointed at first, and the longest main-thread task while
 *     typing a query key by key. The page notes the click, the field's focus, the typing's arrival and
 *     the first result itself, so the figure is also printed without the driver's wait between focus
 *     and typing; the longest task is printed by wall time (the Long Tasks API) and by the main thread's
 *     own time in a trace, which the machine's other work does not lengthen.
 *
 * Options: --runs N (default 5; the median and the range are printed), --timings-only (no index sizes),
 * BENCH_VERBOSE=1 (each run's own marks and the search files' fetch times), BENCH_TRACE=FILE (the last
 * run's typing trace, to open in Chrome DevTools' Performance panel).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { throttling } from 'lighthouse/core/config/constants.js';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startLocalStack } from '../../infra/local/stack';
import { WEB_CLIENT_DIR } from '../../infra/shared/build-output';
import { CHROMIUM_ARGS, chromiumPath } from '../../tools/chromium';
import { median } from '../../tools/stats';
import { createServer, loadEnv } from 'vite';
import { defineWebEnv } from '../../web/app/config/env-schema';
import { LOCALE_CODES } from '../../web/content/locales';

const FACTS = { messageRetentionDays: 365, logRetentionDays: 30 };
const WORDS =
  'react typescript lambda cloudfront accessible prerender deploy budget latency index cache router query focus dialog keyboard screen reader contrast bundle chunk hydrate stream token schema queue retry alarm metric'.split(
    ' ',
  );

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

const SYLLABLES = 'ka lo mi re su ta ne vo pi da ro le fu zi ma te no ri sa ku'.split(' ');

/**
 * A post of about 900 words from a fixed pseudo-random sequence (the same set on every run): a third of
 * its words common ones, the rest made of syllables, so the set has the tens of thousands of distinct
 * words real posts bring rather than a few dozen that compress to nothing.
 */
function generatedPost(n: number): string {
  let seed = n * 7919 + 17;
  const next = () => (seed = (seed * 48271) % 2147483647);
  const made = () => Array.from({ length: 2 + (next() % 3) }, () => SYLLABLES[next() % SYLLABLES.length]).join('');
  const word = () => (next() % 3 === 0 ? WORDS[next() % WORDS.length] : made());
  const sentence = () => Array.from({ length: 12 }, word).join(' ') + '.';
  const paragraphs = Array.from({ length: 8 }, () => Array.from({ length: 9 }, sentence).join(' '));
  return `---\ntitle: Generated post ${n} about ${WORDS[n % WORDS.length]}\ndescription: A generated post for the search benchmark, number ${n}.\npublished: 2026-01-${String((n % 28) + 1).padStart(2, '0')}\ntags: [${WORDS[n % WORDS.length]}, bench]\n---\n\n${paragraphs.join('\n\n')}\n`;
}

async function indexSizes(): Promise<void> {
  const assets = path.join(WEB_CLIENT_DIR, 'assets');
  for (const file of readdirSync(assets).filter((name) => /search-index-[a-z-]+-[^.]+\.js$/.test(name))) {
    const bytes = readFileSync(path.join(assets, file));
    console.log(`built index ${file}: ${kb(bytes.length)} KB, ${kb(gzipSync(bytes, { level: 9 }).length)} KB gzip`);
  }
  // The build's modules read posts and build variables through Vite (import.meta.glob, defines): loaded
  // by a Vite server of their own, with the definitions the build uses.
  const vite = await createServer({
    configFile: false,
    root: process.cwd(),
    define: defineWebEnv(loadEnv('production', process.cwd(), 'VITE_')),
    server: { middlewareMode: true },
    appType: 'custom',
    logLevel: 'warn',
  });
  try {
    // Typed here by hand: the web modules' own types need the browser build's settings (DOM, JSX, Vite's import.meta).
    const { compilePosts } = (await vite.ssrLoadModule('/web/app/posts/posts.server.ts')) as {
      compilePosts: (files: Record<string, string>, options: { drafts: boolean; locales: readonly string[] }) => Promise<unknown[]>;
    };
    const { searchDocuments } = (await vite.ssrLoadModule('/web/app/search/documents.ts')) as {
      searchDocuments: (locale: string, facts: typeof FACTS, posts: readonly unknown[]) => Promise<unknown[]>;
    };
    const { buildIndex } = (await vite.ssrLoadModule('/web/app/search/engine.ts')) as {
      buildIndex: (documents: readonly unknown[]) => string;
    };
    const files = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`web/content/posts/generated-${i + 1}.md`, generatedPost(i + 1)]),
    );
    const posts = await compilePosts(files, { drafts: false, locales: LOCALE_CODES });
    const index = buildIndex(await searchDocuments('en', FACTS, posts));
    console.log(`en with 100 generated posts: ${kb(index.length)} KB, ${kb(gzipSync(index, { level: 9 }).length)} KB gzip`);
  } finally {
    await vite.close();
  }
}

/** Lighthouse's mobile throttling (its simulated slow 4G and 4× CPU), applied for real. */
async function slowPhone(page: Page): Promise<void> {
  const { rttMs, throughputKbps, cpuSlowdownMultiplier } = throttling.mobileSlow4G;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: rttMs,
    downloadThroughput: (throughputKbps * 1024) / 8,
    uploadThroughput: (throughputKbps * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdownMultiplier });
}

interface Marks {
  click: number;
  focus: number;
  input: number;
  results: number;
  fetches: { name: string; start: number; end: number }[];
}

const TYPING_MARK = 'bench-typing';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * The longest top-level task on a renderer's main thread after the typing mark, by the thread's own
 * time (the trace's thread duration), in ms. Chromium's CPU throttling keeps the thread busy while it
 * holds it back, so that time holds the 4× slowdown (a fixed loop measured 35 ms at 1×, 154 ms at 4×),
 * while the time the machine's other work took the core is left out: the phone's task on an idle machine.
 */
function longestTaskCpuMs(trace: { traceEvents: TraceEvent[] }): number {
  const events = trace.traceEvents;
  const mark = events.find((event) => event.name === TYPING_MARK);
  if (!mark) throw new Error('The trace has no typing mark: the tracing categories missed blink.user_timing.');
  const main = new Set(
    events
      .filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const tasks = events.filter(
    (event) => event.name === 'RunTask' && event.ph === 'X' && event.ts >= mark.ts && main.has(`${event.pid}:${event.tid}`),
  );
  return Math.max(0, ...tasks.map((event) => (event.tdur ?? event.dur ?? 0) / 1000));
}

async function oneRun(browser: Browser, page: Page, url: string, ahead: boolean) {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('a.search-link[aria-haspopup="dialog"]', { state: 'attached', timeout: 60_000 });
  if (ahead) {
    // Pointed at first: the dialog's code, the engine and the index arrive before the click. (Waiting
    // for the load state 'networkidle' instead returned at once, the page being idle already: the click
    // came while they were still on the way.)
    const arrived = ['SearchDialog', 'engine', 'search-index'].map((name) =>
      page.waitForResponse((response) => response.url().includes(name)),
    );
    await page.locator('.mobile-bar a.search-link').dispatchEvent('pointerover');
    await Promise.all(arrived);
    await page.waitForTimeout(300); // the engine loads the index once both have arrived
  }
  // In-page code as text: this file is type-checked for Node, without the DOM's types. The page itself
  // notes when each step happened (its own clock), so the driver's round trips are told apart.
  await page.evaluate(`
    window.benchTasks = [];
    window.bench = {};
    new PerformanceObserver((list) => window.benchTasks.push(...list.getEntries().map((entry) => entry.duration))).observe({ type: 'longtask' });
    // On the window, capturing: before the search control's own listener (on the document) runs.
    window.addEventListener('click', () => (window.bench.click = performance.now()), { capture: true, once: true });
    document.addEventListener('focusin', (event) => { if (event.target.matches('dialog input[type="search"]')) window.bench.focus ??= performance.now(); }, { capture: true });
    document.addEventListener('input', () => (window.bench.input ??= performance.now()), { capture: true });
    new MutationObserver(() => { if (!window.bench.results && document.querySelector('dialog[open] a.search-result')) window.bench.results = performance.now(); }).observe(document.body, { childList: true, subtree: true });
  `);
  // The phone bar's control: a phone-sized window shows it.
  await page.locator('.mobile-bar a.search-link').dispatchEvent('click', { button: 0 });
  await page.waitForSelector('dialog[open] input[type="search"]:focus');
  await page.keyboard.insertText('react');
  await page.waitForSelector('dialog[open] a.search-result', { timeout: 60_000 });
  const marks = await page.evaluate<Marks>(`({
    ...window.bench,
    fetches: performance.getEntriesByType('resource').filter((entry) => /SearchDialog|engine|words|search-index/.test(entry.name) && entry.startTime >= window.bench.click - 5000)
      .map((entry) => ({ name: entry.name.replace(/^.*\\//, ''), start: entry.startTime - window.bench.click, end: entry.responseEnd - window.bench.click })),
  })`);
  if (process.env.BENCH_VERBOSE) console.log(JSON.stringify(marks));
  const firstResultsMs = marks.results - marks.click;
  // The driver's wait: from the field's focus until its typing reaches the page.
  const driverMs = marks.input - marks.focus;
  await page.fill('dialog[open] input[type="search"]', '');
  // Traced too: the tracing's own start (DevTools collecting source positions) comes before the mark.
  await browser.startTracing(page, {
    categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'],
  });
  await page.waitForTimeout(500);
  await page.evaluate(`window.benchTasks = []; performance.mark('${TYPING_MARK}')`);
  await page.keyboard.type('cloudfront deploy', { delay: 120 });
  await page.waitForTimeout(500);
  const tasks = await page.evaluate<number[]>('window.benchTasks');
  const traceText = (await browser.stopTracing()).toString('utf8');
  if (process.env.BENCH_TRACE) writeFileSync(process.env.BENCH_TRACE, traceText);
  const longestCpuMs = longestTaskCpuMs(JSON.parse(traceText) as { traceEvents: TraceEvent[] });
  if (process.env.BENCH_VERBOSE)
    console.log(
      `long tasks while typing (wall ms): ${tasks.map((ms) => ms.toFixed(0)).join(' ') || 'none'}; longest by thread time: ${longestCpuMs.toFixed(1)} ms`,
    );
  return { firstResultsMs, shellMs: marks.focus - marks.click, driverMs, longestTaskMs: Math.max(0, ...tasks), longestCpuMs };
}

async function timings(runs: number): Promise<void> {
  const stack = await startLocalStack({ port: 0, sesPort: 0, quiet: true });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const show = (values: number[]) =>
      `${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
    for (const ahead of [false, true]) {
      const results: Awaited<ReturnType<typeof oneRun>>[] = [];
      for (let run = 0; run < runs; run++) {
        // A fresh context each run: an empty cache, as on a first visit.
        const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
        const page = await context.newPage();
        await slowPhone(page);
        results.push(await oneRun(browser, page, `${stack.url}/home`, ahead));
        await context.close();
      }
      const how = ahead ? 'control pointed at first' : 'nothing fetched ahead';
      console.log(`open → first results, slowed phone, ${how}, ${runs} runs: median ${show(results.map((r) => r.firstResultsMs))}`);
      console.log(`  of which open → dialog shown with the field focused: ${show(results.map((r) => r.shellMs))}`);
      console.log(`  of which the driver's wait between that focus and its typing: ${show(results.map((r) => r.driverMs))}`);
      console.log(`  open → first results less the driver's wait: ${show(results.map((r) => r.firstResultsMs - r.driverMs))}`);
      console.log(
        `longest main-thread task while typing (4× CPU), ${how}: median ${show(results.map((r) => r.longestTaskMs))} (0: none over 50 ms, the long-task threshold)`,
      );
      console.log(
        `  the same by the main thread's own time (the trace: 4× included, the machine's other work left out): median ${show(results.map((r) => r.longestCpuMs))}`,
      );
    }
    // Wall times: on a machine whose cores other work takes, they grow with that work.
    console.log(
      `load average during the runs: ${loadavg()
        .map((value) => value.toFixed(1))
        .join(', ')} on ${availableParallelism()} cores`,
    );
  } finally {
    await browser.close();
    await stack.stop();
  }
}

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
if (!Number.isInteger(runs) || runs < 1 || runs > 20) throw new Error('--runs takes a whole number from 1 to 20.');
if (!process.argv.includes('--timings-only')) await indexSizes();
await timings(runs);
