/**
 * Runs a child process the way a person's shell would and collects what it prints: the one helper for
 * the tests' child runs (a CDK entry point through tsx, `npm run build` or `npm start`'s build step in a
 * copy of the project). Asynchronous on purpose: a spawnSync would freeze the test worker for the whole
 * child run, and under a full CI load (browsers on both cores) a cold start of aws-cdk-lib has taken
 * minutes, so the time limits are generous and a timeout says so plainly.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from './scratch';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** tsx's CLI, run by this Node (a copy of the project links the same node_modules). */
export const TSX_CLI = path.join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs');

export interface ChildRun {
  /** The exit code, or null when a signal (or the time limit) stopped it. */
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr in the order they arrived. */
  output: string;
}

export interface ChildOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /**
   * Stops the child and every process it started (SIGTERM to its process group) when aborted: `npm run`
   * does not pass a signal on to the command it runs. The child then has a group of its own, so the
   * caller aborts on Ctrl-C itself.
   */
  signal?: AbortSignal;
}

/** Runs `command args` and resolves when it ends (never rejects: a failure to start is status null). */
export function runChild(
  command: string,
  args: readonly string[],
  { cwd, env = process.env, timeoutMs, signal }: ChildOptions,
): Promise<ChildRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: signal !== undefined });
    let stdout = '';
    let stderr = '';
    let output = '';
    let note = '';
    const stop = () => {
      note = `\n[runChild] ${[command, ...args].join(' ')} was stopped`;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    };
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
    child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), (output += chunk.toString())));
    child.stderr.on('data', (chunk: Buffer) => ((stderr += chunk.toString()), (output += chunk.toString())));
    const timer = timeoutMs
      ? setTimeout(() => {
          note = `\n[runChild] ${[command, ...args].join(' ')} was stopped after ${timeoutMs / 1000} s`;
          child.kill('SIGTERM');
        }, timeoutMs)
      : undefined;
    const finish = (status: number | null, error = '') => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      stderr += error + note;
      output += error + note;
      resolve({ status, stdout, stderr, output });
    };
    child.on('error', (error) => finish(null, `\n[runChild] ${command} did not start: ${error.message}`));
    child.on('close', (code) => finish(note ? null : code));
  });
}

/**
 * The environment of a plain shell: the test runner's own variables (NODE_ENV, VITEST_*, VITE_*) are not
 * a newcomer's, and a build must not see them. `extra` is laid over it.
 */
export function plainEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name === 'NODE_ENV' || name.startsWith('VITEST') || name.startsWith('VITE_')) delete env[name];
  return { ...env, ...extra };
}

/** A child build's time limit: a production build of the site takes minutes under a full CI load. */
export const BUILD_TIMEOUT_MS = 15 * 60_000;

/**
 * `npm run build` (`quiet`: `npm start`'s build step, scripts/quiet-build.ts, whose log stays in the
 * folder) in a copy of the project at `dir`, in a plain shell's environment with temporary files of its
 * own. That folder is short and fresh, and removed when the build ends: tsx opens a Unix socket in it,
 * whose path must fit in 108 bytes (unix(7)), which a folder inside a deep copy of the project may not.
 */
export function buildProject(
  dir: string,
  { quiet = false, env = {} }: { quiet?: boolean; env?: Record<string, string> } = {},
): Promise<ChildRun> {
  const temp = mkdtempSync(path.join(tmpdir(), 'build-'));
  const childEnv = plainEnv({ TMPDIR: temp, TMP: temp, TEMP: temp, ...env });
  const options = { cwd: dir, env: childEnv, timeoutMs: BUILD_TIMEOUT_MS };
  const run = quiet
    ? runChild(process.execPath, [TSX_CLI, 'scripts/quiet-build.ts'], options)
    : runChild(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], options);
  return run.finally(() => rmSync(temp, { recursive: true, force: true }));
}

export interface TsxRun extends ChildRun {
  /** The cdk.out the run was given (CDK_OUTDIR), fresh for each run. */
  out: string;
}

export const TSX_RUN_TIMEOUT_MS = 240_000;

/**
 * Runs one of the project's TypeScript entry points the way `npm run …` does, for the tests that check
 * what a command prints and returns.
 */
export async function runTsx(script: string, env: Record<string, string> = {}): Promise<TsxRun> {
  const out = scratchDir('cdk-out-');
  // One node process with tsx's loader (the tsx CLI would add a second, watching the first).
  const run = await runChild(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, script)], {
    cwd: REPO_ROOT,
    env: { ...process.env, CDK_OUTDIR: out, ...env },
    timeoutMs: TSX_RUN_TIMEOUT_MS,
  });
  return { ...run, out };
}
