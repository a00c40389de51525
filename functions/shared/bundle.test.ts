/**
 * The handlers as Lambda runs them: bundled by esbuild to one minified ESM file each (with the
 * createRequire banner the CDK stack uses), then imported by plain Node and invoked. Catches
 * anything that works under tsx/vitest but not in a bundle (CommonJS-only dependencies, import-time
 * side effects, reading the environment at import).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiEvent, lambdaContext } from './test-support';
import { scratchDir } from '../../tools/scratch';

const outdir = scratchDir('portfolio-functions-');
afterEach(() => vi.restoreAllMocks());

type BundledHandler = (event: unknown, context: unknown) => Promise<{ statusCode: number; body?: string }>;

async function bundle(name: 'contact' | 'events'): Promise<{ handler: BundledHandler; bytes: number }> {
  const outfile = join(outdir, name, 'index.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, '..', name, 'handler.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    logLevel: 'silent',
    banner: { js: "import { createRequire } from 'module';const require = createRequire(import.meta.url);" },
  });
  const mod = (await import(pathToFileURL(outfile).href)) as { handler: BundledHandler };
  return { handler: mod.handler, bytes: statSync(outfile).size };
}

function quiet(): string[] {
  const out: string[] = [];
  const record = (chunk: string | Uint8Array): boolean => {
    out.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(record);
  vi.spyOn(process.stderr, 'write').mockImplementation(record);
  return out;
}

describe('bundled handlers', () => {
  it('events: bundles to ESM, imports without side effects, records a click', async () => {
    const { handler, bytes } = await bundle('events');
    // Most of it is the AWS SDK: Secrets Manager for the origin check (functions/shared/origin.ts) and
    // DynamoDB for the per-address count (functions/shared/beacon-limit.ts), as in the contact bundle.
    expect(bytes).toBeLessThan(1_200_000);
    const out = quiet();
    const result = await handler(
      apiEvent({ path: '/api/events', body: '{"name":"SIDEBAR_NAV_ABOUT"}', headers: { 'content-type': 'text/plain' } }),
      lambdaContext(),
    );
    vi.restoreAllMocks();
    expect(result.statusCode).toBe(204);
    expect(out.join('')).toContain('"EventName":"SIDEBAR_NAV_ABOUT"');
  });

  it('contact: bundles to ESM with the AWS SDK, imports without reading the environment, answers', async () => {
    const { handler } = await bundle('contact');
    const out = quiet();
    // No configuration in this process: the handler must still answer, 4xx for bad input.
    const result = await handler(apiEvent({ method: 'GET' }), lambdaContext());
    vi.restoreAllMocks();
    expect(result.statusCode).toBe(405);
    expect(out.join('')).toContain('misconfigured');
  });
});
