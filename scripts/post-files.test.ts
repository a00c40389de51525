import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copiedPosts, readPostFiles } from '../contract/post-index';
import { checkPosts } from './post-files';
import { LOCALES } from '../web/content/locales';
import { scratchDir } from '../tools/scratch';

const post = (title: string, body = 'Hello.\n') => `---\ntitle: ${title}\ndescription: D.\npublished: 2025-01-02\n---\n\n${body}`;

/** A project folder with these files under web/content/ (and web/public/resume.pdf). */
function project(files: Record<string, string>): string {
  const root = scratchDir('post-files-');
  mkdirSync(path.join(root, 'web/public'), { recursive: true });
  writeFileSync(path.join(root, 'web/public/resume.pdf'), '%PDF');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, 'web/content', name)), { recursive: true });
    writeFileSync(path.join(root, 'web/content', name), text);
  }
  return root;
}

const pages = ['/home', '/projects', '/es/home', '/es/projects', '/blogs', '/es/blogs'];
const check = (root: string, locales = ['en', 'es']) =>
  checkPosts(root, locales, (posts) => [
    ...pages,
    ...posts.map((p) => (p.locale === 'en' ? `/blogs/${p.slug}` : `/${p.locale}/blogs/${p.slug}`)),
  ]);

describe('the posts the build would pass over in silence', () => {
  it('names Markdown files the site does not read: another extension or case, or a subfolder', () => {
    const root = project({
      'posts/a.md': post('A'),
      'posts/b.markdown': post('B'),
      'posts/C.MD': post('C'),
      'es/posts/old/d.md': post('D'),
      'posts/photo.jpg': 'x',
    });
    const { files, problems } = readPostFiles(root);
    expect(Object.keys(files)).toEqual(['web/content/posts/a.md']);
    expect([...problems].sort()).toEqual(
      [
        "web/content/posts/C.MD:1: not built: a post's file name ends in .md, in lower case; rename it c.md",
        "web/content/posts/b.markdown:1: not built: a post's file name ends in .md, in lower case; rename it b.md",
        'web/content/es/posts/old/d.md:1: not built: posts are read from web/content/es/posts/ itself, not its subfolders; move it there (web/content/es/posts/d.md)',
      ].sort(),
    );
  });

  it('stops on two posts whose titles give one click event, naming the file and the title line', async () => {
    const root = project({ 'posts/a.md': post('Hello, World'), 'posts/b.md': post('Hello world!') });
    const { errors } = await check(root);
    expect(errors).toEqual([
      expect.stringMatching(
        /^web\/content\/posts\/b\.md:2: its title gives the same click event \(BLOG_READ_HELLO_WORLD\) as web\/content\/posts\/a\.md/,
      ),
    ]);
  });

  it('stops on a link to a page the site does not have, with its line; pages, public files and other sites pass', async () => {
    const body =
      'See [projects](/es/projects), [my CV](/resume.pdf), [a site](https://example.com/x) and [top](#a).\n\nAnd [a typo](/es/projetcs).\n';
    const root = project({ 'es/posts/a.md': post('A', body) });
    const { errors } = await check(root);
    expect(errors).toEqual([
      'web/content/es/posts/a.md:9: the link to /es/projetcs leads to no page of the site (/es/projetcs); correct it, or link the full address of another site',
    ]);
  });

  it('leaves out a post copied word for word from a language declared before, and warns naming both files', async () => {
    const root = project({
      'es/posts/hola.md': post('Hola'),
      'he/posts/hola.md': post('Hola'),
      'he/posts/shalom.md': post('Shalom'),
      'posts/hola.md': post('Hello'),
    });
    const { posts, errors, warnings } = await check(root, ['en', 'es', 'he']);
    expect(errors).toEqual([]);
    expect(posts.map((p) => `${p.locale}/${p.slug}`).sort()).toEqual(['en/hola', 'es/hola', 'he/shalom']);
    // Named by its line in locales.ts when the site has one, by its code when not.
    const hebrew = (LOCALES as Record<string, { name: string } | undefined>).he?.name ?? 'he';
    expect(warnings).toEqual([
      `Content warning: he (${hebrew}) has posts copied word for word from another language, left out until translated: web/content/he/posts/hola.md (= web/content/es/posts/hola.md)`,
    ]);
    expect(copiedPosts({ 'web/content/posts/a.md': 'x', 'web/content/es/posts/a.md': 'x' }, ['en', 'es'])).toEqual(
      new Map([['web/content/es/posts/a.md', 'web/content/posts/a.md']]),
    );
  });

  it('returns the first mistake in a post as its error, file and line first', async () => {
    const root = project({ 'posts/a.md': post('A', '<div>raw</div>\n') });
    const { errors } = await check(root);
    expect(errors).toEqual([expect.stringMatching(/^web\/content\/posts\/a\.md:7: raw HTML is not allowed in a post/)]);
  });

  it('stops on a missing image before any page is prerendered, and writes no image while checking', async () => {
    const root = project({ 'posts/a.md': post('A', 'Intro.\n\n![A photo](photo.jpg)\n') });
    const { errors } = await check(root);
    expect(errors).toEqual([expect.stringMatching(/^web\/content\/posts\/a\.md:9: the image photo\.jpg is not next to the post/)]);
    expect(existsSync(path.join(root, 'web/build'))).toBe(false);
  });
});
