import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { incompleteBuildNotice, lastServedBuild, serveLastGoodBuild } from './last-good-build';
import { scratchDir } from '../tools/scratch';

const root = scratchDir('last-good-build-');

/** A build as `npm run build` leaves it: client/ with a page, postbuild.json written last. */
function writeBuild(buildDir: string, text: string, time: number): void {
  mkdirSync(path.join(buildDir, 'client/home'), { recursive: true });
  writeFileSync(path.join(buildDir, 'client/home/index.html'), text);
  writeFileSync(path.join(buildDir, 'postbuild.json'), '{}');
  utimesSync(path.join(buildDir, 'postbuild.json'), time, time);
}

/** What a build does first, and all a failed one leaves: web/build emptied of its pages and report. */
const emptyBuild = (buildDir: string) => rmSync(buildDir, { recursive: true, force: true });

describe('npm start serves the last good build', () => {
  it('keeps serving it while a build runs and after one fails, reports the failure once, and serves the next good one', () => {
    const buildDir = path.join(root, 'web/build');
    writeBuild(buildDir, 'first', 1_000);
    let clock = 0;
    const served: Date[] = [];
    const incomplete: Date[] = [];
    const site = serveLastGoodBuild({
      buildDir,
      servingDir: path.join(root, 'serving'),
      pollMs: 0,
      incompleteMs: 5_000,
      now: () => clock,
      onServed: (t) => served.push(t),
      onIncomplete: (t) => incomplete.push(t),
    });
    const page = () => readFileSync(path.join(site.clientDir, 'home/index.html'), 'utf8');
    expect(page()).toBe('first');
    expect(site.check()).toBe('unchanged');

    emptyBuild(buildDir);
    expect(site.check()).toBe('incomplete');
    clock = 4_000;
    site.check();
    expect(incomplete).toEqual([]);
    clock = 6_000;
    site.check();
    site.check();
    expect(incomplete).toEqual([new Date(1_000_000)]);
    expect(page()).toBe('first');

    writeBuild(buildDir, 'second', 2_000);
    expect(site.check()).toBe('served-new');
    expect(page()).toBe('second');
    expect(served).toEqual([new Date(2_000_000)]);
    expect(site.builtAt()).toEqual(new Date(2_000_000));

    // The next failure is reported again, once.
    emptyBuild(buildDir);
    clock = 20_000;
    site.check();
    expect(incomplete).toHaveLength(1);
    clock = 30_000;
    site.check();
    expect(incomplete).toHaveLength(2);
    expect(page()).toBe('second');
    site.stop();
  });

  it('starts on the copy served last when the build failed before it started, without reporting that failure again', () => {
    const buildDir = path.join(root, 'again/web/build');
    const servingDir = path.join(root, 'again/serving');
    writeBuild(buildDir, 'good', 3_000);
    serveLastGoodBuild({ buildDir, servingDir, pollMs: 0 }).stop();
    emptyBuild(buildDir);
    expect(lastServedBuild(servingDir)).toBe(path.join(servingDir, 'current', 'build'));
    let clock = 0;
    const incomplete: Date[] = [];
    const site = serveLastGoodBuild({
      buildDir,
      servingDir,
      pollMs: 0,
      incompleteMs: 5_000,
      now: () => clock,
      onIncomplete: (t) => incomplete.push(t),
    });
    expect(readFileSync(path.join(site.clientDir, 'home/index.html'), 'utf8')).toBe('good');
    expect(site.builtAt()).toEqual(new Date(3_000_000));
    clock = 10_000;
    site.check();
    expect(incomplete).toEqual([]);
    writeBuild(buildDir, 'fixed', 4_000);
    expect(site.check()).toBe('served-new');
    expect(readFileSync(path.join(site.clientDir, 'home/index.html'), 'utf8')).toBe('fixed');
  });

  it('asks for a build when there is no complete one to start with', () => {
    const buildDir = path.join(root, 'none/web/build');
    mkdirSync(path.join(buildDir, 'client'), { recursive: true });
    expect(() => serveLastGoodBuild({ buildDir, servingDir: path.join(root, 'none/serving'), pollMs: 0 })).toThrow(
      /postbuild\.json is missing: .*run `npm run build` first/,
    );
  });

  it('says what happened, what is served and what to do', () => {
    const notice = incompleteBuildNotice(new Date(2026, 0, 5, 9, 41));
    expect(notice).toContain('keeps serving the build of 09:41');
    expect(notice).toContain('fix it and build again');
  });
});
