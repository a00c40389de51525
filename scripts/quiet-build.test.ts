import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { BUILD_LOG, lastLines, runLogged } from './quiet-build';

const dir = mkdtempSync(path.join(os.tmpdir(), 'quiet-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runLogged', () => {
  it('writes both output streams to the log, not the screen, and passes the exit code on', async () => {
    const log = path.join(dir, 'fails.log');
    const code = await runLogged(process.execPath, ['-e', 'console.log("bundled"); console.error("broken"); process.exit(3)'], log);
    expect(code).toBe(3);
    expect(readFileSync(log, 'utf8')).toMatch(/bundled[\s\S]*broken|broken[\s\S]*bundled/);
  });

  it('resolves 0 for a command that succeeds', async () => {
    expect(await runLogged(process.execPath, ['-e', 'console.log("ok")'], path.join(dir, 'ok.log'))).toBe(0);
  });

  it('rejects when the command cannot be started', async () => {
    await expect(runLogged(path.join(dir, 'no-such-command'), [], path.join(dir, 'none.log'))).rejects.toThrow(/ENOENT/);
  });
});

describe('BUILD_LOG', () => {
  it('is in this checkout, where git ignores it (not one file in /tmp shared by every checkout)', () => {
    const root = path.resolve(import.meta.dirname, '..');
    expect(path.relative(root, BUILD_LOG)).toBe(path.join('.local', 'build.log'));
    expect(execFileSync('git', ['check-ignore', '-q', BUILD_LOG], { cwd: root, stdio: 'pipe' }).length).toBe(0); // throws when not ignored
  });

  it('creates its folder when missing', async () => {
    const log = path.join(dir, 'new', 'folder', 'build.log');
    expect(await runLogged(process.execPath, ['-e', 'console.log("ok")'], log)).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('ok\n');
  });
});

describe('lastLines', () => {
  it('keeps the end of the log', () => {
    expect(lastLines('a\nb\nc\nd\n', 2)).toBe('c\nd');
    expect(lastLines('only', 5)).toBe('only');
  });
});
