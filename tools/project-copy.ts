/**
 * A copy of the project that builds on its own (the configs, the site, the contract it imports, the
 * post-build scripts; node_modules linked), for tests that build content the shipped site does not have
 * (the shared builds of tools/locale-copy.ts, scripts/posts-dev.test.ts). Imports nothing of the
 * project but the child-run helper (tools/run-tsx.ts); what the build reads is listed in build-inputs.ts,
 * which `npm start` uses too.
 */
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_INPUTS, hashFiles, LOCK_FILE } from './build-inputs';
import { buildProject } from './run-tsx';
import { scratchDir } from './scratch';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export { BUILD_INPUTS, LOCK_FILE };

/** The fixture posts (every feature of the Markdown pipeline), laid out as web/content holds posts. */
export const POST_FIXTURE = path.join(REPO, 'web/test/fixtures/posts');

export interface ProjectCopy {
  dir: string;
  /** `npm run build` in the copy, with a plain shell's environment (no test runner's variables). */
  build(): Promise<{ code: number; output: string }>;
  remove(): void;
}

/** Copies what the build reads into `copy` (an empty folder), sharing the project's node_modules. */
export function makeCopy(copy: string): void {
  for (const input of BUILD_INPUTS) {
    mkdirSync(path.dirname(path.join(copy, input)), { recursive: true });
    cpSync(path.join(REPO, input), path.join(copy, input), {
      recursive: true,
      filter: (source) => !source.includes(`${path.sep}build${path.sep}`),
    });
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
}

/**
 * Copies the project to a temporary folder, then `extraContent` (a folder) over its web/content. For
 * tests only: the folder goes when the test file ends (tools/scratch.ts), if `remove` was not called.
 */
export function copyProject(prefix: string, extraContent?: string): ProjectCopy {
  const dir = scratchDir(prefix);
  makeCopy(dir);
  if (extraContent) cpSync(extraContent, path.join(dir, 'web/content'), { recursive: true });
  return {
    dir,
    build: () => buildIn(dir),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `npm run build` in a copy, with a plain shell's environment (no test runner's variables). */
async function buildIn(dir: string): Promise<{ code: number; output: string }> {
  const { status, output } = await buildProject(dir);
  return { code: status ?? 1, output };
}

/** A cached fixture build no run has used for this long is removed by the next run that builds. */
const CACHE_UNUSED_MS = 30 * 60_000;
/** How long a run waits for another process's build of the same fixture before giving up. */
const WAIT_FOR_OTHER_BUILD_MS = 15 * 60_000;

/** sha256 over every file of `inputs` (relative to REPO), in a stable order, with their paths. */
export const hashInputs = (inputs: readonly string[]): string => hashFiles(inputs, REPO);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock folder (mkdir is atomic), or returns false while a live process holds it. A dead holder's lock is taken over. */
function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    let pid = 0;
    try {
      pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
    } catch {
      // Just released, or being taken (no pid yet): look again shortly.
    }
    if (pid > 0 && isAlive(pid)) return false;
    // No pid: taken this very moment, unless it stayed so for a minute (its taker died at once).
    const taken = statSync(lock, { throwIfNoEntry: false });
    if (!(pid > 0) && (!taken || Date.now() - taken.mtimeMs < 60_000)) return false;
    // Otherwise its process is gone: that run was interrupted.
    rmSync(lock, { recursive: true, force: true });
    return tryLock(lock);
  }
  writeFileSync(path.join(lock, 'pid'), String(process.pid));
  return true;
}

export interface FixtureBuild {
  /** The built copy (its `web/build/client` is what the site serves), or '' when the build failed. */
  dir: string;
  code: number;
  output: string;
}

/** Where the shared builds of this checkout are kept (one folder per checkout, so worktrees never meet). */
export const FIXTURE_BUILDS = path.join(
  os.tmpdir(),
  `portfolio-fixture-builds-${createHash('sha256').update(REPO).digest('hex').slice(0, 8)}`,
);

/**
 * `parent/key`, made by `make` (into an empty folder, beside it, renamed once made: a reader never sees
 * half of it) unless it is there already; while another process makes it, waits for that one. A failed
 * `make` leaves nothing, so the next call tries again.
 */
export async function sharedFolder(
  parent: string,
  key: string,
  make: (dir: string) => Promise<{ code: number; output: string }>,
  waitMs = WAIT_FOR_OTHER_BUILD_MS,
): Promise<FixtureBuild> {
  const dir = path.join(parent, key);
  const done = path.join(dir, '.complete');
  const lock = `${dir}.lock`;
  mkdirSync(parent, { recursive: true });
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (existsSync(done)) {
      const now = new Date();
      utimesSync(done, now, now);
      return { dir, code: 0, output: '' };
    }
    if (tryLock(lock)) break;
    if (Date.now() > deadline)
      return { dir: '', code: 1, output: `Waited ${Math.round(waitMs / 1000)} s for another process to make ${dir} (${lock} held).` };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  try {
    if (existsSync(done)) return { dir, code: 0, output: '' };
    removeUnusedBuilds(parent, key);
    const partial = mkdtempSync(path.join(parent, `${key}.partial-`));
    const made = await make(partial).catch((error: unknown) => ({ code: 1, output: String(error) }));
    if (made.code !== 0) {
      rmSync(partial, { recursive: true, force: true });
      return { dir: '', ...made };
    }
    writeFileSync(path.join(partial, '.complete'), '');
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
    return { dir, ...made };
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Removes the other cached builds of this checkout that no run has used lately (and leftovers of interrupted ones). */
function removeUnusedBuilds(parent: string, keep: string): void {
  for (const entry of readdirSync(parent)) {
    if (entry === keep || entry.endsWith('.lock')) continue;
    const full = path.join(parent, entry);
    const marker = path.join(full, '.complete');
    const lastUsed = existsSync(marker) ? statSync(marker).mtimeMs : statSync(full).mtimeMs;
    if (Date.now() - lastUsed > CACHE_UNUSED_MS) rmSync(full, { recursive: true, force: true });
  }
}
