// @vitest-environment node
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parsePostSource, postKeyOfFile } from '../../../contract/front-matter';
import { compileMarkdown, readingMinutes } from './markdown.server';
import { compiledPosts } from './compile-posts';
import { compilePosts } from './posts.server';
import { scratchDir } from '../../../tools/scratch';

const FILE = 'web/content/posts/hello.md';
const post = (frontMatter: string, body = 'Hello.\n') => `---\n${frontMatter}\n---\n\n${body}`;
const VALID = 'title: Hello\ndescription: A first post.\npublished: 2025-01-02\ntags: [notes]';
const OPTIONS = { file: FILE, lineOffset: 0, footnoteLabel: 'Notes', footnoteBackLabel: 'Back' };

describe('front matter', () => {
  it('reads a valid one, with defaults', () => {
    const source = parsePostSource(FILE, post(VALID));
    expect(source.frontMatter).toEqual({
      title: 'Hello',
      description: 'A first post.',
      published: '2025-01-02',
      tags: ['notes'],
      draft: false,
    });
    expect(source.lineOffset).toBe(6);
    expect(source.markdown).toBe('\nHello.\n');
  });

  it.each([
    ['title: Hello\npublished: 2025-01-02', `${FILE}:1: description: `],
    [
      'title: Hello\ndescription: D\npublished: 2025-13-40',
      `${FILE}:4: published: a real date written YYYY-MM-DD (month 01–12, a day the month has), e.g. 2025-01-15`,
    ],
    ['title: Hello\ndescription: D\npublished: 2025-02-30', `${FILE}:4: published: a real date written YYYY-MM-DD`],
    ['title: Hello\ndescription: D\npublished: 2 Jan 2025', `${FILE}:4: published: a date written YYYY-MM-DD, e.g. 2025-01-15`],
    [
      'title: Hello\ndescription: D\npublished: 2025-01-02\ntags:\n  - ok\n  - Not OK',
      `${FILE}:7: tags.1: a tag of letters (any script) and digits, words joined by dashes`,
    ],
    ['title: Hello\ndescription: D\npublished: 2025-01-02\ntags: [-lead]', `${FILE}:5: tags.0: a tag of letters`],
    [
      'title: Hello\ndescription: D\npublished: 2025-01-02\ncover: harbour.jpg',
      `${FILE}:5: cover: a cover needs coverAlt: what the picture shows`,
    ],
    ['title: Hello\ndescription: D\npublished: 2025-01-02\ncover: harbour.jpg\ncoverAlt: " "', `${FILE}:6: coverAlt: what the cover shows`],
    ['title: Hello\ndescription: D\npublished: 2025-01-02\nauthor: me', `${FILE}:5: unknown key "author"`],
    ['title: Hello\ndescription: D\npublished: 2025-01-02\ncover: ../x.gif', `${FILE}:5: cover: a JPEG or PNG file next to the post`],
    ['title: Hello\ndescription: D\npublished: 2025-01-02\nreadingTime: -1', `${FILE}:5: readingTime:`],
    ['title: [unclosed', `${FILE}:2: front matter is not valid YAML`],
    // A second ": " in a plain value: the message ends with the line written the way YAML reads it.
    ['title: Tips: a post\ndescription: D\npublished: 2025-01-02', `${FILE}:2: front matter is not valid YAML`],
    ['title: Tips: a post\ndescription: D\npublished: 2025-01-02', '; a value containing ": " goes in quotes: title: "Tips: a post"'],
  ])('names the file and line of a mistake: %j', (frontMatter, message) => {
    expect(() => parsePostSource(FILE, post(frontMatter))).toThrow(message);
  });

  it('takes tags in any script, folded to lower case only where the script has case', () => {
    const tags = (list: string) =>
      parsePostSource(FILE, post(`title: Hello\ndescription: D\npublished: 2025-01-02\ntags: ${list}`)).frontMatter.tags;
    expect(tags('[CSS, Café-Crème, build-time, web3]')).toEqual(['css', 'café-crème', 'build-time', 'web3']);
    expect(tags('[רשימות-שדה, ملاحظات, 日本語, हिन्दी]')).toEqual(['רשימות-שדה', 'ملاحظات', '日本語', 'हिन्दी']);
    // The same word typed decomposed (e + combining acute) and composed is one tag.
    expect(tags(`[${'cafe\u0301'}]`)).toEqual(['café']);
  });

  it('asks for front matter when there is none', () => {
    expect(() => parsePostSource(FILE, '# Hello\n')).toThrow(`${FILE}:1: a post starts with its front matter`);
  });

  it('tells the language and slug from the path', () => {
    expect(postKeyOfFile('web/content/posts/hello-world.md', 'en')).toEqual({ locale: 'en', slug: 'hello-world' });
    expect(postKeyOfFile('web/content/es/posts/hola.md', 'en')).toEqual({ locale: 'es', slug: 'hola' });
    expect(postKeyOfFile('web/content/posts/Hello World.md', 'en')).toBeUndefined();
  });
});

describe('Markdown', () => {
  it('refuses raw HTML, naming the line in the file', async () => {
    const source = parsePostSource(FILE, post(VALID, 'Text.\n\n<script>alert(1)</script>\n'));
    await expect(compileMarkdown(source.markdown, { ...OPTIONS, lineOffset: source.lineOffset })).rejects.toThrow(
      `${FILE}:10: raw HTML is not allowed`,
    );
    await expect(compileMarkdown('Some <img src=x onerror=alert(1)> text', OPTIONS)).rejects.toThrow(`${FILE}:1: raw HTML`);
  });

  it('marks an image next to the post for the image step with its file and line, and refuses any other', async () => {
    const out = await compileMarkdown('Text.\n\n![A photo](photo.jpg)\n', OPTIONS);
    expect(out.html).toContain(`<img src="post-image:photo.jpg" alt="A photo" data-post-image="${FILE}:3">`);
    await expect(compileMarkdown('Text.\n\n![A photo](https://example.com/a.jpg)\n', OPTIONS)).rejects.toThrow(
      `${FILE}:3: an image in a post is a JPEG or PNG file next to it`,
    );
    await expect(compileMarkdown('![x](../secret.png)', OPTIONS)).rejects.toThrow(`${FILE}:1: an image in a post`);
  });

  it('refuses a javascript: link', async () => {
    await expect(compileMarkdown('[x](javascript:alert(1))', OPTIONS)).rejects.toThrow(
      `${FILE}:1: a link to "javascript:alert(1)" is not allowed`,
    );
  });

  it('keeps one h1 per page (the title), anchors headings and lists them', async () => {
    const out = await compileMarkdown('# One\n\n## Two\n\n### Three\n\nText[^n].\n\n[^n]: A note.\n', OPTIONS);
    expect(out.html).toContain('<h2 id="one"><a class="heading-anchor" href="#one">One</a></h2>');
    expect(out.toc).toEqual([
      { id: 'one', text: 'One', depth: 2 },
      { id: 'two', text: 'Two', depth: 2 },
      { id: 'three', text: 'Three', depth: 3 },
    ]);
    expect(out.html).toContain('Notes');
    expect(out.html).toContain('aria-label="Back"');
  });

  it('counts the words of prose, not of code, and gives at least a minute', async () => {
    const out = await compileMarkdown('one two three\n\n```js\nconst a = b + c;\n```\n', OPTIONS);
    expect(out.words).toBe(3);
    expect(readingMinutes(out.words)).toBe(1);
    expect(readingMinutes(1000)).toBe(5);
  });

  it('colours every token of a line, however slow the machine (a busy build once left a line half coloured)', async () => {
    // Each clock reading a second later: a tokenizer with a time limit would give up on the line.
    let now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
    try {
      const out = await compileMarkdown("```ts\nconst greeting: string = 'hello';\n```\n", OPTIONS);
      expect(out.html).toMatch(/<span style="--shiki-light:#D73A49;--shiki-dark:#F97583">const<\/span>/);
      expect(out.html).toContain(`'hello'</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8">;</span>`);
    } finally {
      clock.mockRestore();
    }
  });
});

describe('the posts of a build', () => {
  const files = {
    'web/content/posts/a.md': post(VALID),
    'web/content/posts/b.md': post(`${VALID}\ndraft: true`),
    'web/content/es/posts/a.md': post(VALID.replace('2025-01-02', '2025-01-03')),
  };

  it('puts the cover above the text, marked for the image step with the line of its key', async () => {
    const [withCover] = await compilePosts(
      { 'web/content/posts/a.md': post(`${VALID}\ncover: cover.jpg\ncoverAlt: 'A "harbour" & <boats>'`) },
      { drafts: false, locales: ['en'] },
    );
    expect(
      withCover!.html.startsWith(
        '<p class="post-cover"><img src="post-image:cover.jpg" alt="A &quot;harbour&quot; &amp; &lt;boats>" data-post-image="web/content/posts/a.md:6" data-post-image-first></p>',
      ),
    ).toBe(true);
  });

  it('leaves drafts out unless asked (npm run dev), newest first', async () => {
    expect((await compilePosts(files, { drafts: false, locales: ['en', 'es'] })).map((p) => `${p.locale}/${p.slug}`)).toEqual([
      'es/a',
      'en/a',
    ]);
    expect((await compilePosts(files, { drafts: true, locales: ['en', 'es'] })).map((p) => `${p.locale}/${p.slug}`)).toEqual([
      'es/a',
      'en/a',
      'en/b',
    ]);
  });

  it("gives the posts of web/content/posts/ the first of the site's languages", async () => {
    expect(
      (await compilePosts({ 'web/content/posts/a.md': post(VALID) }, { drafts: false, locales: ['es', 'en'] })).map(
        (p) => `${p.locale}/${p.slug}`,
      ),
    ).toEqual(['es/a']);
  });

  it('refuses a language the site does not have, or a file not named by a slug', async () => {
    await expect(compilePosts({ 'web/content/fr/posts/a.md': post(VALID) }, { drafts: false, locales: ['en', 'es'] })).rejects.toThrow(
      'web/content/fr/posts/a.md:1: "fr" is not a language',
    );
    await expect(compilePosts({ 'web/content/posts/Hello.md': post(VALID) }, { drafts: false, locales: ['en'] })).rejects.toThrow(
      'web/content/posts/Hello.md:1: a post file is named by its slug',
    );
  });
});

describe('one compile per build', () => {
  const root = scratchDir('compiled-posts-');
  const write = (text: string) => {
    mkdirSync(path.join(root, 'web/content/posts'), { recursive: true });
    writeFileSync(path.join(root, 'web/content/posts/a.md'), text);
  };
  const options = { drafts: false, locales: ['en'] };

  it('is shared by every module graph of the process (the check, the search index, the prerender)', async () => {
    write(post(VALID));
    const first = compiledPosts(root, options);
    // A second instance of the module, as the build's other module graphs load it.
    vi.resetModules();
    const other = (await import('./compile-posts')).compiledPosts;
    expect(other).not.toBe(compiledPosts);
    expect(other(root, options).posts).toBe(first.posts);
    expect((await first.posts).map((p) => p.slug)).toEqual(['a']);
  });

  it('compiles again when a post changes (npm run dev), and after a failed compile', async () => {
    write(post(VALID));
    const before = compiledPosts(root, options).posts;
    write(post(VALID, 'Changed.\n'));
    const after = compiledPosts(root, options).posts;
    expect(after).not.toBe(before);
    expect((await after)[0]!.html).toContain('Changed.');
    write(post(VALID, '<div>raw</div>\n'));
    const failed = compiledPosts(root, options).posts;
    await expect(failed).rejects.toThrow('raw HTML is not allowed');
    expect(compiledPosts(root, options).posts).not.toBe(failed);
    await expect(compiledPosts(root, options).posts).rejects.toThrow('raw HTML is not allowed');
  });
});
