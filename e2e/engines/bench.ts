/**
 * `npm run bench:engines`: does V8's compile hint cost the other engines anything? The post-build
 * step starts every chunk a first load runs with `//# allFunctionsCalledOnLoad` (contract/compile-hint.ts),
 * which only V8 reads. This loads pages of the existing build in Chromium, Firefox ESR and WebKitGTK
 * (the visitor flows' drivers, engine.ts) from two local stacks: the build as it is, and a copy with
 * the hint line taken out of every script. It reads the page's `hydrated` performance mark (set once
 * the page has hydrated and switched to its client-only parts: use-hydrated.tsx), ms after the
 * navigation started, and the same mark less the arrival of the first load's last script (Resource Timing): the
 * engine's own work on the scripts, without the network and the wait for the first paint. It prints
 * the medians side by side. Runs alternate between the two builds, so
 * a machine that slows down meanwhile slows both. A benchmark, never a test: it prints figures.
 *
 * Options: --runs N (default 7), --routes /home,/projects/1, --engines chromium,firefox,webkit.
 * The drivers are automation sessions: Chromium's DevTools session and Firefox's BiDi session add
 * their own work to every load, alike for both builds; compare the columns, not the absolute figures
 * with Lighthouse's.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs as parseCli } from 'node:util';
import { COMPILE_HINT } from '../../contract/compile-hint';
import { median } from '../../tools/stats';
import { DEFERRED_PRELOADS_ATTRIBUTE, MOVED_SCRIPT_ATTRIBUTE } from '../../contract/inline-scripts';
import { startLocalStack, type LocalStack } from '../../infra/local/stack';
import { ENGINES, launchEngine, type Engine, type EngineName } from './engine';
import { startNetwork, type Network } from './network';

const BUILD_DIR = path.join(process.cwd(), 'web', 'build');
const HYDRATED_MARK = 'hydrated';
const HYDRATION_TIMEOUT_MS = 15_000;

interface Options {
  runs: number;
  routes: string[];
  engines: EngineName[];
}

const USAGE = `Options: --runs N, --routes /a,/b, --engines ${ENGINES.join(',')}`;

function parseArgs(argv: string[]): Options {
  let values: { runs?: string; routes?: string; engines?: string };
  try {
    ({ values } = parseCli({
      args: argv,
      options: { runs: { type: 'string' }, routes: { type: 'string' }, engines: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}. ${USAGE}`);
  }
  const list = (value: string) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  const options: Options = { runs: 7, routes: ['/home', '/projects/1', '/blogs'], engines: [...ENGINES] };
  if (values.runs !== undefined) {
    const runs = Number(values.runs);
    if (!Number.isInteger(runs) || runs < 1 || runs > 25) throw new Error('--runs must be a whole number from 1 to 25');
    options.runs = runs;
  }
  if (values.routes !== undefined) {
    const routes = list(values.routes);
    if (routes.length === 0 || !routes.every((r) => r.startsWith('/')))
      throw new Error('--routes takes paths starting with "/", e.g. --routes /home,/blogs');
    options.routes = routes;
  }
  if (values.engines !== undefined) {
    const engines = list(values.engines);
    const unknown = engines.filter((e) => !(ENGINES as readonly string[]).includes(e));
    if (engines.length === 0 || unknown.length > 0)
      throw new Error(`--engines takes ${ENGINES.join(', ')} (unknown: ${unknown.join(', ') || 'none given'})`);
    options.engines = engines as EngineName[];
  }
  return options;
}

/**
 * A copy of the build whose scripts carry no compile hint; returns its directory and how many scripts lost
 * it. The caller removes the directory; it is gone already when this throws (no hinted script, a failed copy).
 */
function copyWithoutHint(): { dir: string; scripts: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-no-hint-'));
  try {
    cpSync(BUILD_DIR, dir, { recursive: true });
    const assets = path.join(dir, 'client', 'assets');
    let scripts = 0;
    for (const name of readdirSync(assets)) {
      if (!name.endsWith('.js')) continue;
      const file = path.join(assets, name);
      const text = readFileSync(file, 'utf8');
      if (!text.startsWith(COMPILE_HINT)) continue;
      writeFileSync(file, text.slice(COMPILE_HINT.length));
      scripts++;
    }
    if (scripts === 0) throw new Error(`No script in ${BUILD_DIR} carries the compile hint: is it an old build?`);
    return { dir, scripts };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

type Variant = 'hinted' | 'plain';

interface Sample {
  /** The "hydrated" mark, ms after navigation start. */
  hydrated: number;
  /** From the last script's arrival (the latest responseEnd of a .js resource) to that mark: the engine's own work on them. */
  afterScripts: number;
}

/** One load in a fresh page. */
async function measure(engine: Engine, url: string, what: string): Promise<Sample> {
  const page = await engine.open({ viewport: 'phone' });
  try {
    await page.goto(url);
    const deadline = Date.now() + HYDRATION_TIMEOUT_MS;
    for (;;) {
      const sample = await page.evaluate(
        ({ mark, attributes }) => {
          const hydrated = performance.getEntriesByName(mark, 'mark')[0]?.startTime;
          if (hydrated === undefined) return null;
          // The first load's scripts: the module preloads the page holds until its first paint and the
          // moved scripts the boot script starts (web/boot/boot.ts), not the chunks fetched on
          // demand once hydrated.
          const template = document.querySelector<HTMLTemplateElement>(`template[${attributes.preloads}]`);
          const firstLoad = new Set([
            ...[...(template?.content.querySelectorAll('link[rel=modulepreload]') ?? [])].map(
              (link) => new URL(link.getAttribute('href') ?? '', location.href).pathname,
            ),
            ...[...document.querySelectorAll(`script[${attributes.moved}]`)].map(
              (script) => new URL(script.getAttribute(attributes.moved) ?? '', location.href).pathname,
            ),
          ]);
          const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) =>
            firstLoad.has(new URL(entry.name).pathname),
          );
          const arrived = Math.max(0, ...scripts.map((entry) => entry.responseEnd));
          return { hydrated, afterScripts: hydrated - arrived };
        },
        { mark: HYDRATED_MARK, attributes: { preloads: DEFERRED_PRELOADS_ATTRIBUTE, moved: MOVED_SCRIPT_ATTRIBUTE } },
      );
      if (sample !== null) return sample;
      if (Date.now() > deadline) throw new Error(`${what}: no "${HYDRATED_MARK}" mark after ${HYDRATION_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await page.close();
  }
}

/** A load the driver loses (WebKitWebDriver now and then stops answering) is taken again, once, and said. */
async function measureWithRetry(engine: Engine, url: string, what: string): Promise<Sample> {
  try {
    return await measure(engine, url, what);
  } catch (error) {
    console.warn(`  ${what}: load lost (${error instanceof Error ? error.message : String(error)}), taken again`);
    return measure(engine, url, what);
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (!existsSync(path.join(BUILD_DIR, 'client', 'home', 'index.html'))) {
    throw new Error(`No build in ${BUILD_DIR}: run \`npm run build\` first (the bench builds nothing).`);
  }
  const plain = copyWithoutHint();
  console.log(`Measuring the existing build in ${BUILD_DIR} against a copy without the compile hint (${plain.scripts} scripts).`);
  const stacks: Partial<Record<Variant, LocalStack>> = {};
  let network: Network | undefined;
  const results: { engine: EngineName; route: string; hinted: Sample[]; plain: Sample[] }[] = [];
  try {
    network = await startNetwork();
    stacks.hinted = await startLocalStack({ port: 0, sesPort: 0, quiet: true, clientDir: path.join(BUILD_DIR, 'client') });
    stacks.plain = await startLocalStack({ port: 0, sesPort: 0, quiet: true, clientDir: path.join(plain.dir, 'client') });
    for (const name of options.engines) {
      const engine = await launchEngine(name, network);
      try {
        for (const route of options.routes) {
          const row = { engine: name, route, hinted: [] as Sample[], plain: [] as Sample[] };
          for (let run = 0; run < options.runs; run++) {
            const order: Variant[] = run % 2 === 0 ? ['hinted', 'plain'] : ['plain', 'hinted'];
            for (const variant of order)
              row[variant].push(await measureWithRetry(engine, `${stacks[variant]!.url}${route}`, `${name} ${route} (${variant})`));
          }
          results.push(row);
          const m = (samples: Sample[], key: keyof Sample) => median(samples.map((x) => x[key])).toFixed(0);
          console.log(
            `${name} ${route}: hydrated at ${m(row.hinted, 'hydrated')} ms with the hint (${m(row.hinted, 'afterScripts')} after the scripts), ${m(row.plain, 'hydrated')} ms without (${m(row.plain, 'afterScripts')})`,
          );
        }
      } finally {
        await engine.close();
      }
    }
  } finally {
    await stacks.hinted?.stop();
    await stacks.plain?.stop();
    await network?.stop();
    rmSync(plain.dir, { recursive: true, force: true });
  }

  const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(0)}`;
  const rows = results.map((r) => {
    const pick = (samples: Sample[], key: keyof Sample) => median(samples.map((x) => x[key]));
    const range = (samples: Sample[], key: keyof Sample) =>
      `${Math.min(...samples.map((x) => x[key])).toFixed(0)}–${Math.max(...samples.map((x) => x[key])).toFixed(0)}`;
    return [
      r.engine,
      r.route,
      pick(r.hinted, 'hydrated').toFixed(0),
      pick(r.plain, 'hydrated').toFixed(0),
      signed(pick(r.hinted, 'hydrated') - pick(r.plain, 'hydrated')),
      `${pick(r.hinted, 'afterScripts').toFixed(0)} (${range(r.hinted, 'afterScripts')})`,
      `${pick(r.plain, 'afterScripts').toFixed(0)} (${range(r.plain, 'afterScripts')})`,
      signed(pick(r.hinted, 'afterScripts') - pick(r.plain, 'afterScripts')),
    ];
  });
  const header = [
    'engine',
    'route',
    'hydrated, hinted',
    'plain',
    'hint − plain',
    'after scripts, hinted (range)',
    'plain (range)',
    'hint − plain',
  ];
  const widths = header.map((_, col) => Math.max(header[col]!.length, ...rows.map((row) => row[col]!.length)));
  const line = (row: string[]) => row.map((cell, col) => (col < 2 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join('  ');
  console.log(
    `\nThe page's "${HYDRATED_MARK}" mark, ms after navigation start, and ms after the last script arrived; median of ${options.runs} (phone viewport):`,
  );
  console.log([line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n'));
  const dir = path.join(process.cwd(), '.bench');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'engines.json'), `${JSON.stringify({ at: new Date().toISOString(), options, results }, null, 2)}\n`);
  console.log('\nJSON: .bench/engines.json');
}

main().catch((error: unknown) => {
  console.error(`bench:engines: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
