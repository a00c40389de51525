import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lastLines, runLogged } from './quiet-build';

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

describe('lastLines', () => {
  it('keeps the end of the log', () => {
    expect(lastLines('a\nb\nc\nd\n', 2)).toBe('c\nd');
    expect(lastLines('only', 5)).toBe('only');
  });
});
