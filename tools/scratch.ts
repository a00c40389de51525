/**
 * Temporary directories for tests and the helpers they call: made under the system's temporary folder
 * and removed when the test file that made them ends (tools/scratch-setup.ts, every Vitest project's
 * setup file), so a run of the tests leaves nothing behind there. A test that keeps one to look at
 * after a failure copies it out itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const made = new Set<string>();

/** A new empty directory whose name starts with `prefix` (e.g. `cdk-out-`), removed when the test file ends. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every directory scratchDir made so far (the files of one worker run one after another). */
export function removeScratchDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}
