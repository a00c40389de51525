import { DEFAULT_LOCALE, LOCALE_CODES } from '../../content/locales';
import { parsePostSource, PostError, postKeyOfFile, type FrontMatter } from './front-matter';
import { compileMarkdown, POST_IMAGE_SCHEME, readingMinutes, type TocEntry } from './markdown.server';

/*
 * Every post of every language, read and compiled once per build (a `.server` module: the browser build
 * never holds it). English posts are web/content/posts/*.md, another language's web/content/{code}/posts/*.md;
 * a post and its translation share the file name (the slug of /blogs/{slug} and /es/blogs/{slug}).
 */

const FILES = import.meta.glob<string>(['../../content/posts/*.md', '../../content/*/posts/*.md'], { query: '?raw', import: 'default', eager: true });

/** The footnotes' heading and back link, in each language the site has (default: English). */
const FOOTNOTE_LABELS: Record<string, { label: string; back: string }> = {
  en: { label: 'Notes', back: 'Back to the text' },
  es: { label: 'Notas', back: 'Volver al texto' },
};

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

/** `import.meta.env.DEV` is true in `npm run dev` only: a draft is never in a build. */
export function includesDrafts(): boolean {
  return import.meta.env.DEV;
}

export async function compilePosts(files: Record<string, string>, options: { drafts: boolean; locales: readonly string[] }): Promise<Post[]> {
  const posts = await Promise.all(
    Object.entries(files).map(async ([globKey, text]): Promise<Post | undefined> => {
      const file = `web/${globKey.replace(/^(\.\.\/)+/, '')}`;
      const key = postKeyOfFile(file, DEFAULT_LOCALE);
      if (!key) throw new PostError(file, 1, 'a post file is named by its slug: lower-case letters, digits and dashes, ending .md (hello-world.md)');
      if (!options.locales.includes(key.locale)) throw new PostError(file, 1, `"${key.locale}" is not a language of the site (web/content/locales.ts)`);
      const source = parsePostSource(file, text);
      if (source.frontMatter.draft && !options.drafts) return undefined;
      const labels = FOOTNOTE_LABELS[key.locale] ?? FOOTNOTE_LABELS.en!;
      const compiled = await compileMarkdown(source.markdown, { file, lineOffset: source.lineOffset, footnoteLabel: labels.label, footnoteBackLabel: labels.back });
      // The cover, above the text: decorative (the title says what the post is), made like its images.
      const { cover } = source.frontMatter;
      const coverHtml = cover ? `<p class="post-cover"><img src="${POST_IMAGE_SCHEME}${cover}" alt="" data-post-image="${file}:${source.keyLines.cover ?? 1}"></p>\n` : '';
      return {
        ...key,
        file,
        frontMatter: source.frontMatter,
        html: coverHtml + compiled.html,
        toc: compiled.toc.length >= TOC_MIN_HEADINGS ? compiled.toc : [],
        minutes: source.frontMatter.readingTime ?? readingMinutes(compiled.words),
      };
    }),
  );
  // Newest first, as /blogs and the feeds list them.
  return posts.filter((p): p is Post => p !== undefined).sort((a, b) => b.frontMatter.published.localeCompare(a.frontMatter.published) || a.slug.localeCompare(b.slug));
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
