/**
 * `npm run dev` (infra/local/dev.ts) as a user runs it: it prints the dev server's and the mailbox's
 * addresses, serves the app with hot reload, sends /api/* to the local API, and stops on Ctrl-C.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../../tools/scratch';

const DEV = path.join(path.dirname(fileURLToPath(import.meta.url)), 'dev.ts');
/** Vite optimizes the app's dependencies on its first start: slow on a busy machine. */
const START_MS = 120_000;

async function waitFor(read: () => string, pattern: RegExp, ms: number): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    // Vite colours its banner when the environment forces colour (CI does), which splits "Local:" from its URL.
    const match = pattern.exec(stripVTControlCharacters(read()));
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`no ${pattern} in output:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('npm run dev (infra/local/dev.ts)', () => {
  it('serves the app and the API through one origin, then stops on Ctrl-C (SIGINT)', { timeout: START_MS + 60_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', DEV], {
      // Free ports and a throwaway archive, so other tests (and a running `npm start`) never collide with it.
      env: {
        ...process.env,
        PORT: '0',
        SES_PORT: '0',
        ARCHIVE_PORT: '0',
        ARCHIVE_DIR: scratchDir('dev-archive-'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const site = (await waitFor(() => output, /Local:\s+(http:\/\/127\.0\.0\.1:\d+)\//, START_MS))[1]!;
      const mailbox = (await waitFor(() => output, /Mailbox:\s+(http:\/\/127\.0\.0\.1:\d+)/, 10_000))[1]!;

      const page = await fetch(`${site}/home`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<html[\s>]/);
      // The same event handler npm start serves, reached through Vite's proxy.
      const event = await fetch(`${site}/api/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'DEV_CHECK' }),
      });
      expect(event.status).toBe(204);
      const refused = await fetch(`${site}/api/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"not valid"}',
      });
      expect(refused.status).toBe(400);
      expect(await (await fetch(`${mailbox}/store`)).json()).toEqual({ templates: {}, emails: [] });

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      await expect(fetch(`${site}/home`)).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
    }
  });
});
