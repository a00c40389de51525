/**
 * What `npm start` serves: a copy of the last complete build, never web/build itself. A build empties
 * web/build when it starts and writes its post-build report (postbuild.json) last, so while a build runs,
 * and after one fails, web/build has no complete site; the copy keeps answering with the last good one.
 * Each complete build that appears in web/build (postbuild.json written anew) is copied and served in
 * its place; a build that leaves web/build incomplete is reported once, and the site stays as it was.
 *
 * The copies live in `servingDir` (.local/serving/build-…/build/): `current` is a symbolic link to the copy served, swapped
 * in one rename, so a request sees either the old build or the new one, never half of each.
 */
import { cpSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { POSTBUILD_REPORT_FILE } from '../infra/shared/build-output';

export interface LastGoodBuild {
  /** The client folder to serve: stays the same path while the build behind it changes. */
  clientDir: string;
  /** When the build served was made (its postbuild.json's time). */
  builtAt(): Date;
  /** Looks at web/build once (the watch does this every `pollMs`); returns what it found. */
  check(): 'unchanged' | 'served-new' | 'incomplete';
  stop(): void;
}

export interface LastGoodBuildOptions {
  /** web/build: holds client/ and postbuild.json. */
  buildDir: string;
  /** Where the copies go (.local/serving). */
  servingDir: string;
  /** How often web/build is looked at; 0: never by itself (a test calls check()). */
  pollMs?: number;
  /** How long web/build may stay incomplete before it counts as a failed build (a build takes longer than a second or two). */
  incompleteMs?: number;
  /** Told once per new build served, and once per build that left web/build incomplete. */
  onServed?: (builtAt: Date) => void;
  onIncomplete?: (servedBuiltAt: Date) => void;
  now?: () => number;
}

const reportTime = (buildDir: string) => statSync(path.join(buildDir, POSTBUILD_REPORT_FILE), { throwIfNoEntry: false })?.mtimeMs;

/** Copies a complete build (client/ and its report) to a new folder of `servingDir` and points `current` at it. */
function copyAndServe(buildDir: string, servingDir: string, made: number): void {
  const name = `build-${Math.round(made)}-${process.pid}`;
  const target = path.join(servingDir, name);
  rmSync(target, { recursive: true, force: true });
  // Laid out as web/build is (build/client, build/postbuild.json): what skips a build folder skips the copy too.
  cpSync(path.join(buildDir, 'client'), path.join(target, 'build', 'client'), { recursive: true });
  // Its time kept: it says when the build was made.
  cpSync(path.join(buildDir, POSTBUILD_REPORT_FILE), path.join(target, 'build', POSTBUILD_REPORT_FILE), { preserveTimestamps: true });
  // A build that changed web/build while it was copied is copied again at the next look.
  const link = path.join(servingDir, 'current');
  const next = `${link}.next-${process.pid}`;
  rmSync(next, { force: true });
  // Windows makes a directory junction without special rights, but only to an absolute path.
  if (process.platform === 'win32') symlinkSync(target, next, 'junction');
  else symlinkSync(name, next, 'dir');
  renameSync(next, link);
  // Older copies go, but for the one just replaced: a request may still be reading it.
  const keep = new Set([name]);
  const copies = readdirSync(servingDir)
    .filter((entry) => entry.startsWith('build-'))
    .sort((a, b) => statSync(path.join(servingDir, b)).mtimeMs - statSync(path.join(servingDir, a)).mtimeMs);
  for (const entry of copies.slice(0, 2)) keep.add(entry);
  for (const entry of copies) if (!keep.has(entry)) rmSync(path.join(servingDir, entry), { recursive: true, force: true });
}

/** The copy `npm start` served last, when there is one: its build/ folder. */
export function lastServedBuild(servingDir: string): string | undefined {
  const build = path.join(servingDir, 'current', 'build');
  return reportTime(build) === undefined ? undefined : build;
}

/**
 * Starts serving the build in `buildDir` from a copy, and watching for the next. With no complete build
 * there (the last one failed, and said so), the copy served last is served again; with neither, it
 * throws, naming `npm run build`.
 */
export function serveLastGoodBuild(options: LastGoodBuildOptions): LastGoodBuild {
  const { buildDir, servingDir, pollMs = 1_000, incompleteMs = 60_000, onServed, onIncomplete, now = Date.now } = options;
  const first = reportTime(buildDir);
  const previous = lastServedBuild(servingDir);
  if (first === undefined && previous === undefined) {
    throw new Error(
      `${path.join(buildDir, POSTBUILD_REPORT_FILE)} is missing: the build in ${buildDir} is not complete; run \`npm run build\` first.`,
    );
  }
  mkdirSync(servingDir, { recursive: true });
  if (first !== undefined) copyAndServe(buildDir, servingDir, first);
  let served = first ?? reportTime(previous!)!;
  let incompleteSince: number | undefined;
  // Starting on the previous copy: the failed build has been reported already (scripts/quiet-build.ts).
  let reported = first === undefined;
  const check = (): 'unchanged' | 'served-new' | 'incomplete' => {
    const made = reportTime(buildDir);
    if (made === undefined) {
      incompleteSince ??= now();
      if (!reported && now() - incompleteSince >= incompleteMs) {
        reported = true;
        onIncomplete?.(new Date(served));
      }
      return 'incomplete';
    }
    incompleteSince = undefined;
    reported = false;
    if (made === served) return 'unchanged';
    copyAndServe(buildDir, servingDir, made);
    served = made;
    onServed?.(new Date(made));
    return 'served-new';
  };
  const timer =
    pollMs > 0
      ? setInterval(() => {
          try {
            check();
          } catch {
            // A build rewrote web/build while it was copied: the next look copies it whole.
          }
        }, pollMs)
      : undefined;
  timer?.unref();
  return {
    clientDir: path.join(servingDir, 'current', 'build', 'client'),
    builtAt: () => new Date(served),
    check,
    stop: () => clearInterval(timer),
  };
}

/** The notice `npm start` prints once for a build that left web/build incomplete. */
export function incompleteBuildNotice(servedBuiltAt: Date): string {
  const time = servedBuiltAt.toTimeString().slice(0, 5);
  return (
    `\n  A build has left web/build incomplete (it failed, or is still running): the site keeps serving the build of ${time}.\n` +
    "  Its cause is the last lines of that build's output (`npm run build` prints the file, the line and the fix);\n" +
    '  fix it and build again: the new build is served as soon as it is complete.\n'
  );
}

export const servedNotice = (builtAt: Date) => `  Serving the new build of ${builtAt.toTimeString().slice(0, 8)}.`;
