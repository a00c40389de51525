import { LineCounter, parseDocument, isMap } from 'yaml';
import { z } from 'zod';

/*
 * A post's front matter: the YAML between two `---` lines at the top of its Markdown file, read by the
 * index of posts (post-index.ts) only; a mistake stops the build naming the file and the line, as the
 * content check does for the TypeScript content.
 */

/** A calendar date, written yyyy-mm-dd; one that does not exist (2026-13-45, 2025-02-30) is refused with the form it takes. */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date written YYYY-MM-DD, e.g. 2025-01-15')
  .refine((s) => {
    const date = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === s;
  }, 'a real date written YYYY-MM-DD (month 01–12, a day the month has), e.g. 2025-01-15');

/**
 * A tag names its page (/blogs/tags/{tag}): words of letters (of any script, with their marks) and
 * digits, joined by dashes. It is folded to lower case, which changes only the scripts that have case
 * (`CSS` and `css` are one tag; Hebrew or Arabic stay as written), and to Unicode's composed form (NFC),
 * so one word typed two ways is one page. Addresses carry it percent-encoded (contract/site-routes.ts).
 */
const tag = z
  .string()
  .transform((value) => value.normalize('NFC').toLowerCase())
  .pipe(
    z
      .string()
      .regex(
        /^[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:-[\p{L}\p{N}][\p{L}\p{M}\p{N}]*)*$/u,
        'a tag of letters (any script) and digits, words joined by dashes, no spaces (it names the page /blogs/tags/{tag})',
      ),
  );

export const frontMatterSchema = z
  .strictObject({
    title: z.string().trim().min(1, 'a title'),
    description: z.string().trim().min(1, 'a description (search results, previews, the card on /blogs)'),
    published: isoDate,
    updated: isoDate.optional(),
    tags: z.array(tag).default([]),
    draft: z.boolean().default(false),
    /** A JPEG or PNG next to the post, shown above its text (made into AVIF and WebP like its other images). */
    cover: z
      .string()
      .regex(/^[\w-]+(?:\.[\w-]+)*\.(?:jpe?g|png)$/i, 'a JPEG or PNG file next to the post, e.g. cover.jpg')
      .optional(),
    /** What the cover shows, its alt text: required with a cover (a reader who cannot see it is told what is there). */
    coverAlt: z.string().trim().min(1, 'what the cover shows, in words (its alt text)').optional(),
    /** The reading length in minutes, when the count from the words is not right (code-heavy posts). */
    readingTime: z.number().int().positive().optional(),
  })
  .check((ctx) => {
    if (ctx.value.cover !== undefined && ctx.value.coverAlt === undefined) {
      ctx.issues.push({
        code: 'custom',
        path: ['cover'],
        input: ctx.value.cover,
        message: 'a cover needs coverAlt: what the picture shows, in words, e.g. coverAlt: A harbour at dawn',
      });
    }
  });

export type FrontMatter = z.infer<typeof frontMatterSchema>;

export interface PostSource {
  frontMatter: FrontMatter;
  /** The file's line of each top-level key of the front matter (errors about its value name it). */
  keyLines: Record<string, number>;
  /** The Markdown after the front matter. */
  markdown: string;
  /** How many lines of the file come before `markdown` (so the parser's line 1 is the file's line offset+1). */
  lineOffset: number;
}

/** A mistake in a post: the build prints `file:line: what is wrong`. */
export class PostError extends Error {
  constructor(file: string, line: number, message: string) {
    super(`${file}:${line}: ${message}`);
    this.name = 'PostError';
  }
}

/** Splits and checks a post's front matter; `file` is the path the error messages name. */
export function parsePostSource(file: string, text: string): PostSource {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match)
    throw new PostError(file, 1, 'a post starts with its front matter between two `---` lines (title, description, published, …)');
  const yamlText = match[1]!;
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter, prettyErrors: false });
  // The YAML starts on the file's line 2, after the first `---`.
  const lineAt = (offset: number) => lineCounter.linePos(offset).line + 1;
  const [yamlError] = doc.errors;
  if (yamlError) {
    const line = lineAt(yamlError.pos[0]);
    // YAML reads a second `: ` in a plain value (title: Tips: one) as a nested key: the usual mistake.
    const text = yamlText.split(/\r?\n/)[line - 2] ?? '';
    const quote = /^\s*([\w-]+):\s+[^'"].*:\s/.exec(text);
    const fix = quote
      ? `; a value containing ": " goes in quotes: ${quote[1]}: "${text
          .slice(text.indexOf(':') + 1)
          .trim()
          .replace(/"/g, '\\"')}"`
      : '';
    throw new PostError(file, line, `front matter is not valid YAML: ${yamlError.message.split('\n')[0]}${fix}`);
  }
  const result = frontMatterSchema.safeParse(doc.toJS());
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path[0];
    let line = 1;
    if (isMap(doc.contents)) {
      const pair = doc.contents.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
      const node = (pair?.value ?? pair?.key) as { range?: [number, number, number] } | undefined;
      const at =
        issue.path.length > 1 && node && 'items' in node
          ? (node as unknown as { items: { range?: [number] }[] }).items[Number(issue.path[1])]?.range?.[0]
          : node?.range?.[0];
      line = at === undefined ? 1 : lineAt(at);
    }
    const where = issue.path.length ? issue.path.join('.') : 'front matter';
    const what =
      issue.code === 'unrecognized_keys'
        ? `unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')} (known: ${Object.keys(frontMatterSchema.shape).join(', ')})`
        : `${where}: ${issue.message}`;
    throw new PostError(file, line, what);
  }
  const lineOffset = match[0].split('\n').length - 1;
  const keyLines: Record<string, number> = {};
  if (isMap(doc.contents)) {
    for (const item of doc.contents.items) {
      const key = item.key as { value?: unknown; range?: [number, number, number] } | null;
      if (typeof key?.value === 'string' && key.range) keyLines[key.value] = lineAt(key.range[0]);
    }
  }
  return { frontMatter: result.data, keyLines, markdown: text.slice(match[0].length), lineOffset };
}

/** `web/content/posts/hello.md` → English "hello"; `web/content/es/posts/hola.md` → Spanish "hola". */
export function postKeyOfFile(file: string, defaultLocale: string): { locale: string; slug: string } | undefined {
  const m = /(?:^|\/)content\/(?:([a-z]{2,3}(?:-[A-Za-z0-9]+)?)\/)?posts\/([a-z0-9]+(?:-[a-z0-9]+)*)\.md$/.exec(file);
  if (!m) return undefined;
  return { locale: m[1] ?? defaultLocale, slug: m[2]! };
}
