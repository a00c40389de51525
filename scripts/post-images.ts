/**
 * `npm run build`'s step after the post-build: each image of a post (a JPEG or PNG next to its Markdown
 * file, marked by web/app/posts/markdown.server.ts as `<img src="post-image:photo.jpg"
 * data-post-image="web/content/posts/x.md:12">`) becomes AVIF and WebP at a few widths under
 * assets/posts/ (named by a hash of the file, so cached for good), and the mark a `<picture>` with
 * `srcset`, `sizes`, width, height and lazy loading, in the post's page and in its feed entry.
 * The post's text is never compared by React (docs/architecture.md, "Posts"), so rewriting it after the
 * build is safe. A missing or oversized image stops the build, naming the post's file and line.
 * `npm run dev` has no build step: `postImagesInDev` (vite.config.ts) does the same as each post renders.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Plugin } from 'vite';
import { absoluteReferences } from '../web/app/posts/absolute-references.ts';
import { basePathOf } from '../contract/preview-path.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The widths made of each image (never wider than the original). */
export const IMAGE_WIDTHS = [480, 960, 1600] as const;
/** Larger files or dimensions are a mistake (a camera original), not a picture for a page. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_IMAGE_SIDE = 6000;
/** The post's column is at most 46rem wide (post.css); under it, the window's width. */
const SIZES = '(min-width: 46rem) 46rem, 100vw';

const MARK = /<img\b[^>]*\bsrc="post-image:[^"]*"[^>]*>/g;
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

export class PostImageError extends Error {}

interface Made {
  html: string;
  files: number;
}

/** Makes one marked image's files (once per name and content) and returns its `<picture>`. */
async function picture(tag: string, root: string, assetsDir: string, made: Map<string, Promise<Made>>): Promise<string> {
  const src = attr(tag, 'src')!.slice('post-image:'.length);
  const where = attr(tag, 'data-post-image') ?? '';
  const alt = attr(tag, 'alt') ?? '';
  const [file = '', line = '1'] = where.split(/:(?=\d+$)/);
  const source = path.join(root, path.dirname(file), src);
  if (!existsSync(source)) throw new PostImageError(`${file}:${line}: the image ${src} is not next to the post (${path.relative(root, source)} does not exist)`);
  const bytes = readFileSync(source);
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new PostImageError(`${file}:${line}: the image ${src} is ${(bytes.length / 1048576).toFixed(1)} MB; at most ${MAX_IMAGE_BYTES / 1048576} MB (resize it first)`);
  }
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 10);
  // Keyed by the name and the bytes: the same photo next to two languages' posts is made once.
  const name = path.basename(src, path.extname(src)).toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  const key = `${name}-${hash}`;
  if (!made.has(key)) {
    made.set(
      key,
      (async () => {
        // A phone writes its photos as the sensor saw them and an EXIF Orientation tag saying how to turn
        // them; sharp neither turns them by default nor keeps the tag, so each image is turned upright
        // first, and its upright width and height (`autoOrient`) are the ones the markup states.
        const meta = await sharp(bytes).metadata();
        if (!meta.width || !meta.height || !['jpeg', 'png'].includes(meta.format ?? '')) throw new PostImageError(`${file}:${line}: the image ${src} is not a JPEG or PNG`);
        const upright = meta.autoOrient;
        if (upright.width > MAX_IMAGE_SIDE || upright.height > MAX_IMAGE_SIDE) {
          throw new PostImageError(`${file}:${line}: the image ${src} is ${upright.width}×${upright.height} px; at most ${MAX_IMAGE_SIDE} px a side (resize it first)`);
        }
        const widths = [...new Set([...IMAGE_WIDTHS.filter((w) => w < upright.width), Math.min(upright.width, IMAGE_WIDTHS.at(-1)!)])];
        const sources: Record<'avif' | 'webp', string[]> = { avif: [], webp: [] };
        mkdirSync(assetsDir, { recursive: true });
        for (const width of widths) {
          for (const format of ['avif', 'webp'] as const) {
            const out = `${name}-${hash}-${width}.${format}`;
            // Named by the image's hash: a file already there (the dev server's cache) is this one.
            if (!existsSync(path.join(assetsDir, out))) {
              const resized = sharp(bytes, { autoOrient: true }).resize({ width });
              writeFileSync(path.join(assetsDir, out), await (format === 'avif' ? resized.avif({ quality: 55 }) : resized.webp({ quality: 78 })).toBuffer());
            }
            sources[format].push(`${basePathOf(process.env.PREVIEW_PATH)}/assets/posts/${out} ${width}w`);
          }
        }
        const width = widths.at(-1)!;
        const height = Math.round((upright.height * width) / upright.width);
        // Under a preview's base path (PREVIEW_PATH), as the build's own assets are.
        const largest = `${basePathOf(process.env.PREVIEW_PATH)}/assets/posts/${name}-${hash}-${width}.webp`;
        return {
          files: widths.length * 2,
          html:
            `<picture><source type="image/avif" srcset="${sources.avif.join(', ')}" sizes="${SIZES}"/>` +
            `<source type="image/webp" srcset="${sources.webp.join(', ')}" sizes="${SIZES}"/>` +
            `<img src="${largest}" alt="%ALT%" width="${width}" height="${height}" loading="lazy" decoding="async"/></picture>`,
        };
      })(),
    );
  }
  return (await made.get(key)!).html.replace('%ALT%', () => alt);
}

async function replaceMarks(html: string, root: string, assetsDir: string, made: Map<string, Promise<Made>>): Promise<string> {
  const tags = html.match(MARK) ?? [];
  let out = html;
  for (const tag of tags) {
    const replacement = await picture(tag, root, assetsDir, made);
    out = out.replace(tag, () => replacement);
  }
  return out;
}

const unescapeXml = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Every page and feed of the build: replaces the marks; returns how many images and files it made. */
export async function buildPostImages(clientDir: string, root = REPO): Promise<{ images: number; files: number }> {
  const assetsDir = path.join(clientDir, 'assets', 'posts');
  const made = new Map<string, Promise<Made>>();
  for (const name of readdirSync(clientDir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(clientDir, name);
    if (name.endsWith('.html')) {
      const html = readFileSync(file, 'utf8');
      if (html.includes('post-image:')) writeFileSync(file, await replaceMarks(html, root, assetsDir, made));
    } else if (path.basename(name) === 'feed.xml' && statSync(file).isFile()) {
      const xml = readFileSync(file, 'utf8');
      if (!xml.includes('post-image:')) continue;
      let out = xml;
      // An entry's images are addressed from its post's page (its alternate link), as its other links are.
      for (const match of xml.matchAll(/<link rel="alternate" type="text\/html" href="([^"]*)"\/>((?:(?!<\/entry>)[\s\S])*?)<content type="html">([\s\S]*?)<\/content>/g)) {
        const body = absoluteReferences(await replaceMarks(unescapeXml(match[3]!), root, assetsDir, made), unescapeXml(match[1]!));
        const replacement = `<link rel="alternate" type="text/html" href="${match[1]}"/>${match[2]}<content type="html">${escapeXml(body)}</content>`;
        out = out.replace(match[0], () => replacement);
      }
      writeFileSync(file, out);
    }
  }
  const all = await Promise.all(made.values());
  return { images: all.length, files: all.reduce((sum, m) => sum + m.files, 0) };
}

/**
 * Where web/app/posts/posts.server.ts finds the dev server's image step (set by `postImagesInDev`): the
 * pages render in the dev server's own process, and the site never imports scripts/.
 */
export const DEV_POST_IMAGES = Symbol.for('portfolio.devPostImages');

const CONTENT_TYPES: Record<string, string> = { '.avif': 'image/avif', '.webp': 'image/webp' };

/**
 * `npm run dev` only: replaces a post's image marks as its HTML is made (the same `<picture>` as a build,
 * a missing or oversized image the same error on the page), writing the files into Vite's cache folder,
 * and serves them at /assets/posts/ as a build does.
 */
export function postImagesInDev(): Plugin {
  return {
    name: 'portfolio:post-images-in-dev',
    apply: 'serve',
    configureServer(server) {
      const assetsDir = path.join(server.config.cacheDir, 'post-images');
      const root = server.config.root;
      (globalThis as Record<symbol, unknown>)[DEV_POST_IMAGES] = (html: string) =>
        html.includes('post-image:') ? replaceMarks(html, root, assetsDir, new Map()) : Promise.resolve(html);
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

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { images, files } = await buildPostImages(path.join(REPO, 'web/build/client'));
    if (images > 0) console.log(`post-images: ${images} images → ${files} files in web/build/client/assets/posts/`);
  } catch (error) {
    console.error(error instanceof PostImageError ? `Error: ${error.message}` : error);
    process.exit(1);
  }
}
