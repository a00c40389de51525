import rehypeShikiFromHighlighter from '@shikijs/rehype/core';
import type { Element, Root as HastRoot } from 'hast';
import { toString as hastText } from 'hast-util-to-string';
import type { Nodes as MdastNode, Root as MdastRoot } from 'mdast';
import rehypeAutolinkHeadings from 'rehype-autolink-headings';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { createHighlighter, createJavaScriptRegexEngine, type Highlighter } from 'shiki';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { PostError } from '../../../contract/front-matter';

/*
 * A post's Markdown to HTML, at build time only (a `.server` module: React Router keeps it, unified and
 * shiki out of the browser build; scripts/posts-build.test.ts checks the built chunks). The HTML is
 * written into the prerendered page and nowhere else (docs/architecture.md, "Posts").
 */

export interface TocEntry {
  id: string;
  text: string;
  depth: 2 | 3;
}

export interface CompiledPost {
  html: string;
  /** The h2 and h3 headings, for the table of contents of a long post. */
  toc: TocEntry[];
  /** Words of prose (code blocks not counted), for the reading length. */
  words: number;
}

export interface CompileOptions {
  /** The file the errors name, as the owner sees it (web/content/posts/hello.md). */
  file: string;
  /** Lines of the file before the Markdown (its front matter), so errors give the file's line. */
  lineOffset: number;
  /** The footnotes' heading and back-link label, in the post's language. */
  footnoteLabel: string;
  footnoteBackLabel: string;
}

/** The two themes' colours become CSS variables (--shiki-light, --shiki-dark); post.css picks one per theme. */
const SHIKI_THEMES = { light: 'github-light', dark: 'github-dark' } as const;

let highlighter: Promise<Highlighter> | undefined;

/**
 * One highlighter per build, its languages loaded as the posts name them (`lazy`). Shiki's JavaScript
 * regex engine, not its WebAssembly one: the same on every machine and in every test environment.
 */
function shiki(): Promise<Highlighter> {
  highlighter ??= createHighlighter({
    themes: Object.values(SHIKI_THEMES),
    langs: [],
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  });
  return highlighter;
}

/** What post-images.server.ts replaces: `<img src="post-image:photo.jpg" data-post-image="file:line">`. */
export const POST_IMAGE_SCHEME = 'post-image:';
const POST_IMAGE = /^[\w-]+(?:\.[\w-]+)*\.(?:jpe?g|png)$/i;

/**
 * Raw HTML in a post is refused, naming the file and line: nothing the owner writes can run a script or
 * style itself outside the site's CSS, and the CSP stays as it is.
 */
function refuseRawHtml(options: CompileOptions) {
  const lineOf = (node: MdastNode) => (node.position?.start.line ?? 1) + options.lineOffset;
  return (tree: MdastRoot) => {
    visit(tree, 'html', (node) => {
      const html = JSON.stringify(node.value.slice(0, 40));
      throw new PostError(options.file, lineOf(node), `raw HTML is not allowed in a post (${html}); write it in Markdown`);
    });
    // An image is a JPEG or PNG next to the post: marked here with its file and line, then made into
    // AVIF and WebP at a few widths, with its width and height, by post-images.server.ts in the
    // same step. Any other (remote, which the CSP's img-src 'self' would block; elsewhere) is refused.
    visit(tree, (node) => {
      if (node.type !== 'image' && node.type !== 'imageReference') return;
      const line = lineOf(node);
      const url = node.type === 'image' ? node.url : '';
      if (node.type !== 'image' || !POST_IMAGE.test(url)) {
        throw new PostError(
          options.file,
          line,
          `an image in a post is a JPEG or PNG file next to it, written ![what it shows](photo.jpg) (not "${url.slice(0, 60)}")`,
        );
      }
      node.url = `${POST_IMAGE_SCHEME}${url}`;
      node.data = { ...node.data, hProperties: { dataPostImage: `${options.file}:${line}` } };
    });
    visit(tree, ['link', 'definition'], (node) => {
      const url = (node as { url: string }).url;
      if (/^\s*(?:javascript|vbscript|data):/i.test(url)) {
        throw new PostError(options.file, lineOf(node), `a link to "${url.slice(0, 40)}" is not allowed in a post`);
      }
    });
  };
}

/** External links open in the same tab like the site's own, but say where they go to search engines. */
function markExternalLinks() {
  return (tree: HastRoot) => {
    visit(tree, 'element', (node: Element) => {
      if (node.tagName === 'a' && typeof node.properties.href === 'string' && /^https?:\/\//.test(node.properties.href)) {
        node.properties.rel = ['noopener', 'noreferrer'];
      }
    });
  };
}

/** remark-rehype's id for the footnotes' heading. */
const FOOTNOTE_LABEL_ID = 'footnote-label';

function collectToc(toc: TocEntry[]) {
  return () => (tree: HastRoot) => {
    visit(tree, 'element', (node: Element) => {
      if (
        (node.tagName === 'h2' || node.tagName === 'h3') &&
        typeof node.properties.id === 'string' &&
        node.properties.id !== FOOTNOTE_LABEL_ID
      ) {
        toc.push({ id: node.properties.id, text: hastText(node), depth: node.tagName === 'h2' ? 2 : 3 });
      }
    });
  };
}

/** Counts the words of prose: code blocks are read differently, and the owner may set `readingTime`. */
export function countWords(tree: MdastRoot): number {
  let words = 0;
  visit(tree, (node) => {
    if (node.type === 'code') return 'skip';
    if (node.type === 'text' || node.type === 'inlineCode') words += (node as { value: string }).value.split(/\s+/u).filter(Boolean).length;
    return undefined;
  });
  return words;
}

export async function compileMarkdown(markdown: string, options: CompileOptions): Promise<CompiledPost> {
  const toc: TocEntry[] = [];
  let words = 0;
  const processor = unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(() => refuseRawHtml(options))
    .use(() => (tree: MdastRoot) => {
      words = countWords(tree);
    })
    // The footnotes' heading is shown (GitHub hides it), and stays out of the contents.
    .use(remarkRehype, { footnoteLabel: options.footnoteLabel, footnoteBackLabel: options.footnoteBackLabel, footnoteLabelProperties: {} })
    // Headings below the page's h1: a post's "# Heading" becomes an h2, so the page keeps one h1 (its title).
    .use(() => (tree: HastRoot) => {
      visit(tree, 'element', (node: Element) => {
        if (node.tagName === 'h1') node.tagName = 'h2';
      });
    })
    .use(rehypeSlug)
    .use(rehypeAutolinkHeadings, {
      behavior: 'wrap',
      properties: { className: ['heading-anchor'] },
      test: (node) => node.properties.id !== FOOTNOTE_LABEL_ID,
    })
    .use(collectToc(toc))
    .use(markExternalLinks)
    // No time limit per line (shiki's is 500 ms): on a busy machine the first line, which compiles the
    // grammar's patterns, ran past it and was left half coloured in the light theme.
    .use(rehypeShikiFromHighlighter, await shiki(), {
      themes: SHIKI_THEMES,
      defaultColor: false,
      lazy: true,
      fallbackLanguage: 'text',
      tokenizeTimeLimit: 0,
    })
    .use(rehypeStringify);
  const html = String(await processor.process(markdown));
  return { html, toc, words };
}

/** Minutes to read, from the words (about 200 a minute, at least 1). */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / 200));
}
