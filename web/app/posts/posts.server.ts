import { LOCALE_CODES } from '../../content/locales';
import { compilePosts, type Post } from './compile-posts';

export { compilePosts, type Post } from './compile-posts';

/*
 * Every post of every language, read and compiled once per build (a `.server` module: the browser build
 * never holds it). English posts are web/content/posts/*.md, another language's web/content/{code}/posts/*.md;
 * a post and its translation share the file name (the slug of /blogs/{slug} and /es/blogs/{slug}).
 */

const FILES = import.meta.glob<string>(['../../content/posts/*.md', '../../content/*/posts/*.md'], { query: '?raw', import: 'default', eager: true });

/** `import.meta.env.DEV` is true in `npm run dev` only: a draft is never in a build. */
export function includesDrafts(): boolean {
  return import.meta.env.DEV;
}

let compiled: Promise<Post[]> | undefined;

/**
 * `npm run dev`'s image step for a post's HTML, set by the dev server (scripts/post-images.ts,
 * postImagesInDev); a build leaves the marks to its own step after prerendering.
 */
type DevPostImages = (html: string) => Promise<string>;
const DEV_POST_IMAGES = Symbol.for('portfolio.devPostImages');

/** Every post of the build (drafts only in `npm run dev`), compiled once. */
export function allPosts(): Promise<Post[]> {
  compiled ??= compilePosts(FILES, { drafts: includesDrafts(), locales: LOCALE_CODES }).then(async (posts) => {
    const devImages = import.meta.env.DEV ? ((globalThis as Record<symbol, unknown>)[DEV_POST_IMAGES] as DevPostImages | undefined) : undefined;
    if (!devImages) return posts;
    try {
      return await Promise.all(posts.map(async (post) => ({ ...post, html: await devImages(post.html) })));
    } catch (error) {
      compiled = undefined; // in dev, the next request tries again (e.g. once the missing image is there)
      throw error;
    }
  });
  return compiled;
}

/** The key the server entry's map of post bodies uses. */
export const postKey = (locale: string, slug: string) => `${locale}/${slug}`;

/** Every post's HTML by postKey, for the server entry: the one place the HTML is written (PostBody.tsx). */
export async function postBodies(): Promise<Map<string, string>> {
  return new Map((await allPosts()).map((post) => [postKey(post.locale, post.slug), post.html]));
}
