/**
 * Runs one of the project's TypeScript entry points the way `npm run …` does, for the tests that check
 * what a command prints and returns. Asynchronous on purpose: a spawnSync would freeze the test
 * worker for the whole child run, and under a full CI load (browsers on both cores) a cold start of
 * aws-cdk-lib has taken minutes, so the time limit is generous and a timeout says so plainly.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface TsxRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The cdk.out the run was given (CDK_OUTDIR), fresh for each run. */
  out: string;
}

export const TSX_RUN_TIMEOUT_MS = 240_000;

export function runTsx(script: string, env: Record<string, string> = {}): Promise<TsxRun> {
  const out = mkdtempSync(path.join(tmpdir(), 'cdk-out-'));
  // One node process with tsx's loader (the tsx CLI would add a second, watching the first).
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, script)],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: TSX_RUN_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, CDK_OUTDIR: out, ...env } },
      (error, stdout, stderr) => {
        if (error?.killed) stderr += `\n[runTsx] ${script} was stopped after ${TSX_RUN_TIMEOUT_MS / 1000} s`;
        const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ status, stdout, stderr, out });
      },
    );
  });
}
