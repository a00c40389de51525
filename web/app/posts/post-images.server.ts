/**
 * A post's images, made in the Markdown step (compile-posts.ts): each image of a post (a JPEG or PNG next
 * to its Markdown file, marked by markdown.server.ts as `<img src="post-image:photo.jpg"
 * data-post-image="web/content/posts/x.md:12">`) becomes AVIF and WebP at a few widths under
 * /assets/posts/ (named by a hash of the file, so cached for good), and the mark a `<picture>` with
 * `srcset`, `sizes`, width, height and lazy loading (the cover: eager, high priority), before the page and the feed entry are written.
 * A missing or oversized image is a PostError, naming the post's file and line. The pages write the files
 * (writePostImages): a build into web/build/client/assets/posts/; `npm run dev` into .local/post-images/,
 * which `servePostImages` (vite.config.ts) serves at the same address.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Plugin } from 'vite';
import { PostError } from '../../../contract/front-matter.ts';
import { basePathOf } from '../../../contract/preview-path.ts';

/** The widths made of each image (never wider than the original). */
export const IMAGE_WIDTHS = [480, 960, 1600] as const;
/** Larger files or dimensions are a mistake (a camera original), not a picture for a page. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_IMAGE_SIDE = 6000;
/** The post's column is at most 46rem wide (post.css); under it, the window's width. */
const SIZES = '(min-width: 46rem) 46rem, 100vw';

const MARK = /<img\b[^>]*\bsrc="post-image:[^"]*"[^>]*>/g;
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

interface Made {
  html: string;
  bytes: Buffer;
  widths: number[];
}

/** The images of a compile, by name and hash (their files' `${key}-${width}`): one used by several posts is made once. */
export type MadeImages = Map<string, Promise<Made>>;

export interface PostImageOptions {
  /** The project's checkout: a mark's file is relative to it. */
  root: string;
  /** The images made so far, their files written by writePostImages. */
  made: MadeImages;
}

/** Where a build (the prerender) and `npm run dev` write the images they make, under the checkout `root`. */
export function postImagesDir(root: string, dev: boolean): string {
  return path.join(root, dev ? '.local/post-images' : 'web/build/client/assets/posts');
}

/** Checks one marked image (once per name and content) and returns its `<picture>`. */
async function picture(tag: string, root: string, made: MadeImages): Promise<string> {
  const src = attr(tag, 'src')!.slice('post-image:'.length);
  const where = attr(tag, 'data-post-image') ?? '';
  const alt = attr(tag, 'alt') ?? '';
  // The cover (marked data-post-image-first) is above the fold: it loads at once, first; the others when scrolled near.
  const loading = /\sdata-post-image-first[\s>]/.test(tag) ? 'loading="eager" fetchpriority="high"' : 'loading="lazy"';
  const [file = '', line = '1'] = where.split(/:(?=\d+$)/);
  const source = path.join(root, path.dirname(file), src);
  if (!existsSync(source))
    throw new PostError(file, Number(line), `the image ${src} is not next to the post (${path.relative(root, source)} does not exist)`);
  const bytes = readFileSync(source);
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new PostError(
      file,
      Number(line),
      `the image ${src} is ${(bytes.length / 1048576).toFixed(1)} MB; at most ${MAX_IMAGE_BYTES / 1048576} MB (resize it first)`,
    );
  }
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 10);
  // Keyed by the name and the bytes: the same photo next to two languages' posts is made once.
  const name = path
    .basename(src, path.extname(src))
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-');
  const key = `${name}-${hash}`;
  if (!made.has(key)) {
    made.set(
      key,
      (async () => {
        // A phone writes its photos as the sensor saw them and an EXIF Orientation tag saying how to turn
        // them; sharp neither turns them by default nor keeps the tag, so each image is turned upright
        // first, and its upright width and height (`autoOrient`) are the ones the markup states.
        const meta = await sharp(bytes).metadata();
        if (!meta.width || !meta.height || !['jpeg', 'png'].includes(meta.format ?? ''))
          throw new PostError(file, Number(line), `the image ${src} is not a JPEG or PNG`);
        const upright = meta.autoOrient;
        if (upright.width > MAX_IMAGE_SIDE || upright.height > MAX_IMAGE_SIDE) {
          throw new PostError(
            file,
            Number(line),
            `the image ${src} is ${upright.width}×${upright.height} px; at most ${MAX_IMAGE_SIDE} px a side (resize it first)`,
          );
        }
        const widths = [...new Set([...IMAGE_WIDTHS.filter((w) => w < upright.width), Math.min(upright.width, IMAGE_WIDTHS.at(-1)!)])];
        // Under a preview's base path (PREVIEW_PATH), as the build's own assets are.
        const srcset = (format: string) =>
          widths.map((w) => `${basePathOf(process.env.PREVIEW_PATH)}/assets/posts/${key}-${w}.${format} ${w}w`).join(', ');
        const width = widths.at(-1)!;
        const height = Math.round((upright.height * width) / upright.width);
        return {
          bytes,
          widths,
          html:
            `<picture><source type="image/avif" srcset="${srcset('avif')}" sizes="${SIZES}"/>` +
            `<source type="image/webp" srcset="${srcset('webp')}" sizes="${SIZES}"/>` +
            `<img src="${basePathOf(process.env.PREVIEW_PATH)}/assets/posts/${key}-${width}.webp" alt="%ALT%" width="${width}" height="${height}" %LOADING% decoding="async"/></picture>`,
        };
      })(),
    );
  }
  return (await made.get(key)!).html.replace('%ALT%', () => alt).replace('%LOADING%', loading);
}

/** Writes the AVIF and WebP files of every image in `made` into `assetsDir` (postImagesDir). */
export async function writePostImages(made: MadeImages, assetsDir: string): Promise<void> {
  for (const [key, image] of made) {
    const { bytes, widths } = await image;
    mkdirSync(assetsDir, { recursive: true });
    for (const width of widths) {
      for (const format of ['avif', 'webp'] as const) {
        const out = path.join(assetsDir, `${key}-${width}.${format}`);
        // Named by the image's hash: a file already there (the dev server's cache, an earlier page) is this one.
        if (existsSync(out)) continue;
        const resized = sharp(bytes, { autoOrient: true }).resize({ width });
        writeFileSync(out, await (format === 'avif' ? resized.avif({ quality: 55 }) : resized.webp({ quality: 78 })).toBuffer());
      }
    }
  }
}

/** A post's HTML with each image's mark replaced by its `<picture>`; its files are writePostImages's. */
export async function postImages(html: string, { root, made }: PostImageOptions): Promise<string> {
  let out = html;
  for (const tag of html.match(MARK) ?? []) {
    const replacement = await picture(tag, root, made);
    out = out.replace(tag, () => replacement);
  }
  return out;
}

/** How many images were made, and how many files. */
export async function madeCount(made: MadeImages): Promise<{ images: number; files: number }> {
  const all = await Promise.all(made.values());
  return { images: all.length, files: all.reduce((sum, m) => sum + m.widths.length * 2, 0) };
}

const CONTENT_TYPES: Record<string, string> = { '.avif': 'image/avif', '.webp': 'image/webp' };

/**
 * `npm run dev` only: serves the images the posts' pages made (postImagesDir) at /assets/posts/, as a
 * build does, and shows a change to a post or its images (the pages read the posts from disk).
 */
export function servePostImages(): Plugin {
  return {
    name: 'portfolio:post-images-in-dev',
    apply: 'serve',
    configureServer(server) {
      const assetsDir = postImagesDir(server.config.root, true);
      const postFile = /[\\/]web[\\/]content[\\/](?:[^\\/]+[\\/])?posts[\\/]/;
      server.watcher.add(path.join(server.config.root, 'web/content'));
      server.watcher.on('all', (_event, file) => {
        if (!postFile.test(file)) return;
        // A post's file can add or remove a language's post or tag route (routes.ts): the server starts
        // again to read the route table anew; an image only needs the page drawn again.
        if (file.endsWith('.md')) void server.restart();
        else server.ws.send({ type: 'full-reload' });
      });
      server.middlewares.use('/assets/posts/', (request, response, next) => {
        const name = decodeURIComponent((request.url ?? '').split('?')[0]!.replace(/^\//, ''));
        const file = path.join(assetsDir, name);
        if (!/^[\w-]+\.(?:avif|webp)$/.test(name) || !existsSync(file)) return next();
        response.writeHead(200, { 'Content-Type': CONTENT_TYPES[path.extname(name)]!, 'Cache-Control': 'no-cache' });
        response.end(readFileSync(file));
      });
    },
  };
}
