/**
 * An owner writes a first post by following web/content/README.md's steps, read from its text, in a
 * copy of the project: the folder, the file named by the slug, the front matter and Markdown the
 * README shows, then `npm run build`. The post's page, its card on /blogs, its feed entry and its
 * sitemap line must appear. First, the steps a newcomer got wrong: a title holding ": " left unquoted
 * and a post saved as `.markdown` must stop the build, its last lines naming each file, its line and
 * the fix, with no stack trace and no "500" after them. Two builds, the first stopped early.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { copyProject, REPO } from '../tools/project-copy';

const README = readFileSync(path.join(REPO, 'web/content/README.md'), 'utf8');
const project = copyProject('posts-readme-');
afterAll(() => project.remove());

/** The README's steps, from its Posts section: the folder, the file and its content. */
function documentedSteps() {
  const section = /## Posts\n([\s\S]*?)\n## /.exec(README)?.[1] ?? '';
  const folder = /create the folder `([\w-]+)\/` here/.exec(section);
  const file = /add a file named by the post's address, e\.g\. `([\w-]+\/([\w-]+)\.md)` for `\/blogs\/([\w-]+)`/.exec(section);
  const content = /```md\n([\s\S]*?)\n\s*```/.exec(section);
  expect(folder, 'the README names the folder').not.toBeNull();
  expect(file, 'the README names the file and its address').not.toBeNull();
  expect(content, 'the README shows a post').not.toBeNull();
  expect(file![1]!.startsWith(`${folder![1]}/`)).toBe(true);
  expect(file![2]).toBe(file![3]);
  // The example is indented as a list item's code block: the owner's file is not.
  const indent = /^(\s*)/.exec(content![1]!)![1]!.length;
  const text = content![1]!.split('\n').map((line) => line.slice(indent)).join('\n');
  return { folder: folder![1]!, file: file![1]!, slug: file![2]!, text: `${text}\n` };
}

/** The last lines of a build's output, without blank lines and colour codes. */
const lastLines = (output: string, count: number) =>
  stripVTControlCharacters(output)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-count);

describe('writing a post by following web/content/README.md', () => {
  it('stops on the mistakes a newcomer made, naming the file, the line and the fix last', async () => {
    const { folder, file, slug, text } = documentedSteps();
    mkdirSync(path.join(project.dir, 'web/content', folder), { recursive: true });
    // The README's example with a title a person writes ("Hello: World"), not quoted.
    writeFileSync(path.join(project.dir, 'web/content', file), text.replace(/^title: .+$/m, 'title: Hello: World'));
    // The same post saved with another common Markdown extension.
    writeFileSync(path.join(project.dir, 'web/content', folder, `${slug}-too.markdown`), text);

    const built = await project.build();
    rmSync(path.join(project.dir, 'web/content', folder), { recursive: true, force: true });
    expect(built.code, built.output).not.toBe(0);
    const last = lastLines(built.output, 6).join('\n');
    expect(last, built.output).toContain(`Error: web/content/${folder}/${slug}-too.markdown:1: not built: a post's file name ends in .md, in lower case; rename it ${slug}-too.md`);
    expect(last).toContain(`Error: web/content/${file}:2: front matter is not valid YAML`);
    expect(last).toContain('a value containing ": " goes in quotes: title: "Hello: World"');
    expect(lastLines(built.output, 1)[0]).toMatch(/^The build stopped/);
    expect(built.output).not.toMatch(/\b500\b[^\n]*prerender/i);
  }, 600_000);

  it('builds its page, its card on /blogs, its feed entry and its sitemap line', async () => {
    const { folder, file, slug, text } = documentedSteps();
    const title = /^title: (.+)$/m.exec(text)?.[1];
    expect(title).toBeTruthy();
    mkdirSync(path.join(project.dir, 'web/content', folder), { recursive: true });
    writeFileSync(path.join(project.dir, 'web/content', file), text);

    const built = await project.build();
    expect(built.code, built.output).toBe(0);

    const client = (...parts: string[]) => readFileSync(path.join(project.dir, 'web/build/client', ...parts), 'utf8');
    expect(existsSync(path.join(project.dir, 'web/build/client/blogs', slug, 'index.html'))).toBe(true);
    const page = client('blogs', slug, 'index.html');
    expect(page).toContain(`<h1 id="post-title"><bdi>${title}</bdi></h1>`);
    expect(page).toContain('The first paragraph of the post.');
    expect(client('blogs/index.html')).toContain(`href="/blogs/${slug}"`);
    expect(client('feed.xml')).toMatch(new RegExp(`<link rel="alternate" type="text/html" href="https://[^"]+/blogs/${slug}"/>`));
    expect(client('sitemap.xml')).toMatch(new RegExp(`<loc>https://[^<]+/blogs/${slug}</loc>`));
  }, 600_000);
});
