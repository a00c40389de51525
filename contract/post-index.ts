/*
 * The index of posts: the one module that lists the post files of every language (from disk), reads their
 * front matter (front-matter.ts, the one parser) and applies the draft rule. Everything that needs the
 * posts starts here: the route table (web/app/routes.ts), the build's check and prerender paths
 * (scripts/post-files.ts, react-router.config.ts), the pages, feed, sitemap, search and preview cards
 * (web/app/posts/posts.server.ts compiles the indexed posts) and the stack's click-event titles
 * (infra/lib/post-titles.ts), which is why it lives in contract/. English posts are
 * web/content/posts/*.md, another language's web/content/{code}/posts/*.md; a post and its translation
 * share the file name (the slug of /blogs/{slug} and /es/blogs/{slug}).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parsePostSource, PostError, postKeyOfFile, type FrontMatter, type PostSource } from './front-matter';

/** A file a writer may mean as a post: Markdown by any of its usual extensions, in any case. */
const MARKDOWN_LIKE = /\.(?:md|markdown|mdown|mkdn?|mdx)$/i;

/**
 * The posts' files under `root`, keyed by their path in the repository (`web/content/posts/a.md`), and the
 * Markdown files the site does not read (another extension, a subfolder), each a `file:1: …` problem.
 */
export function readPostFiles(root: string): { files: Record<string, string>; problems: string[] } {
  const content = path.join(root, 'web/content');
  const files: Record<string, string> = {};
  const problems: string[] = [];
  if (!existsSync(content)) return { files, problems };
  const folders = ['posts', ...readdirSync(content).filter((name) => existsSync(path.join(content, name, 'posts')))].map((name) =>
    name === 'posts' ? name : `${name}/posts`,
  );
  for (const folder of folders) {
    const dir = path.join(content, folder);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .map((n) => n.split(path.sep).join('/'))
      .sort()) {
      if (!MARKDOWN_LIKE.test(name) || statSync(path.join(dir, name)).isDirectory()) continue;
      const file = `web/content/${folder}/${name}`;
      const base = path.posix.basename(name);
      const stem = base.replace(MARKDOWN_LIKE, '');
      if (name.includes('/'))
        problems.push(
          `${file}:1: not built: posts are read from web/content/${folder}/ itself, not its subfolders; move it there (web/content/${folder}/${stem}.md)`,
        );
      else if (!base.endsWith('.md'))
        problems.push(`${file}:1: not built: a post's file name ends in .md, in lower case; rename it ${stem.toLowerCase()}.md`);
      else files[file] = readFileSync(path.join(dir, name), 'utf8');
    }
  }
  return { files, problems };
}

/**
 * The posts that are another language's post copied word for word (a language started from a copy of
 * es/ copies es/posts/ too): the same slug and the same text as a post of a language declared before it
 * in locales.ts. They are left out of the build (never published as that language's), and the build
 * warns, naming them (scripts/post-files.ts). Maps each copy's file to the file it copies. `locales`: the
 * site's, the default language (whose posts sit in web/content/posts/) first.
 */
export function copiedPosts(files: Record<string, string>, locales: readonly string[]): Map<string, string> {
  const keyed = Object.entries(files).flatMap(([file, text]) => {
    const key = postKeyOfFile(file, locales[0]!);
    return key && locales.includes(key.locale) ? [{ file, text, ...key, order: locales.indexOf(key.locale) }] : [];
  });
  const copies = new Map<string, string>();
  for (const post of keyed) {
    const original = keyed
      .filter((other) => other.slug === post.slug && other.order < post.order && other.text === post.text)
      .sort((a, b) => a.order - b.order)[0];
    if (original) copies.set(post.file, original.file);
  }
  return copies;
}

/** The draft rule: a draft is shown by `npm run dev` (Vite's DEV) and never in a build or the stack. */
export function includesDrafts(): boolean {
  // Vite's flag, true in `npm run dev` only; outside Vite (the stack, a script) there is no import.meta.env.
  return (import.meta as { env?: { DEV?: boolean } }).env?.DEV === true;
}

export interface IndexedPost extends PostSource {
  locale: string;
  slug: string;
  /** web/content/posts/hello.md: what errors and the docs name. */
  file: string;
  frontMatter: FrontMatter;
}

export interface PostIndex {
  /** The posts published (no copies; drafts only when asked), newest first as /blogs and the feeds list them. */
  posts: IndexedPost[];
  /** A post that cannot be read, with its language when its file name gives one (its page still counts). */
  broken: { error: PostError; locale?: string }[];
}

/** Indexes the files of readPostFiles: each one's language, slug and front matter, the draft rule applied. */
export function indexPosts(files: Record<string, string>, options: { drafts?: boolean; locales: readonly string[] }): PostIndex {
  const drafts = options.drafts ?? includesDrafts();
  const copies = copiedPosts(files, options.locales);
  const posts: IndexedPost[] = [];
  const broken: PostIndex['broken'] = [];
  for (const [file, text] of Object.entries(files)) {
    if (copies.has(file)) continue;
    const key = postKeyOfFile(file, options.locales[0]!);
    try {
      if (!key)
        throw new PostError(
          file,
          1,
          'a post file is named by its slug: lower-case letters, digits and dashes, ending .md (hello-world.md)',
        );
      if (!options.locales.includes(key.locale))
        throw new PostError(file, 1, `"${key.locale}" is not a language of the site (web/content/locales.ts)`);
      const source = parsePostSource(file, text);
      if (!source.frontMatter.draft || drafts) posts.push({ ...key, file, ...source });
    } catch (error) {
      if (!(error instanceof PostError)) throw error;
      broken.push({ error, ...(key && options.locales.includes(key.locale) ? { locale: key.locale } : {}) });
    }
  }
  posts.sort((a, b) => b.frontMatter.published.localeCompare(a.frontMatter.published) || a.slug.localeCompare(b.slug));
  return { posts, broken };
}
