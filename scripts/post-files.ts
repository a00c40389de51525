/*
 * The build's first look at the posts (react-router.config.ts, before any page is prerendered): reads the
 * index of posts (contract/post-index.ts) and compiles them, images checked, so that a mistake
 * stops the build at once, as its last words, with the file, the line and the fix; and it reports what the
 * index would otherwise pass over in silence: a Markdown file it does not read, two posts whose titles
 * give one click event, a link to a page the site does not have, a post copied from another language.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CLICK_EVENTS, eventName } from '../contract/event-names';
import { blogs } from '../web/content/blogs';
import { CONTENT_WARNING } from '../web/content/content-warning';
import { DEFAULT_LOCALE, LOCALES } from '../web/content/locales';
import { localizePath } from '../web/app/i18n/paths';
import { compiledPosts, type Post } from '../web/app/posts/compile-posts';
import { pathOf } from '../contract/site-routes';
import { copiedPosts, readPostFiles } from '../contract/post-index';

/** The line of a file's text where `needle` first appears (1 when it does not). */
const lineOf = (text: string, needle: string) => {
  const at = text.indexOf(needle);
  return at < 0 ? 1 : text.slice(0, at).split('\n').length;
};

/** Two posts (or a post and an external article) whose titles give one click event name. */
function sharedEventNames(posts: readonly Post[], text: (file: string) => string): string[] {
  const seen = new Map<string, string>(
    blogs.map((article) => [eventName(CLICK_EVENTS.blogRead, article.title), `the article "${article.title}" (web/content/blogs.ts)`]),
  );
  const problems: string[] = [];
  for (const post of posts.filter((p) => p.locale === DEFAULT_LOCALE).sort((a, b) => a.file.localeCompare(b.file))) {
    const name = eventName(CLICK_EVENTS.blogRead, post.frontMatter.title);
    const other = seen.get(name);
    if (other)
      problems.push(
        `${post.file}:${lineOf(text(post.file), 'title:')}: its title gives the same click event (${name}) as ${other}, so their clicks would be counted as one; give it a title of its own`,
      );
    else seen.set(name, post.file);
  }
  return problems;
}

/** A post's links to pages of the site that the build does not have (a typo such as /es/projetcs). */
function missingPageLinks(posts: readonly Post[], root: string, sitePaths: ReadonlySet<string>, text: (file: string) => string): string[] {
  const problems: string[] = [];
  for (const post of posts) {
    const page = `https://site.invalid${localizePath(post.locale, pathOf('post', post.slug))}`;
    for (const [, href] of post.html.matchAll(/<a\b[^>]*\shref="([^"]*)"/g)) {
      if (!href || href.startsWith('#') || /^[a-z][a-z\d+.-]*:/i.test(href) || href.startsWith('//')) continue;
      const target = decodeURIComponent(new URL(href.replaceAll('&amp;', '&'), page).pathname).replace(/(.)\/$/, '$1');
      if (sitePaths.has(target) || target.startsWith('/assets/') || existsSync(path.join(root, 'web/public', target))) continue;
      problems.push(
        `${post.file}:${lineOf(text(post.file), href)}: the link to ${href} leads to no page of the site (${target}); correct it, or link the full address of another site`,
      );
    }
  }
  return problems;
}

export interface PostCheck {
  /** The posts the build publishes (no drafts, no copies). */
  posts: Post[];
  /** Each stops the build: `file:line: what is wrong; the fix`. */
  errors: string[];
  /** Each a CONTENT_WARNING line (the build goes on). */
  warnings: string[];
}

/**
 * Every post of the build checked before prerendering; `pagePaths(posts)`: every page the build will
 * have, given its posts (their pages, tag pages, the site's other pages).
 */
export async function checkPosts(
  root: string,
  locales: readonly string[],
  pagePaths: (posts: readonly Post[]) => readonly string[],
): Promise<PostCheck> {
  const { files, problems } = readPostFiles(root);
  const text = (file: string) => files[file] ?? '';
  let posts: Post[];
  try {
    // What a build publishes (no drafts), compiled once for the build: the prerender reads the same.
    posts = await compiledPosts(root, { drafts: false, locales }).posts;
  } catch (error) {
    // By name: the compile may have been made in another module graph, with its own PostError class.
    if (!(error instanceof Error) || error.name !== 'PostError') throw error;
    return { posts: [], errors: [...problems, error.message], warnings: [] };
  }
  const sitePaths = new Set(pagePaths(posts));
  const errors = [...problems, ...sharedEventNames(posts, text), ...missingPageLinks(posts, root, sitePaths, text)];
  const copies = [...copiedPosts(files, locales)].map(([copy, original]) => ({ copy, original }));
  const byLocale = new Map<string, typeof copies>();
  for (const entry of copies) byLocale.set(entry.copy.split('/')[2]!, [...(byLocale.get(entry.copy.split('/')[2]!) ?? []), entry]);
  const warnings = [...byLocale].map(([locale, list]) => {
    const name = (LOCALES as Record<string, { name: string } | undefined>)[locale]?.name ?? locale;
    return (
      `${CONTENT_WARNING} ${locale} (${name}) has posts copied word for word from another language, left out until translated: ` +
      list.map(({ copy, original }) => `${copy} (= ${original})`).join(', ')
    );
  });
  return { posts, errors, warnings };
}
