/**
 * A copy of the project that builds on its own (the configs, the site, the contract it imports, the
 * post-build scripts; node_modules linked), for tests that build content the shipped site does not have
 * (scripts/posts-build.test.ts, e2e/posts.test.ts, e2e/engines/post-flows.ts). Imports nothing of the
 * project.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What `npm run build` (and `npm start`'s build step) reads. */
export const BUILD_INPUTS = [
  'package.json',
  'react-router.config.ts',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.web.json',
  'tsconfig.web-test.json',
  'tsconfig.node.json',
  'tsconfig.e2e.json',
  'contract',
  'infra/shared',
  'web/app',
  'web/content',
  'web/public',
  'scripts/quiet-build.ts',
  'scripts/postbuild.ts',
  'scripts/post-images.ts',
  'scripts/search-index.ts',
  'scripts/og-images.ts',
  'scripts/og-rtl.ts',
  'scripts/woff.ts',
];

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
    cpSync(path.join(REPO, input), path.join(copy, input), { recursive: true, filter: (source) => !source.includes(`${path.sep}build${path.sep}`) });
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
}

/** Copies the project to a temporary folder, then `extraContent` (a folder) over its web/content. */
export function copyProject(prefix: string, extraContent?: string): ProjectCopy {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  makeCopy(dir);
  if (extraContent) cpSync(extraContent, path.join(dir, 'web/content'), { recursive: true });
  return {
    dir,
    build: () => buildIn(dir),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `npm run build` in a copy, with a plain shell's environment (no test runner's variables). */
function buildIn(dir: string): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: dir };
  for (const name of Object.keys(env)) if (name === 'NODE_ENV' || name.startsWith('VITEST') || name.startsWith('VITE_')) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** What a fixture build's result depends on besides BUILD_INPUTS and the fixture: the dependencies' versions. */
export const LOCK_FILE = 'package-lock.json';
/** A cached fixture build no run has used for this long is removed by the next run that builds. */
const CACHE_UNUSED_MS = 30 * 60_000;
/** How long a run waits for another process's build of the same fixture before giving up. */
const WAIT_FOR_OTHER_BUILD_MS = 15 * 60_000;

/** sha256 over every file of `inputs` (relative to REPO), in a stable order, with their paths. */
export function hashInputs(inputs: readonly string[]): string {
  const hash = createHash('sha256').update(process.version);
  const add = (relative: string) => {
    const full = path.join(REPO, relative);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const entry of readdirSync(full).sort()) if (entry !== 'build') add(path.join(relative, entry));
      return;
    }
    hash.update(`\0${relative}\0`).update(readFileSync(full));
  };
  for (const input of inputs) add(input);
  return hash.digest('hex').slice(0, 16);
}

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
export const FIXTURE_BUILDS = path.join(os.tmpdir(), `portfolio-fixture-builds-${createHash('sha256').update(REPO).digest('hex').slice(0, 8)}`);

/**
 * The project built (`npm run build`) with `extraContent` over its web/content, made once and shared by
 * every test that reads it, in this run and the next ones: the folder is named by a hash of what the
 * build reads, so an edit to the site, the fixture or the dependencies makes a new one. Processes that
 * ask at the same time (test files of the node and browser projects run side by side) wait for the one
 * that builds instead of building again. Callers only read it: never write into it or remove it.
 */
export function sharedBuild(extraContent: string): Promise<FixtureBuild> {
  const key = hashInputs([...BUILD_INPUTS, LOCK_FILE, path.relative(REPO, extraContent)]);
  return sharedFolder(FIXTURE_BUILDS, key, (dir) => {
    makeCopy(dir);
    cpSync(extraContent, path.join(dir, 'web/content'), { recursive: true });
    return buildIn(dir);
  });
}

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
    if (Date.now() > deadline) return { dir: '', code: 1, output: `Waited ${Math.round(waitMs / 1000)} s for another process to make ${dir} (${lock} held).` };
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
