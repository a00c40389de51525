/**
 * A pull request's preview in Chromium, as the preview distribution serves it: the fixture posts' build
 * (tools/locale-copy.ts fixtureSiteBuild) under pr-7/abc1234/ of a directory shaped like the preview bucket,
 * behind infra/local/preview-cdn.ts, which runs the distribution's viewer-request function (the code
 * CloudFront runs) and answers a missing key with 403, as S3 does to a reader without ListBucket. A reviewer opens the comment's address, then clicks through home, a project and a post,
 * each answered from the preview's own files; an unknown path gets no page of the live site.
 */
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PreviewCdn, startPreviewCdn } from '../infra/local/preview-cdn';
import { fixtureSiteBuild } from '../tools/locale-copy';
import { waitForHydration } from './support/browser';
import { FIXTURE_POST } from './support/post-site';
import { useBrowserSessions } from './support/sessions';

const PREVIEW = 'pr-7/abc1234';

let cdn: PreviewCdn | undefined;

beforeAll(async () => {
  const built = await fixtureSiteBuild();
  const bucket = mkdtempSync(path.join(tmpdir(), 'preview-bucket-'));
  mkdirSync(path.join(bucket, 'pr-7'));
  symlinkSync(path.join(built.dir, 'web/build/client'), path.join(bucket, PREVIEW));
  cdn = await startPreviewCdn(bucket);
}, 900_000);

afterAll(async () => {
  await cdn?.stop();
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
    const response = await page.goto(`${cdn!.origin}/${PREVIEW}/`, { waitUntil: 'load' });
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
    expect(cdn!.fetched.length).toBeGreaterThan(5);
    expect(cdn!.fetched.filter((request) => !request.includes(` /${PREVIEW}/`))).toEqual([]);
    expect(cdn!.refused.filter((request) => !request.startsWith(`POST /${PREVIEW}/api/`))).toEqual([]);
  });

  it('an unknown path answers an error, no page of the live site; without the cookie nothing is served', async () => {
    const { page, allowConsoleError } = await sessions.open();
    allowConsoleError(/status of 403/);
    await page.goto(`${cdn!.origin}/${PREVIEW}/home`, { waitUntil: 'load' });
    const missing = await page.goto(`${cdn!.origin}/no-such-page`, { waitUntil: 'load' });
    expect(missing?.status()).toBeGreaterThanOrEqual(400);
    const stranger = await fetch(`${cdn!.origin}/home`);
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).toMatch(/open the address in the pull request's preview comment/);
  });
});
