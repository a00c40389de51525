/** Helpers for the local stack's tests and benchmark: raw HTTP and a minimal fixture build. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { POSTBUILD_REPORT_FILE, SPA_FALLBACK_FILE } from '../shared/build-output';
import { scratchDir } from '../../tools/scratch';

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One HTTP request with nothing normalized or decoded (fetch would clean the path and unpack bodies). */
export function send(
  baseUrl: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawReply> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: options.path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(20_000, () => req.destroy(new Error('no answer within 20 s')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * A build with the given client files (default: only the fallback page), for tests that must not depend on
 * web/build. It goes when the test file ends; a benchmark, which runs outside Vitest, removes it itself.
 */
export function fixtureBuild(files: Record<string, string | Buffer> = {}): { buildDir: string; clientDir: string } {
  const buildDir = scratchDir('local-stack-');
  const clientDir = path.join(buildDir, 'client');
  const all = { [SPA_FALLBACK_FILE]: '<!DOCTYPE html><title>Fallback</title><h1>Not found</h1>', 'ok.txt': 'ok', ...files };
  for (const [name, content] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(clientDir, name)), { recursive: true });
    writeFileSync(path.join(clientDir, name), content);
  }
  writeFileSync(path.join(buildDir, POSTBUILD_REPORT_FILE), JSON.stringify({ inlineScriptHashes: [] }));
  return { buildDir, clientDir };
}
