/**
 * The one test that bundles for real: every handler through NodejsFunction with the local esbuild
 * (no Docker), checked in the staged asset as Lambda will receive it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config/portfolio-config';
import { API_ROUTES } from '../../contract/api-routes';
import { ARCHIVE_FUNCTIONS } from '../../contract/archive';
import { createPortfolioFunction, ESM_REQUIRE_BANNER, RouteFunctions } from './route-functions';
import type { Json } from './testing';
import { scratchDir } from '../../tools/scratch';

let outdir: string;
let functions: Json[];

beforeAll(() => {
  outdir = scratchDir('portfolio-bundling-');
  const app = new App({ outdir });
  const stack = new Stack(app, 'Bundling', { env: { account: '123456789012', region: 'eu-west-1' } });
  new RouteFunctions(stack, 'Functions', {
    projectRoot: REPO_ROOT,
    logRetention: logs.RetentionDays.ONE_MONTH,
    options: { contact: { memorySize: 256 }, events: { memorySize: 128 }, vitals: { memorySize: 128 } },
  });
  // The archive's scheduled and event-driven functions, made the same way.
  for (const spec of Object.values(ARCHIVE_FUNCTIONS)) {
    createPortfolioFunction(stack, spec.name, {
      projectRoot: REPO_ROOT,
      logRetention: logs.RetentionDays.ONE_MONTH,
      entry: spec.entry,
      description: `archive: ${spec.entry}`,
      roleDescription: spec.name,
      timeoutSeconds: spec.timeoutSeconds,
      serviceName: spec.name,
      memorySize: 128,
    });
  }
  const assembly = app.synth();
  const template = assembly.getStackByName('Bundling').template as { Resources: Record<string, Json> };
  functions = Object.values(template.Resources).filter((r) => r.Type === 'AWS::Lambda::Function');
}, 240_000);

/** The staged bundle of a function: cdk.out/asset.<hash>, the hash being the code's S3 key. */
function assetDir(fn: Json): string {
  const key = fn.Properties.Code.S3Key as string;
  return path.join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
}

describe('Lambda bundles', () => {
  it('are ESM with the createRequire banner, minified, with a source map, one per API route', () => {
    const routes = functions.filter((fn) => /^(POST|GET) \/api\//.test(fn.Properties.Description));
    expect(routes).toHaveLength(API_ROUTES.length);
    for (const fn of routes) {
      const dir = assetDir(fn);
      const code = readFileSync(path.join(dir, 'index.mjs'), 'utf8');
      expect(code.startsWith(ESM_REQUIRE_BANNER)).toBe(true);
      expect(code).toMatch(/export\s*\{[^}]*\bhandler\b/);
      // Minified: very long lines on average (the few breaks left sit inside template literals).
      expect(code.length / code.split('\n').length).toBeGreaterThan(2000);
      expect(code).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
      expect(existsSync(path.join(dir, 'index.mjs.map'))).toBe(true);
      expect(fn.Properties.Handler).toBe('index.handler');
    }
  });

  it('bundle the archive functions the same way: ESM with the banner, a handler export, a source map', () => {
    const archive = functions.filter((fn) => /^archive: /.test(fn.Properties.Description));
    expect(archive).toHaveLength(Object.keys(ARCHIVE_FUNCTIONS).length);
    for (const fn of archive) {
      const dir = assetDir(fn);
      const code = readFileSync(path.join(dir, 'index.mjs'), 'utf8');
      expect(code.startsWith(ESM_REQUIRE_BANNER)).toBe(true);
      expect(code).toMatch(/export\s*\{[^}]*\bhandler\b/);
      expect(existsSync(path.join(dir, 'index.mjs.map'))).toBe(true);
      expect(fn.Properties.Handler).toBe('index.handler');
    }
  });

  it('carry the SDK clients the contact handler uses, so the runtime’s copy does not matter', () => {
    const contact = functions.find((fn) => /api\/contact/.test(fn.Properties.Description))!;
    const code = readFileSync(path.join(assetDir(contact), 'index.mjs'), 'utf8');
    expect(code).toContain('SendEmail');
    expect(code).toContain('GetParameter');
    expect(Buffer.byteLength(code)).toBeLessThan(3 * 1024 * 1024);
  });
});
