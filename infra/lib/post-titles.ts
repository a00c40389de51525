import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/*
 * The default language's post titles, read from the posts' front matter in Node (the stack at synth, the
 * local API): the click catalogue needs them (BLOG_READ_{TITLE}), but the events Lambda is an esbuild bundle
 * with no Markdown files beside it, so the stack hands it the titles in its environment. The site itself
 * never imports this module (node:fs); it reads its posts through web/app/posts. Drafts are skipped: no
 * build has them, so no deployed page can send their click.
 */
export function readPostTitles(projectRoot: string): string[] {
  const dir = path.join(projectRoot, 'web/content/posts');
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.md')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return files.flatMap((name) => {
    const text = readFileSync(path.join(dir, name), 'utf8');
    const yamlText = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
    // The build's own front-matter check names what is wrong with a post; here a post without a title is left out.
    let data: { title?: unknown; draft?: unknown } | null | undefined;
    try {
      data = yamlText === undefined ? undefined : (parse(yamlText) as typeof data);
    } catch {
      return []; // not valid YAML: the build stops on it, naming the file, the line and the fix
    }
    if (!data || typeof data.title !== 'string' || !data.title.trim() || data.draft === true) return [];
    return [data.title.trim()];
  });
}
