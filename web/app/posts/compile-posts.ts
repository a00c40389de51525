/*
 * Compiling the indexed posts (post-index.ts) into pages, once per build (compiledPosts): for the build's
 * first step (scripts/post-files.ts), so a mistake in a post stops the build before any page is
 * prerendered, then the search index and the site's pages (posts.server.ts). With `images`, each image's
 * mark becomes its `<picture>` here (post-images.server.ts), so the pages, the feed and `npm run dev` all
 * get the HTML whole.
 */
import type { FrontMatter } from '../../../contract/front-matter';
import { compileMarkdown, POST_IMAGE_SCHEME, readingMinutes, type TocEntry } from './markdown.server';
import { indexPosts, readPostFiles } from '../../../contract/post-index';
import { postImages, type MadeImages, type PostImageOptions } from './post-images.server';

/** The footnotes' heading and back link, in each language the site has (default: English). */
const FOOTNOTE_LABELS: Record<string, { label: string; back: string }> = {
  en: { label: 'Notes', back: 'Back to the text' },
  es: { label: 'Notas', back: 'Volver al texto' },
};

/** Text made safe inside a double-quoted HTML attribute. */
const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A post with a table of contents from this many headings on (short posts read fine without one). */
const TOC_MIN_HEADINGS = 3;

export interface Post {
  locale: string;
  slug: string;
  /** web/content/posts/hello.md: what errors and the docs name. */
  file: string;
  frontMatter: FrontMatter;
  html: string;
  toc: TocEntry[];
  minutes: number;
}

export async function compilePosts(
  files: Record<string, string>,
  options: { drafts?: boolean; locales: readonly string[]; images?: PostImageOptions },
): Promise<Post[]> {
  const { posts, broken } = indexPosts(files, options);
  if (broken[0]) throw broken[0].error;
  // In the index's order: newest first, as /blogs and the feeds list them.
  return Promise.all(
    posts.map(async ({ locale, slug, file, frontMatter, markdown, lineOffset, keyLines }): Promise<Post> => {
      const labels = FOOTNOTE_LABELS[locale] ?? FOOTNOTE_LABELS.en!;
      const compiled = await compileMarkdown(markdown, { file, lineOffset, footnoteLabel: labels.label, footnoteBackLabel: labels.back });
      // The cover, above the text and the largest thing above the fold: its words from `coverAlt`, and
      // marked to load first (eagerly, at high priority) rather than lazily like the images further down.
      const { cover, coverAlt = '' } = frontMatter;
      const coverHtml = cover
        ? `<p class="post-cover"><img src="${POST_IMAGE_SCHEME}${cover}" alt="${escapeAttribute(coverAlt)}" data-post-image="${file}:${keyLines.cover ?? 1}" data-post-image-first></p>\n`
        : '';
      const html = coverHtml + compiled.html;
      return {
        locale,
        slug,
        file,
        frontMatter,
        html: options.images ? await postImages(html, options.images) : html,
        toc: compiled.toc.length >= TOC_MIN_HEADINGS ? compiled.toc : [],
        minutes: frontMatter.readingTime ?? readingMinutes(compiled.words),
      };
    }),
  );
}

export interface CompiledPosts {
  /** JSON of the files compiled: a change to one compiles them again. */
  signature: string;
  posts: Promise<Post[]>;
  /** Their images, checked; the files are written by the pages (writePostImages), after the client build. */
  made: MadeImages;
}

/**
 * React Router's build loads this file in several module graphs of one process (the config's posts check,
 * the search index's module runners, the prerender's bundle): they share one compile per build through
 * the process's globals. `npm run dev` (drafts) keeps its own here, so an edit to the compiler shows.
 */
const SHARED = Symbol.for('portfolio.compiled-posts');
const devCompiles = new Map<string, CompiledPosts>();

/** The posts under `root`, compiled once while their files stay the same; images checked, none written. */
export function compiledPosts(root: string, options: { drafts: boolean; locales: readonly string[] }): CompiledPosts {
  const shared = globalThis as { [SHARED]?: Map<string, CompiledPosts> };
  const compiles = options.drafts ? devCompiles : (shared[SHARED] ??= new Map());
  // The images' addresses carry a preview's base path.
  const key = JSON.stringify([root, options.drafts, options.locales, process.env.PREVIEW_PATH]);
  const { files } = readPostFiles(root);
  const signature = JSON.stringify(files);
  const found = compiles.get(key);
  if (found?.signature === signature) return found;
  const made: MadeImages = new Map();
  const posts = compilePosts(files, { ...options, images: { root, made } });
  // A failed compile is tried again next time (npm run dev: once the missing image is there).
  posts.catch(() => {
    if (compiles.get(key)?.posts === posts) compiles.delete(key);
  });
  const compiled = { signature, posts, made };
  compiles.set(key, compiled);
  return compiled;
}
