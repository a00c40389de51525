import { indexPosts, readPostFiles } from '../../contract/post-index';
import { LOCALE_CODES, DEFAULT_LOCALE } from '../../web/content/locales';

/*
 * The default language's post titles, from the index of posts (contract/post-index.ts), in Node (the
 * stack at synth, the local API): the click catalogue needs them (BLOG_READ_{TITLE}), but the events Lambda
 * is an esbuild bundle with no Markdown files beside it, so the stack hands it the titles in its environment.
 * Drafts are left out: no build has them, so no deployed page can send their click. A post with a mistake
 * is left out too: the build's own check names it, and the stack and `npm run dev` still start.
 */
export function readPostTitles(projectRoot: string): string[] {
  const { posts } = indexPosts(readPostFiles(projectRoot).files, { drafts: false, locales: LOCALE_CODES });
  return posts
    .filter((post) => post.locale === DEFAULT_LOCALE)
    .sort((a, b) => a.file.localeCompare(b.file))
    .map((post) => post.frontMatter.title);
}
