/**
 * An owner writes a first post by following web/content/README.md's steps, read from its text, in a
 * copy of the project: the folder, the file named by the slug, the front matter and Markdown the
 * README shows, then `npm start`'s build step (`npm run build`, which the README names beside it). The
 * post's page, its card on /blogs, its feed entry and its sitemap line must appear. The copy and its
 * build are the README example's, shared with scripts/add-locale.test.ts (tools/locale-copy.ts).
 * First, the steps a newcomer got wrong, in a copy of its own: a title holding ": " left unquoted and a
 * post saved as `.markdown` must stop the build, its last lines naming each file, its line and the fix,
 * with no stack trace and no "500" after them (the build stops before prerendering).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { documentedPostSteps, readmeExampleBuild } from '../tools/locale-copy';
import { copyProject } from '../tools/project-copy';

/** The README's steps, from its Posts section: the folder, the file and its content. */
function documentedSteps() {
  const steps = documentedPostSteps();
  expect(steps.file.startsWith(`${steps.folder}/`)).toBe(true);
  expect(steps.slug).toBe(steps.address);
  return steps;
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
    const project = copyProject('posts-readme-');
    mkdirSync(path.join(project.dir, 'web/content', folder), { recursive: true });
    // The README's example with a title a person writes ("Hello: World"), not quoted.
    writeFileSync(path.join(project.dir, 'web/content', file), text.replace(/^title: .+$/m, 'title: Hello: World'));
    // The same post saved with another common Markdown extension.
    writeFileSync(path.join(project.dir, 'web/content', folder, `${slug}-too.markdown`), text);

    const built = await project.build().finally(() => project.remove());
    expect(built.code, built.output).not.toBe(0);
    const last = lastLines(built.output, 6).join('\n');
    expect(last, built.output).toContain(
      `Error: web/content/${folder}/${slug}-too.markdown:1: not built: a post's file name ends in .md, in lower case; rename it ${slug}-too.md`,
    );
    expect(last).toContain(`Error: web/content/${file}:2: front matter is not valid YAML`);
    expect(last).toContain('a value containing ": " goes in quotes: title: "Hello: World"');
    expect(lastLines(built.output, 1)[0]).toMatch(/^The build stopped/);
    expect(built.output).not.toMatch(/\b500\b[^\n]*prerender/i);
  }, 600_000);

  it('builds its page, its card on /blogs, its feed entry and its sitemap line', async () => {
    const { folder, file, slug, text } = documentedSteps();
    const title = /^title: (.+)$/m.exec(text)?.[1];
    expect(title).toBeTruthy();
    // The README example's shared build (tools/locale-copy.ts readmeExampleBuild) follows these steps in
    // its copy, with the README's other examples (two languages) beside the post.
    const built = await readmeExampleBuild();
    expect(built.code, built.stdout + built.stderr).toBe(0);
    expect(built.post).toEqual({ folder, file, slug, address: slug, text });
    const project = { dir: built.dir };
    expect(readFileSync(path.join(project.dir, 'web/content', file), 'utf8')).toBe(text);

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
