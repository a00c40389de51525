/** Helpers for the local stack's tests and benchmark: raw HTTP and a minimal fixture build. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { POSTBUILD_REPORT_FILE, SPA_FALLBACK_FILE } from '../shared/build-output';

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  ms: number;
}

/** One HTTP request with nothing normalized (fetch would refuse some methods and headers). */
export function send(
  baseUrl: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number },
): Promise<RawReply> {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path: options.path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - started }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 20_000, () => req.destroy(new Error(`no answer within ${options.timeoutMs ?? 20_000} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A build directory with only the fallback page: enough for API tests that must not depend on web/build. */
export function fixtureBuild(): { buildDir: string; clientDir: string } {
  const buildDir = mkdtempSync(path.join(os.tmpdir(), 'local-stack-'));
  const clientDir = path.join(buildDir, 'client');
  mkdirSync(clientDir);
  writeFileSync(path.join(clientDir, SPA_FALLBACK_FILE), '<!DOCTYPE html><title>Fallback</title><h1>Not found</h1>');
  writeFileSync(path.join(clientDir, 'ok.txt'), 'ok');
  writeFileSync(path.join(buildDir, POSTBUILD_REPORT_FILE), JSON.stringify({ inlineScriptHashes: [] }));
  return { buildDir, clientDir };
}

export async function clearMailbox(sesUrl: string): Promise<void> {
  const response = await fetch(`${sesUrl}/clear-store`, { method: 'POST' });
  if (!response.ok) throw new Error(`clearing the mailbox answered ${response.status}`);
}
