import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimDataDir, processAlive, readRunningStack, runningFileFor } from './running-stack';
import { scratchDir } from '../../tools/scratch';

const root = scratchDir('running-stack-');
let n = 0;
const dataDir = () => path.join(root, `data-${++n}`, 'archive');

/** A process that lives until killed: a stack that holds a folder. */
function otherProcess() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  return { pid: child.pid!, stop: async () => (child.kill('SIGKILL'), await once(child, 'exit')) };
}

describe('the running stack file', () => {
  it('lives beside the data folder: .local/archive → .local/archive.running.json', () => {
    expect(runningFileFor('/repo/.local/archive')).toBe('/repo/.local/archive.running.json');
  });

  it('is written on claim with the archive address, read back, and removed on release', () => {
    const dir = dataDir();
    const claim = claimDataDir(dir);
    claim.record({ archive: 'http://127.0.0.1:18006' });
    expect(readRunningStack(dir)).toMatchObject({ pid: process.pid, archive: 'http://127.0.0.1:18006', dataDir: path.resolve(dir) });
    claim.release();
    expect(existsSync(runningFileFor(dir))).toBe(false);
    expect(readRunningStack(dir)).toBeUndefined();
  });

  it('refuses a second stack on the same folder with one line naming the other process', async () => {
    const dir = dataDir();
    const other = otherProcess();
    try {
      claimDataDir(dir, other.pid).record({ archive: 'http://127.0.0.1:18006' });
      let message = '';
      try {
        claimDataDir(dir);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(
        new RegExp(
          `^The archive folder .*archive is in use by another local stack \\(process ${other.pid}, .*\\): stop it first, or set ARCHIVE_DIR to another folder\\.$`,
        ),
      );
      expect(message).not.toContain('\n');
      // The holder's file is left as it was.
      expect(JSON.parse(readFileSync(runningFileFor(dir), 'utf8')).pid).toBe(other.pid);
    } finally {
      await other.stop();
    }
  });

  it('replaces a file left by a stack that is gone (killed), and a file cut short', async () => {
    const dir = dataDir();
    const gone = otherProcess();
    await gone.stop();
    expect(processAlive(gone.pid)).toBe(false);
    claimDataDir(dir, gone.pid).record({ archive: 'http://127.0.0.1:1' });
    expect(readRunningStack(dir)).toBeUndefined(); // its process is gone: messages does not use it
    const claim = claimDataDir(dir);
    expect(readRunningStack(dir)?.pid).toBe(process.pid);
    claim.release();
    writeFileSync(runningFileFor(dir), '{"pid":');
    claimDataDir(dir).release();
    expect(existsSync(runningFileFor(dir))).toBe(false);
  });

  it('release leaves a file another process has taken since', async () => {
    const dir = dataDir();
    const claim = claimDataDir(dir);
    const other = otherProcess();
    try {
      writeFileSync(runningFileFor(dir), JSON.stringify({ pid: other.pid, dataDir: dir, command: 'x', startedAt: '' }));
      claim.release();
      expect(readRunningStack(dir)?.pid).toBe(other.pid);
    } finally {
      await other.stop();
    }
  });
});
