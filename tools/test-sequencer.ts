/**
 * The order Vitest hands test files to its workers. The projects share one pool of workers (in two
 * groups, vitest.config.ts), so a group is done when its last lane is: the longest files go first
 * (longest-processing-time-first), across projects, rather than Vitest's default of one project after
 * another in name order, which leaves a long file for the end.
 *
 * A file's length is what the previous run measured (Vitest's results cache). A file never measured
 * (a fresh clone) goes first, ranked by its project's usual weight, then by size.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** From the longest files to the shortest, for a run with nothing measured yet. */
const PROJECT_RANK = ['webkit', 'firefox', 'browser', 'page-views', 'programs', 'node', 'web'];

function rank(spec: TestSpecification): number {
  const index = PROJECT_RANK.indexOf(spec.project.name);
  return index < 0 ? PROJECT_RANK.length : index;
}

function size(spec: TestSpecification): number {
  return statSync(spec.moduleId, { throwIfNoEntry: false })?.size ?? 0;
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
    const measured = (spec: TestSpecification) =>
      cache.getFileTestResults(`${spec.project.name}:${path.relative(this.ctx.config.root, spec.moduleId)}`);
    const unknown = files.filter((spec) => !measured(spec));
    const known = files.filter((spec) => measured(spec));
    unknown.sort((a, b) => rank(a) - rank(b) || size(b) - size(a));
    // A failed file first, so a run that will fail says so early; then the longest.
    known.sort((a, b) => Number(measured(b)!.failed) - Number(measured(a)!.failed) || measured(b)!.duration - measured(a)!.duration);
    return [...unknown, ...known];
  }
}
