/**
 * On-site posts in Chromium: the fixture posts (web/test/fixtures/posts) built in a copy of the project
 * (the shipped site has none) and served by the local stack. A card on /blogs opens its post in the
 * same tab, with the post's text read from its prerendered page (the text is in no script), and Back
 * returns to /blogs; a post opened directly keeps its text through hydration; axe finds nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, POST_FIXTURE, REPO } from '../tools/project-copy';
import { axeViolations } from './support/axe';
import { waitForHydration } from './support/browser';
import { useBrowserSessions } from './support/sessions';

const project = copyProject('posts-e2e-', POST_FIXTURE);
let stack: ChildProcess | undefined;
let origin = '';

beforeAll(async () => {
  const built = await project.build();
  expect(built.code, built.output).toBe(0);
  stack = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'e2e/support/local-stack-process.ts')], {
    env: { ...process.env, E2E_CLIENT_DIR: path.join(project.dir, 'web/build/client') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: stack.stdout! })) {
    origin = (JSON.parse(line) as { url: string }).url.replace(/\/+$/, '');
    stack.stdout!.resume();
    break;
  }
  expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
}, 600_000);

afterAll(async () => {
  if (stack && stack.exitCode === null) {
    stack.kill('SIGTERM');
    await once(stack, 'exit');
  }
  project.remove();
});

const sessions = useBrowserSessions();

async function open(path: string): Promise<Page> {
  const { page } = await sessions.open();
  await page.goto(`${origin}${path}`, { waitUntil: 'load' });
  await waitForHydration(page);
  return page;
}

const bodyText = (page: Page) => page.locator('[data-post-body]').innerText();

describe('on-site posts', () => {
  it('card → post in the same tab (its text fetched from its page) → Back to /blogs', async () => {
    const page = await open('/blogs');
    const pagesBefore = page.context().pages().length;
    await page.getByRole('link', { name: /Writing on the Site Itself/ }).click();
    await page.waitForURL(`${origin}/blogs/every-feature`);
    await expect.poll(() => bodyText(page)).toContain('FIXTUREMARKER-PROSE');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Writing on the Site Itself');
    expect(await page.locator('pre.shiki span').count()).toBeGreaterThan(3);
    expect(page.context().pages().length).toBe(pagesBefore);
    await page.goBack();
    await page.waitForURL(`${origin}/blogs`);
    expect(await page.getByRole('heading', { level: 1 }).isVisible()).toBe(true);
  });

  it('keeps the text of a post opened directly through hydration, and axe finds nothing in either theme', async () => {
    const page = await open('/es/blogs/every-feature');
    expect(await bodyText(page)).toContain('Cada palabra de este artículo');
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page)).toEqual([]);
    // The code takes its dark theme's colours (github-dark's keyword #F97583; github-light's is #D73A49).
    const keyword = () => page.evaluate(() => getComputedStyle(document.querySelector('pre.shiki .line span')!).color);
    expect(await keyword()).toBe('rgb(249, 117, 131)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await keyword()).toBe('rgb(215, 58, 73)');
  });
});
