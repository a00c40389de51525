/**
 * `npm run dev` with posts: a copy of the project with the fixture posts (web/test/fixtures/posts) under
 * Vite's dev server, as `npm run dev` starts it (the project's vite.config.ts; infra/local/dev.ts adds only
 * the /api proxy). A draft shows there (a build never has it: scripts/posts-build.test.ts), a post's
 * images are made and served as a build makes them, and so is its preview card.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, POST_FIXTURE } from '../tools/project-copy';

const project = copyProject('posts-dev-', POST_FIXTURE);
let server: ChildProcess | undefined;
let origin = '';

// The copy's node_modules is a link to the project's: Vite keeps its cache in the copy (the owner's own
// dev server uses node_modules/.vite) and may read the linked folder (React Router's default entries).
const START = `
import { realpathSync } from 'node:fs';
import { createServer } from 'vite';
const server = await createServer({ root: process.cwd(), configFile: 'vite.config.ts', cacheDir: '.vite-cache', logLevel: 'error',
  server: { host: '127.0.0.1', port: 0, fs: { allow: [process.cwd(), realpathSync('node_modules')] } } });
await server.listen();
console.log(JSON.stringify({ url: server.resolvedUrls.local[0] }));
`;

beforeAll(async () => {
  server = spawn(process.execPath, ['--input-type=module', '--eval', START], { cwd: project.dir, stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: server.stdout! })) {
    if (!line.startsWith('{')) continue;
    origin = (JSON.parse(line) as { url: string }).url.replace(/\/+$/, '');
    server.stdout!.resume();
    break;
  }
  expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
}, 60_000);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  project.remove();
});

async function get(pathname: string): Promise<{ status: number; type: string; body: Buffer }> {
  const response = await fetch(`${origin}${pathname}`);
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: Buffer.from(await response.arrayBuffer()) };
}

describe('npm run dev with posts', () => {
  it('lists a draft on /blogs and shows its page', async () => {
    const blogs = (await get('/blogs')).body.toString('utf8');
    expect(blogs).toContain('href="/blogs/work-in-progress"');
    expect(blogs).toContain('Not Ready Yet');
    const draft = await get('/blogs/work-in-progress');
    expect(draft.status).toBe(200);
    expect(draft.body.toString('utf8')).toContain('Half written.');
  }, 60_000);

  it("serves a post's images as a build does: a <picture> of AVIF and WebP files at its widths", async () => {
    const page = (await get('/blogs/every-feature')).body.toString('utf8');
    expect(page).not.toContain('post-image:');
    expect(page).toMatch(
      /<img src="\/assets\/posts\/diagram-[\w-]+-1200\.webp" alt="A gradient standing in for a diagram" width="1200" height="600" loading="lazy" decoding="async"\/>/,
    );
    // (The dev server's page carries the post's HTML twice: in the page and in its loader data.)
    const sources = new Map(
      [...page.matchAll(/(\/assets\/posts\/[\w-]+-(\d+)\.(avif|webp)) \d+w/g)].map(([, src, width, format]) => [
        src!,
        { width: Number(width), format: format! },
      ]),
    );
    expect(sources.size).toBe(6);
    for (const [src, { width, format }] of sources) {
      const file = await get(src!);
      expect(file.status, src).toBe(200);
      expect(file.type, src).toBe(`image/${format}`);
      const meta = await sharp(file.body).metadata();
      expect(meta.width, src).toBe(width);
      expect(meta.format, src).toBe(format === 'avif' ? 'heif' : 'webp');
    }
    // Only the files made are served from there (anything else falls through to the dev server's pages).
    expect((await get('/assets/posts/not-made-480.webp')).type).not.toMatch(/^image\//);
  }, 60_000);

  it("draws a post's link-preview card from the same route a build prerenders", async () => {
    const card = await get('/og/blogs-every-feature.png');
    expect(card.status).toBe(200);
    expect(card.type).toBe('image/png');
    expect(await sharp(card.body).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
  }, 60_000);
});
