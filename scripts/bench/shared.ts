/**
 * What the benchmark scripts share: serving beside what they measure, starting Chromium, posting to the
 * local stack, counting answers, saving figures, exiting.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Agent, createServer, request, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHROMIUM_ARGS, chromiumPath } from '../../tools/chromium';

/** A server beside what is measured, on loopback on a free port; `origin` is http://127.0.0.1:PORT, without a trailing slash. */
export async function serveOnLoopback(handler: RequestListener): Promise<{ origin: string; stop(): Promise<void> }> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Starts headless Chromium (a profile of its own) with `args`; resolves once its stderr matches `ready`,
 * with the match. Rejects with `notReady` and the log's end when nothing matches within 20 s.
 */
export async function spawnChromium(
  args: string[],
  ready: RegExp,
  notReady: string,
): Promise<{ match: RegExpExecArray; stop(): Promise<void> }> {
  const executable = chromiumPath();
  const profile = mkdtempSync(path.join(tmpdir(), 'bench-chromium-'));
  const child = spawn(executable, [...CHROMIUM_ARGS, '--headless=new', `--user-data-dir=${profile}`, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stop = async () => {
    // Not when it never started (no pid) or has ended: no exit event would come.
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const match = await new Promise<RegExpExecArray>((resolve, reject) => {
      let log = '';
      const timer = setTimeout(() => reject(new Error(`${notReady}:\n${log.slice(-2000)}`)), 20_000);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`Cannot start Chromium at ${executable} (set CHROMIUM_PATH): ${error.message}`));
      });
      child.stderr.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const found = ready.exec(log);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      });
    });
    return { match, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * POSTs one JSON body to `route` on the server at `url`; resolves with the status. `localAddress` sends it
 * from that loopback address (the local stack tells viewers apart by the socket's), `agent` reuses
 * connections; without either, each request has a connection of its own.
 */
export function postJson(url: URL, route: string, body: string, via: { localAddress?: string; agent?: Agent } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: route, method: 'POST', ...via, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The answers' statuses counted, by status: "200×3 429×1,200". */
export function statusCounts(statuses: Iterable<number>): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([code, n]) => `${code}×${n.toLocaleString('en-US')}`)
    .join(' ');
}

/** Writes `figures` as JSON to .bench/NAME (under the working directory), for a later run to compare with. */
export function saveFigures(name: string, figures: unknown): void {
  mkdirSync('.bench', { recursive: true });
  writeFileSync(path.join('.bench', name), `${JSON.stringify(figures, null, 2)}\n`);
}

/**
 * Runs a benchmark's main and exits with its code (0 when it returns none): 1 when it throws, printed with
 * `label` and the message when given, else in full.
 */
export function runMain(main: () => Promise<number | void>, label?: string): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (error: unknown) => {
      console.error(label ? `${label}: ${error instanceof Error ? error.message : String(error)}` : error);
      process.exit(1);
    },
  );
}
