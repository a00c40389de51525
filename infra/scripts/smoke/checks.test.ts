/**
 * The smoke check against the real local stack (`npm start`'s server on the production build: all
 * green) and against a deliberately broken server (a plain static server of the same build: no
 * headers, no API, 200 for unknown paths), where each failure must be reported. Needs a build
 * (`npm run build:test`; `npm test` builds first).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPA_FALLBACK_FILE, WEB_CLIENT_DIR } from '../../shared/build-output';
import { startLocalStack, type LocalStack } from '../../local/stack';
import type { CheckResult } from '../report';
import { runSmoke } from './checks';
import { smokeExitCode } from './run';

if (!existsSync(path.join(WEB_CLIENT_DIR, 'home', 'index.html'))) {
  throw new Error(`No production build at ${WEB_CLIENT_DIR}: run \`npm run build:test\` first (\`npm test\` does).`);
}

/** A static file server with none of the CDN's behaviour: every unknown path gets the fallback page with 200. */
function startPlainStaticServer(): Promise<{ url: string; server: Server }> {
  const isFile = (file: string) => file.startsWith(WEB_CLIENT_DIR) && existsSync(file) && statSync(file).isFile();
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = [pathname, path.join(pathname, 'index.html')].map((p) => path.join(WEB_CLIENT_DIR, path.normalize(p))).find(isFile);
    res.writeHead(200, { 'Content-Type': file?.endsWith('.xml') ? 'application/xml' : 'text/html' });
    res.end(readFileSync(file ?? path.join(WEB_CLIENT_DIR, SPA_FALLBACK_FILE)));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })),
  );
}

const byCheck = (results: CheckResult[], check: string) => {
  const found = results.filter((r) => r.check === check);
  if (found.length === 0) throw new Error(`no "${check}" row in ${results.map((r) => r.check).join(', ')}`);
  return found;
};

describe('npm run smoke against the local stack', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack({ port: 0, sesPort: 0, quiet: true });
  });
  afterAll(() => stack?.stop());

  it('passes every check, covering the fixed routes and every sitemap path, and mails nothing', async () => {
    const results = await runSmoke(stack.url);
    expect(results.filter((r) => r.status !== 'pass')).toEqual([]);
    const checks = results.map((r) => r.check);
    for (const route of [
      '/',
      '/home',
      '/projects',
      '/blogs',
      '/contact',
      '/about',
      '/privacy-policy',
      '/error',
      '/projects/1',
      '/projects/5',
    ]) {
      expect(checks).toContain(`GET ${route}`);
    }
    expect(byCheck(results, 'GET /home')[0]!.detail).toMatch(/inline scripts admitted by CSP hash/);
    expect(byCheck(results, 'POST /api/contact')[0]!.detail).toMatch(/^malformed body → 400/);
    const store = (await (await fetch(`${stack.sesUrl}/store`)).json()) as { emails: unknown[] };
    expect(store.emails).toEqual([]);
  });

  it('prints the table and exits 0', async () => {
    let output = '';
    expect(await smokeExitCode(`${stack.url}/`, (text) => (output = text))).toBe(0);
    expect(output).toMatch(/^npm run smoke: http:\/\/127\.0\.0\.1:\d+ \(read-only; sends one SMOKE_CHECK click event\)/);
    expect(output).toMatch(/All \d+ checks passed\.$/);
  });
});

describe('npm run smoke against a broken server (plain static files)', () => {
  let broken: { url: string; server: Server };
  beforeAll(async () => {
    broken = await startPlainStaticServer();
  });
  afterAll(() => new Promise<void>((resolve) => broken.server.close(() => resolve())));

  it('reports each failure and exits 1', async () => {
    const results = await runSmoke(broken.url);
    const failed = (check: string) => byCheck(results, check).every((r) => r.status === 'fail');
    // The pages themselves are there …
    expect(byCheck(results, 'sitemap.xml')[0]!.status).toBe('pass');
    // … but nothing admits their inline scripts,
    expect(byCheck(results, 'GET /home')[0]!.detail).toMatch(/no CSP header \(\d+ inline scripts unguarded\)/);
    // unknown paths answer 200,
    expect(byCheck(results, 'Unknown path')[0]!.detail).toMatch(/status 200, expected 404/);
    // there are no security headers, no third parties allowed, and no API.
    expect(byCheck(results, 'Security headers')[0]!.detail).toMatch(/no Content-Security-Policy/);
    expect(failed('CSP captcha script')).toBe(true);
    expect(failed('CSP analytics script')).toBe(true);
    expect(byCheck(results, 'POST /api/contact')[0]!.detail).toMatch(/→ 200 .*expected 4xx with JSON \{error\}/);
    expect(byCheck(results, 'POST /api/events')[0]!.detail).toMatch(/→ 200, expected 204/);
    let output = '';
    expect(await smokeExitCode(broken.url, (text) => (output = text))).toBe(1);
    expect(output).toMatch(/\d+ of \d+ checks failed\.$/);
  });
});
