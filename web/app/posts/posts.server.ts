import { LOCALE_CODES } from '../../content/locales';
import { compilePosts, type Post } from './compile-posts';
import { readPostFiles } from '../../../contract/post-index';
import { postImagesDir } from './post-images.server';

export { compilePosts, type Post } from './compile-posts';

/*
 * Every post of every language, as the index of posts (contract/post-index.ts) reads them from the checkout,
 * compiled once per build with its images made (a `.server` module: the browser build never holds it). The
 * build and `npm run dev` run from the checkout's root.
 */

let compiled: { files: string; posts: Promise<Post[]> } | undefined;

/**
 * Every post of the build (drafts only in `npm run dev`), compiled once. `npm run dev` reads the files at
 * each page and compiles them again only when one changed.
 */
export function allPosts(): Promise<Post[]> {
  const root = process.cwd();
  const { files } = readPostFiles(root);
  const signature = JSON.stringify(files);
  if (compiled?.files !== signature) {
    const posts = compilePosts(files, { locales: LOCALE_CODES, images: { root, assetsDir: postImagesDir(root, import.meta.env.DEV) } });
    // In dev, a failed compile is tried again at the next page (e.g. once the missing image is there).
    posts.catch(() => {
      if (compiled?.posts === posts) compiled = undefined;
    });
    compiled = { files: signature, posts };
  }
  return compiled.posts;
}

/** The key the server entry's map of post bodies uses. */
export const postKey = (locale: string, slug: string) => `${locale}/${slug}`;

/** Every post's HTML by postKey, for the server entry: the one place the HTML is written (PostBody.tsx). */
export async function postBodies(): Promise<Map<string, string>> {
  return new Map((await allPosts()).map((post) => [postKey(post.locale, post.slug), post.html]));
}
