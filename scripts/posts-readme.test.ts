/**
 * An owner writes a first post by following web/content/README.md's steps, read from its text, in a
 * copy of the project: the folder, the file named by the slug, the front matter and Markdown the
 * README shows, then `npm start`'s build step (`npm run build`, which the README names beside it). The
 * post's page, its card on /blogs, its feed entry and its sitemap line must appear. The copy and its
 * build are the README example's, shared with scripts/add-locale.test.ts (tools/locale-copy.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentedPostSteps, readmeExampleBuild } from '../tools/locale-copy';

/** The README's steps, from its Posts section: the folder, the file and its content. */
function documentedSteps() {
  const steps = documentedPostSteps();
  expect(steps.file.startsWith(`${steps.folder}/`)).toBe(true);
  expect(steps.slug).toBe(steps.address);
  return steps;
}

describe('writing a post by following web/content/README.md', () => {
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
