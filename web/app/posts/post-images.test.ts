// @vitest-environment node
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { absoluteReferences } from './absolute-references';
import { madeCount, MAX_IMAGE_SIDE, postImages, writePostImages } from './post-images.server';
import { scratchDir } from '../../../tools/scratch';

const root = scratchDir('post-images-');

const MARK = (src: string, line = 7) =>
  `<div data-post-body=""><p><img src="post-image:${src}" alt="A $& picture" data-post-image="web/content/posts/hello.md:${line}"></p></div>`;

/** A checkout with a post's folder (and an image in it): `make` turns `html`'s marks into pictures. */
async function site(name: string, html: string, image?: { file: string; width: number; height: number }) {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'web/content/posts'), { recursive: true });
  if (image) {
    await sharp({ create: { width: image.width, height: image.height, channels: 3, background: '#3366aa' } })
      .png()
      .toFile(path.join(dir, 'web/content/posts', image.file));
  }
  const client = path.join(dir, 'client');
  const made = new Map();
  const make = async () => {
    const out = await postImages(html, { root: dir, made });
    await writePostImages(made, path.join(client, 'assets/posts'));
    return out;
  };
  return { client, root: dir, make, count: () => madeCount(made) };
}

describe('post images', () => {
  it('makes AVIF and WebP at widths up to the original, and a picture with srcset, sizes, width, height and lazy loading', async () => {
    const { client, make, count } = await site('ok', MARK('photo.png'), { file: 'photo.png', width: 1000, height: 500 });
    const html = await make();
    expect(await count()).toEqual({ images: 1, files: 6 });
    expect(html).toMatch(
      /<picture><source type="image\/avif" srcset="\/assets\/posts\/photo-[\w-]+-480\.avif 480w, \/assets\/posts\/photo-[\w-]+-960\.avif 960w, \/assets\/posts\/photo-[\w-]+-1000\.avif 1000w" sizes="[^"]+"\/>/,
    );
    expect(html).toMatch(
      /<img src="\/assets\/posts\/photo-[\w-]+-1000\.webp" alt="A \$& picture" width="1000" height="500" loading="lazy" decoding="async"\/><\/picture>/,
    );
    expect(readdirSync(path.join(client, 'assets/posts')).sort()).toHaveLength(6);
  });

  it('loads the cover (marked first) eagerly at high priority, and the same image further down lazily', async () => {
    const cover =
      '<p class="post-cover"><img src="post-image:photo.png" alt="The harbour" data-post-image="web/content/posts/hello.md:6" data-post-image-first></p>';
    const { make } = await site('cover', cover + MARK('photo.png'), { file: 'photo.png', width: 800, height: 400 });
    const [first, second] = (await make()).match(/<img [^>]*>/g) ?? [];
    expect(first).toMatch(/ alt="The harbour" width="800" height="400" loading="eager" fetchpriority="high" decoding="async"/);
    expect(second).toMatch(/ alt="A \$& picture" width="800" height="400" loading="lazy" decoding="async"/);
  });

  it('checks an image as the post compiles, and writes its files only when the pages ask (writePostImages)', async () => {
    const { client, root: dir } = await site('later', MARK('photo.png'), { file: 'photo.png', width: 1000, height: 500 });
    const made = new Map();
    const html = await postImages(MARK('photo.png'), { root: dir, made });
    expect(html).toContain('<picture>');
    expect(existsSync(path.join(client, 'assets/posts'))).toBe(false);
    await writePostImages(made, path.join(client, 'assets/posts'));
    const files = readdirSync(path.join(client, 'assets/posts')).sort();
    expect(files).toHaveLength(6);
    for (const [, name] of html.matchAll(/\/assets\/posts\/([\w-]+\.(?:avif|webp))/g)) expect(files).toContain(name);
  });

  it('stops on a missing image, naming the post and line', async () => {
    const { client, make } = await site('missing', MARK('nope.jpg', 12));
    await expect(make()).rejects.toThrow('web/content/posts/hello.md:12: the image nope.jpg is not next to the post');
    expect(existsSync(path.join(client, 'assets/posts'))).toBe(false);
  });

  it('stops on an oversized image, naming the post and line', async () => {
    const { make } = await site('huge', MARK('huge.png', 3), { file: 'huge.png', width: MAX_IMAGE_SIDE + 1, height: 10 });
    await expect(make()).rejects.toThrow(
      `web/content/posts/hello.md:3: the image huge.png is ${MAX_IMAGE_SIDE + 1}×10 px; at most ${MAX_IMAGE_SIDE} px a side`,
    );
  });
});

/**
 * What a camera app stores for each EXIF Orientation (1–8): the upright picture turned the opposite way,
 * so that a viewer applying the tag shows it upright. 2, 4, 5 and 7 (mirrored) come from front cameras.
 */
async function stored(upright: Buffer, orientation: number): Promise<Buffer> {
  const step = (input: Buffer, op: (s: Sharp) => Sharp) => op(sharp(input)).png().toBuffer();
  switch (orientation) {
    case 2:
      return step(upright, (s) => s.flop());
    case 3:
      return step(upright, (s) => s.rotate(180));
    case 4:
      return step(upright, (s) => s.flip());
    case 5:
      return step(await step(upright, (s) => s.rotate(90)), (s) => s.flop());
    case 6:
      return step(upright, (s) => s.rotate(270));
    case 7:
      return step(await step(upright, (s) => s.rotate(90)), (s) => s.flip());
    case 8:
      return step(upright, (s) => s.rotate(90));
    default:
      return upright;
  }
}

/** The colour at (x, y) of an image, as [r, g, b]. */
async function colourAt(file: string, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

describe('post images in a feed', () => {
  it("gives an entry a picture whose every address is absolute, from the entry's post", async () => {
    const { make } = await site('feed', MARK('photo.png'), { file: 'photo.png', width: 600, height: 300 });
    // The feed writes each entry's HTML (its pictures made already) with the addresses made absolute.
    const html = await make();
    const contents = ['one', 'two'].map((slug) => absoluteReferences(html, `https://example.com/es/blogs/${slug}`));
    expect(contents).toHaveLength(2);
    for (const html of contents) {
      expect(html).toContain('<picture>');
      const references = [...html.matchAll(/\s(?:src|srcset)="([^"]*)"/g)].flatMap((m) => m[1]!.split(', ').map((c) => c.split(' ')[0]!));
      expect(references.length).toBeGreaterThan(2);
      for (const reference of references) expect(reference).toMatch(/^https:\/\/example\.com\/assets\/posts\/photo-[\w-]+\.(avif|webp)$/);
    }
  });
});

describe('post images from a phone', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'turns a JPEG with EXIF Orientation %i upright, stating its upright width and height',
    async (orientation) => {
      // Upright: 400×200, red on the left half's top quarter, blue elsewhere.
      const upright = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#0000ff' } })
        .composite([{ input: { create: { width: 200, height: 100, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
        .png()
        .toBuffer();
      const jpeg = await sharp(await stored(upright, orientation))
        .jpeg({ quality: 95 })
        .withMetadata({ orientation })
        .toBuffer();
      expect((await sharp(jpeg).metadata()).orientation).toBe(orientation);
      const { client, root: dir, make } = await site(`orientation-${orientation}`, MARK('phone.jpg'));
      writeFileSync(path.join(dir, 'web/content/posts/phone.jpg'), jpeg);
      const html = await make();
      expect(html).toContain('width="400" height="200"');
      const assets = path.join(client, 'assets/posts');
      for (const file of readdirSync(assets)) {
        expect(await sharp(path.join(assets, file)).metadata()).toMatchObject({ width: 400, height: 200 });
        const [red, , blue] = await colourAt(path.join(assets, file), 50, 25);
        expect(red).toBeGreaterThan(200);
        expect(blue).toBeLessThan(60);
        expect((await colourAt(path.join(assets, file), 350, 175))[2]).toBeGreaterThan(200);
      }
    },
  );

  it("makes one image used by two languages' posts once", async () => {
    const html = MARK('photo.png').replace('</div>', '') + MARK('photo.png').replace('web/content/posts/', 'web/content/es/posts/');
    const { root: dir, make, count } = await site('two-languages', html, { file: 'photo.png', width: 600, height: 300 });
    mkdirSync(path.join(dir, 'web/content/es/posts'), { recursive: true });
    writeFileSync(path.join(dir, 'web/content/es/posts/photo.png'), readFileSync(path.join(dir, 'web/content/posts/photo.png')));
    await make();
    expect(await count()).toEqual({ images: 1, files: 4 });
  });
});
