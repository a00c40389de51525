/**
 * A pull request's preview in Chromium, as the preview distribution serves it: the fixture posts' build
 * (tools/project-copy.ts sharedBuild) under pr-7/abc1234/ of a directory shaped like the preview bucket,
 * behind a stand-in for the distribution that runs its viewer-request function (the code CloudFront runs,
 * infra/lib/preview-site.ts) and answers a missing key with 403, as S3 does to a reader without
 * ListBucket. A reviewer opens the comment's address, then clicks through home, a project and a post,
 * each answered from the preview's own files; an unknown path gets no page of the live site.
 */
import { createReadStream, existsSync, mkdirSync, mkdtempSync, statSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCfResponse, loadViewerRequestHandler, type CfValues } from '../infra/cloudfront/viewer-request-loader';
import { previewViewerRequestCode } from '../infra/lib/preview-site';
import { POST_FIXTURE, sharedBuild } from '../tools/project-copy';
import { waitForHydration } from './support/browser';
import { FIXTURE_POST } from './support/post-site';
import { useBrowserSessions } from './support/sessions';

const PREVIEW = 'pr-7/abc1234';
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.xml': 'application/xml', '.txt': 'text/plain', '.woff2': 'font/woff2', '.webp': 'image/webp', '.png': 'image/png', '.svg': 'image/svg+xml' };

let server: Server | undefined;
let origin = '';
const fetched: string[] = [];
/** The keys the stand-in answered 403 for (missing). */
const refused: string[] = [];

/** The distribution: the preview function on each request, then the bucket's object (or S3's 403). */
function startDistribution(bucket: string): Promise<string> {
  const handler = loadViewerRequestHandler(previewViewerRequestCode());
  server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://preview');
      const cookies: CfValues = {};
      for (const part of (req.headers.cookie ?? '').split(';')) {
        const [name, ...value] = part.trim().split('=');
        if (name) cookies[name] = { value: value.join('=') };
      }
      const querystring: CfValues = Object.fromEntries([...url.searchParams].map(([k, v]) => [k, { value: v }]));
      const result = await handler({
        version: '1.0',
        context: { distributionDomainName: 'preview', distributionId: 'E2', eventType: 'viewer-request', requestId: 'r' },
        viewer: { ip: '127.0.0.1' },
        request: { method: req.method ?? 'GET', uri: url.pathname, querystring, headers: {}, cookies },
      });
      if (isCfResponse(result)) {
        const headers: Record<string, string | string[]> = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, v.value]));
        const setCookie = Object.entries(result.cookies ?? {}).map(([k, v]) => `${k}=${v.value}; ${(v as { attributes?: string }).attributes ?? ''}`.replace(/Secure; /, ''));
        if (setCookie.length > 0) headers['set-cookie'] = setCookie;
        res.writeHead(result.statusCode, headers);
        return res.end(typeof result.body === 'string' ? result.body : (result.body?.data ?? ''));
      }
      const file = path.join(bucket, decodeURIComponent(result.uri));
      fetched.push(result.uri);
      if (!file.startsWith(bucket + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
        refused.push(`${req.method} ${result.uri}`);
        res.writeHead(403, { 'content-type': 'application/xml' });
        return res.end('<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'x-robots-tag': 'noindex, nofollow' });
      createReadStream(file).pipe(res);
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  server.listen(0, '127.0.0.1');
  return new Promise((resolve) => server!.once('listening', () => resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  const built = await sharedBuild(POST_FIXTURE);
  if (built.code !== 0) throw new Error(`The build with the fixture posts failed:\n${built.output}`);
  const bucket = mkdtempSync(path.join(tmpdir(), 'preview-bucket-'));
  mkdirSync(path.join(bucket, 'pr-7'));
  symlinkSync(path.join(built.dir, 'web/build/client'), path.join(bucket, PREVIEW));
  origin = await startDistribution(bucket);
}, 900_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

const sessions = useBrowserSessions();

async function clickTo(page: Page, link: string, path: RegExp): Promise<void> {
  await page.locator(`${link}:visible`).first().click();
  await page.waitForURL(path);
  await waitForHydration(page);
}

describe("a pull request's preview", () => {
  it("opens from the comment's address and clicks through home, a project and a post, all from its own files", async () => {
    const { page, allowConsoleError } = await sessions.open();
    // The page-view and click beacons (POST /api/…) find no API on a preview (the distribution allows
    // only GET and HEAD), which the browser reports; nothing else may fail.
    allowConsoleError(/status of 403/);
    const response = await page.goto(`${origin}/${PREVIEW}/`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/home');
    await waitForHydration(page);
    await clickTo(page, 'a[href="/projects"]', /\/projects$/);
    await clickTo(page, 'a[href^="/projects/"]', /\/projects\/\d+$/);
    await clickTo(page, 'a[href="/blogs"]', /\/blogs$/);
    await clickTo(page, `a[href="${FIXTURE_POST.path}"]`, new RegExp(`${FIXTURE_POST.path}$`));
    expect(await page.locator('h1').first().innerText()).toContain(FIXTURE_POST.title);
    await clickTo(page, 'a[href="/home"]', /\/home$/);
    // Every file the pages loaded came from the preview's own prefix.
    expect(fetched.length).toBeGreaterThan(5);
    expect(fetched.filter((uri) => !uri.startsWith(`/${PREVIEW}/`))).toEqual([]);
    expect(refused.filter((request) => !request.startsWith(`POST /${PREVIEW}/api/`))).toEqual([]);
  });

  it('an unknown path answers an error, no page of the live site; without the cookie nothing is served', async () => {
    const { page, allowConsoleError } = await sessions.open();
    allowConsoleError(/status of 403/);
    await page.goto(`${origin}/${PREVIEW}/home`, { waitUntil: 'load' });
    const missing = await page.goto(`${origin}/no-such-page`, { waitUntil: 'load' });
    expect(missing?.status()).toBeGreaterThanOrEqual(400);
    const stranger = await fetch(`${origin}/home`);
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).toMatch(/open the address in the pull request's preview comment/);
  });
});
