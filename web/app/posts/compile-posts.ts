/*
 * Compiling the posts' files into pages, without reading them: the site hands it the files Vite's glob
 * found (posts.server.ts), and the build's first step the files on disk (scripts/post-files.ts), so a mistake
 * in a post stops the build before any page is prerendered.
 */
import { DEFAULT_LOCALE } from '../../content/locales';
import { parsePostSource, PostError, postKeyOfFile, type FrontMatter } from './front-matter';
import { compileMarkdown, POST_IMAGE_SCHEME, readingMinutes, type TocEntry } from './markdown.server';

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

/** `../../content/posts/a.md` (a Vite glob's key, from web/app/posts/) → `web/content/posts/a.md`. */
export const fileOfGlobKey = (globKey: string) => `web/${globKey.replace(/^(\.\.\/)+/, '')}`;

/**
 * The posts that are another language's post copied word for word (a language started from a copy of
 * es/ copies es/posts/ too): the same slug and the same text as a post of a language declared before it
 * in locales.ts. They are left out of the build (never published as that language's), and the build
 * warns, naming them (scripts/post-files.ts). Maps each copy's file to the file it copies.
 */
export function copiedPosts(files: Record<string, string>, locales: readonly string[]): Map<string, string> {
  const keyed = Object.entries(files).flatMap(([globKey, text]) => {
    const file = fileOfGlobKey(globKey);
    const key = postKeyOfFile(file, DEFAULT_LOCALE);
    return key && locales.includes(key.locale) ? [{ file, text, ...key, order: locales.indexOf(key.locale) }] : [];
  });
  const copies = new Map<string, string>();
  for (const post of keyed) {
    const original = keyed.filter((other) => other.slug === post.slug && other.order < post.order && other.text === post.text).sort((a, b) => a.order - b.order)[0];
    if (original) copies.set(post.file, original.file);
  }
  return copies;
}

export async function compilePosts(files: Record<string, string>, options: { drafts: boolean; locales: readonly string[] }): Promise<Post[]> {
  const copies = copiedPosts(files, options.locales);
  const posts = await Promise.all(
    Object.entries(files).map(async ([globKey, text]): Promise<Post | undefined> => {
      const file = fileOfGlobKey(globKey);
      if (copies.has(file)) return undefined;
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

