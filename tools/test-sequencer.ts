/**
 * The order Vitest hands test files to its workers. The projects share one pool of workers (in two
 * groups, vitest.config.ts), so a group is done when its last lane is: the longest files go first
 * (longest-processing-time-first), across projects, rather than Vitest's default of one project after
 * another in name order, which leaves a long file for the end.
 *
 * A file's length is what the previous run measured (Vitest's results cache), else what the checked-in
 * table says (tools/test-durations.json: CI always starts from a fresh clone, with no cache, and a file's
 * size says little of its length: the engines' flow files are three lines each). A file in neither
 * ran shorter than the table's floor, or is newer than the table: it goes after the files the table names.
 *
 * `npx tsx tools/test-sequencer.ts` writes the table from this checkout's cache, after a whole `npm test`.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const DURATION_TABLE = fileURLToPath(new URL('test-durations.json', import.meta.url));
/** Files shorter than this are left out of the table: their order hardly moves a group's end. */
const TABLE_FLOOR_MS = 2_000;

/** Milliseconds by `project:file`, as Vitest's results cache keys them. */
function durationTable(): Record<string, number> {
  return JSON.parse(readFileSync(DURATION_TABLE, 'utf8')) as Record<string, number>;
}

/** From the longest files to the shortest: the order of files measured alike, and of the shared projects. */
const PROJECT_RANK = ['webkit', 'firefox', 'browser', 'page-views', 'programs', 'node', 'web-mocks', 'web'];

function rank(spec: TestSpecification): number {
  const index = PROJECT_RANK.indexOf(spec.project.name);
  return index < 0 ? PROJECT_RANK.length : index;
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // A project that shares its workers between files (isolate: false) keeps a worker only while the
    // next file in the queue is its own: its files go together, after the others, so they are not
    // interleaved with another project's and each worker loads the project's modules once.
    const isolated = files.filter((spec) => spec.project.config.isolate !== false);
    const shared = [...new Set(files.filter((spec) => spec.project.config.isolate === false).map((spec) => spec.project))];
    shared.sort((a, b) => rank(files.find((spec) => spec.project === a)!) - rank(files.find((spec) => spec.project === b)!));
    return [
      ...this.longestFirst(isolated),
      ...shared.flatMap((project) => this.longestFirst(files.filter((spec) => spec.project === project))),
    ];
  }

  private longestFirst(files: TestSpecification[]): TestSpecification[] {
    const cache = this.ctx.cache;
    const table = durationTable();
    const measured = (spec: TestSpecification) => {
      const key = `${spec.project.name}:${path.relative(this.ctx.config.root, spec.moduleId)}`;
      // A file missing from the table ran shorter than its floor (or is newer than the table).
      return cache.getFileTestResults(key) ?? { failed: false, duration: table[key] ?? 0 };
    };
    // A failed file first, so a run that will fail says so early; then the longest.
    return [...files].sort(
      (a, b) => Number(measured(b).failed) - Number(measured(a).failed) || measured(b).duration - measured(a).duration || rank(a) - rank(b),
    );
  }
}

/** Writes the table from the results cache of the last run in this checkout. */
function writeDurationTable(): void {
  const root = path.dirname(path.dirname(DURATION_TABLE));
  const cacheDir = path.join(root, 'node_modules/.vite/vitest');
  // One folder per configuration Vitest has run with: the last written is the last run's.
  const [latest] = readdirSync(cacheDir)
    .map((hash) => path.join(cacheDir, hash, 'results.json'))
    .filter((file) => statSync(file, { throwIfNoEntry: false }))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!latest) throw new Error(`No Vitest results in ${cacheDir}: run npm test first.`);
  const { results } = JSON.parse(readFileSync(latest, 'utf8')) as {
    results: [string, { duration?: number }][];
  };
  const table = Object.fromEntries(
    results
      .filter(([, result]) => (result.duration ?? 0) >= TABLE_FLOOR_MS)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, result]) => [key, Math.round(result.duration!)]),
  );
  writeFileSync(DURATION_TABLE, `${JSON.stringify(table, null, 2)}\n`);
  console.log(`${Object.keys(table).length} files of ${TABLE_FLOOR_MS / 1000} s or more → ${path.relative(root, DURATION_TABLE)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) writeDurationTable();
