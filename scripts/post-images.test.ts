import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPostImages, MAX_IMAGE_SIDE } from './post-images';

const root = mkdtempSync(path.join(os.tmpdir(), 'post-images-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const MARK = (src: string, line = 7) => `<div data-post-body=""><p><img src="post-image:${src}" alt="A $& picture" data-post-image="web/content/posts/hello.md:${line}"></p></div>`;

async function site(name: string, html: string, image?: { file: string; width: number; height: number }) {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'web/content/posts'), { recursive: true });
  mkdirSync(path.join(dir, 'client/blogs/hello'), { recursive: true });
  writeFileSync(path.join(dir, 'client/blogs/hello/index.html'), html);
  if (image) {
    await sharp({ create: { width: image.width, height: image.height, channels: 3, background: '#3366aa' } })
      .png()
      .toFile(path.join(dir, 'web/content/posts', image.file));
  }
  return { client: path.join(dir, 'client'), root: dir };
}

describe('post images', () => {
  it('makes AVIF and WebP at widths up to the original, and a picture with srcset, sizes, width, height and lazy loading', async () => {
    const { client, root: dir } = await site('ok', MARK('photo.png'), { file: 'photo.png', width: 1000, height: 500 });
    expect(await buildPostImages(client, dir)).toEqual({ images: 1, files: 6 });
    const html = readFileSync(path.join(client, 'blogs/hello/index.html'), 'utf8');
    expect(html).toMatch(/<picture><source type="image\/avif" srcset="\/assets\/posts\/photo-[\w-]+-480\.avif 480w, \/assets\/posts\/photo-[\w-]+-960\.avif 960w, \/assets\/posts\/photo-[\w-]+-1000\.avif 1000w" sizes="[^"]+"\/>/);
    expect(html).toMatch(/<img src="\/assets\/posts\/photo-[\w-]+-1000\.webp" alt="A \$& picture" width="1000" height="500" loading="lazy" decoding="async"\/><\/picture>/);
    expect(readdirSync(path.join(client, 'assets/posts')).sort()).toHaveLength(6);
  });

  it('stops on a missing image, naming the post and line', async () => {
    const { client, root: dir } = await site('missing', MARK('nope.jpg', 12));
    await expect(buildPostImages(client, dir)).rejects.toThrow('web/content/posts/hello.md:12: the image nope.jpg is not next to the post');
    expect(existsSync(path.join(client, 'assets/posts'))).toBe(false);
  });

  it('stops on an oversized image, naming the post and line', async () => {
    const { client, root: dir } = await site('huge', MARK('huge.png', 3), { file: 'huge.png', width: MAX_IMAGE_SIDE + 1, height: 10 });
    await expect(buildPostImages(client, dir)).rejects.toThrow(`web/content/posts/hello.md:3: the image huge.png is ${MAX_IMAGE_SIDE + 1}×10 px; at most ${MAX_IMAGE_SIDE} px a side`);
  });
});
