import { LOCALE_CODES } from '../../content/locales';
import { compiledPosts, type Post } from './compile-posts';
import { postImagesDir, writePostImages } from './post-images.server';

export { compilePosts, type Post } from './compile-posts';

/*
 * Every post of every language, as the index of posts (contract/post-index.ts) reads them from the checkout,
 * compiled once per build (compile-posts.ts compiledPosts, shared with the build's check and the search
 * index; a `.server` module: the browser build never holds it). The build and `npm run dev` run from the
 * checkout's root.
 */

const compiled = () => compiledPosts(process.cwd(), { drafts: import.meta.env.DEV, locales: LOCALE_CODES });

/**
 * Every post of the build (drafts only in `npm run dev`), compiled once. `npm run dev` reads the files at
 * each page and compiles them again only when one changed.
 */
export function allPosts(): Promise<Post[]> {
  return compiled().posts;
}

/** The key the server entry's map of post bodies uses. */
export const postKey = (locale: string, slug: string) => `${locale}/${slug}`;

/**
 * Every post's HTML by postKey, for the server entry: the one place the HTML is written (PostBody.tsx).
 * The pages show the images, so their files are written here: in a build, after the client build has
 * emptied its folder; each once (a file already there is skipped).
 */
export async function postBodies(): Promise<Map<string, string>> {
  const { posts, made } = compiled();
  const bodies = new Map((await posts).map((post) => [postKey(post.locale, post.slug), post.html]));
  await writePostImages(made, postImagesDir(process.cwd(), import.meta.env.DEV));
  return bodies;
}
