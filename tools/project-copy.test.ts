import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedFolder } from './project-copy';
import { scratchDir } from './scratch';

const parent = scratchDir('shared-folder-');

/** A `make` that takes a moment, counts its calls and writes one file. */
function counted(result = { code: 0, output: 'made' }) {
  const calls: string[] = [];
  const make = async (dir: string) => {
    calls.push(dir);
    expect(readdirSync(dir)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    writeFileSync(path.join(dir, 'out.txt'), 'built');
    return result;
  };
  return { calls, make };
}

describe('sharedFolder (the fixture build made once for every test that reads it)', () => {
  it('makes the folder once for callers asking at the same time, and not again after', async () => {
    const { calls, make } = counted();
    const results = await Promise.all([sharedFolder(parent, 'a', make), sharedFolder(parent, 'a', make), sharedFolder(parent, 'a', make)]);
    expect(calls).toHaveLength(1);
    expect(results.map((r) => [r.dir, r.code])).toEqual(results.map(() => [path.join(parent, 'a'), 0]));
    expect(readFileSync(path.join(parent, 'a', 'out.txt'), 'utf8')).toBe('built');
    expect(await sharedFolder(parent, 'a', make)).toMatchObject({ dir: path.join(parent, 'a'), code: 0 });
    expect(calls).toHaveLength(1);
    // Nothing else is left beside it: no lock, no half-made folder.
    expect(readdirSync(parent).filter((name) => name.startsWith('a'))).toEqual(['a']);
  });

  it('leaves nothing when making fails, so the next call tries again', async () => {
    const failing = counted({ code: 2, output: 'the build failed' });
    expect(await sharedFolder(parent, 'b', failing.make)).toEqual({ dir: '', code: 2, output: 'the build failed' });
    expect(readdirSync(parent).filter((name) => name.startsWith('b'))).toEqual([]);
    const thrown = await sharedFolder(parent, 'b', () => Promise.reject(new Error('no npm')));
    expect(thrown).toMatchObject({ dir: '', code: 1, output: 'Error: no npm' });
    const working = counted();
    expect(await sharedFolder(parent, 'b', working.make)).toMatchObject({ dir: path.join(parent, 'b'), code: 0 });
  });

  it('takes over the lock of a process that is gone, and waits for one that is alive', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    mkdirSync(path.join(parent, 'c.lock'));
    writeFileSync(path.join(parent, 'c.lock', 'pid'), String(gone));
    expect(await sharedFolder(parent, 'c', counted().make)).toMatchObject({ dir: path.join(parent, 'c'), code: 0 });

    mkdirSync(path.join(parent, 'd.lock'));
    writeFileSync(path.join(parent, 'd.lock', 'pid'), String(process.pid));
    const waited = await sharedFolder(parent, 'd', counted().make, 600);
    expect(waited.code).toBe(1);
    expect(waited.output).toContain('Waited 1 s for another process');
    expect(existsSync(path.join(parent, 'd'))).toBe(false);
  });
});
