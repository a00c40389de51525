/**
 * On-site posts, built for real: the fixture posts (web/test/fixtures/posts, every feature of the
 * Markdown pipeline, a translation, a post in one language, a draft) are copied into a copy of the
 * project's web/content, which is built as `npm run build` does. The shipped content has no posts, so
 * the shipped site is unchanged; this test is where the post pages are built. One build, about a minute
 * on an idle 2-core machine, shared with the browser tests of posts and of a right-to-left language
 * (tools/locale-copy.ts fixtureSiteBuild).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { htmlErrors } from '../tools/html-conformance';
import { fixtureSiteBuild } from '../tools/locale-copy';

let copy = '';

const client = (...parts: string[]) => path.join(copy, 'web/build/client', ...parts);
const html = (page: string) => readFileSync(client(page, 'index.html'), 'utf8');
const filesUnder = (dir: string, ext: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(ext))
    .map((file) => path.join(dir, file));
const alternates = (page: string) =>
  new Map([...page.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"\/>/g)].map((m) => [m[1]!, m[2]!]));

beforeAll(async () => {
  ({ dir: copy } = await fixtureSiteBuild());
}, 900_000);

describe('a build with posts', () => {
  it('prerenders each post in its languages, and no draft', () => {
    expect(existsSync(client('blogs/every-feature/index.html'))).toBe(true);
    expect(existsSync(client('es/blogs/every-feature/index.html'))).toBe(true);
    expect(existsSync(client('blogs/english-only/index.html'))).toBe(true);
    expect(existsSync(client('es/blogs/english-only/index.html'))).toBe(false);
    expect(existsSync(client('blogs/work-in-progress'))).toBe(false);
    const everything = filesUnder(client(), '.html')
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    expect(everything).not.toContain('Half written');
  });

  it('writes the Markdown as HTML: headings with anchors, a table of contents, GFM tables and footnotes, code in both themes', () => {
    const page = html('blogs/every-feature');
    expect(page).toContain('<h1 id="post-title"><bdi>Writing on the Site Itself</bdi></h1>');
    expect(page).toContain('<h2 id="why-build-time"><a class="heading-anchor" href="#why-build-time">Why build time</a></h2>');
    expect(page).toMatch(/<nav class="post-toc"[^>]*>.*<a href="#why-build-time">Why build time<\/a>.*<a href="#what-the-browser-gets">/s);
    expect(page).toMatch(/<table>.*<th>feature<\/th>.*<td>shiki<\/td>/s);
    expect(page).toMatch(/<section data-footnotes class="footnotes">.*Scripts arrive after the first paint\./s);
    expect(page).toMatch(
      /<pre class="shiki shiki-themes github-light github-dark"[^>]*><code><span class="line"><span style="--shiki-light:#[0-9A-Fa-f]+;--shiki-dark:#[0-9A-Fa-f]+">const<\/span>/,
    );
    expect(page).toContain('<time dateTime="2025-02-10">February 10, 2025</time>');
    expect(html('es/blogs/every-feature')).toContain('<time dateTime="2025-02-10">10 de febrero de 2025</time>');
    expect(html('es/blogs/every-feature')).toContain('Notas');
    expect(html('blogs/english-only')).toContain('3 min read');
  });

  it('gives each post its head: title, description, canonical, hreflang only to a translation, BlogPosting', () => {
    const page = html('blogs/every-feature');
    expect(page).toContain('<title>Writing on the Site Itself | ');
    // Its link preview, drawn at build time like every page's (web/app/routes/og-png.ts).
    expect(page).toMatch(/<meta property="og:image" content="https:\/\/[^"]+\/og\/blogs-every-feature\.png"\/>/);
    expect(existsSync(client('og/blogs-every-feature.png'))).toBe(true);
    expect(existsSync(client('og/es-blogs-every-feature.png'))).toBe(true);
    expect(page).toMatch(/<link rel="canonical" href="https:\/\/[^"]+\/blogs\/every-feature"\/>/);
    expect([...alternates(page).keys()]).toEqual(['en', 'es', 'x-default']);
    expect(alternates(page).get('es')).toMatch(/\/es\/blogs\/every-feature$/);
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page)![1]!) as Record<string, unknown>;
    expect(ld).toMatchObject({
      '@type': 'BlogPosting',
      headline: 'Writing on the Site Itself',
      datePublished: '2025-02-10',
      dateModified: '2025-03-01',
      inLanguage: 'en',
    });
    const single = html('blogs/english-only');
    expect(alternates(single).size).toBe(0);
    // The language switcher of a post with no translation goes to that language's articles.
    expect(single).toMatch(/<a href="\/es\/blogs" lang="es"/);
    expect(page).toMatch(/<a href="\/es\/blogs\/every-feature" lang="es"/);
  });

  it('ships nothing of the parser, the highlighter or a post in any script or data file but the search index', async () => {
    const scripts = filesUnder(client(), '.js');
    expect(scripts.length).toBeGreaterThan(5);
    const shipped = [...scripts, ...filesUnder(client(), '.data')].map((f) => [f, readFileSync(f, 'utf8')] as const);
    // A language's search index holds its posts' words on purpose: fetched only when the search dialog
    // opens (scripts/search-index.ts), never by a page's first load.
    const isSearchIndex = (file: string) => /\/assets\/[^/]*search-index-[a-z-]+-[^/]*\.js$/i.test(file);
    expect(shipped.filter(([file, text]) => isSearchIndex(file) && text.includes('FIXTUREMARKER'))).toHaveLength(1);
    const withTag = { hebrew: [] as string[], arabic: [] as string[] };
    for (const [file, text] of shipped) {
      if (isSearchIndex(file)) {
        // Words only (the post names its pipeline's parts): the module's one export is the index's JSON.
        const module = (await import(file)) as Record<string, unknown>;
        expect(Object.keys(module), file).toEqual(['index']);
        expect(JSON.parse(module.index as string), file).toHaveProperty('documentCount');
        // The tags are searchable in their own script, each in its language's index only.
        if ((module.index as string).includes('הערות')) withTag.hebrew.push(file);
        if ((module.index as string).includes('ملاحظات')) withTag.arabic.push(file);
        continue;
      }
      expect(text, file).not.toContain('FIXTUREMARKER-PROSE');
      expect(text, file).not.toContain('Scripts arrive after the first paint');
      expect(text, file).not.toMatch(/micromark|remark-|rehype|shiki|vscode-textmate|oniguruma|github-dark/);
    }
    expect(withTag.hebrew).toHaveLength(1);
    expect(withTag.arabic).toHaveLength(1);
    expect(withTag.hebrew[0]).not.toBe(withTag.arabic[0]);
    // The post's page carries its facts (title, dates, contents) for client navigations, not its text.
    const data = readFileSync(client('blogs/every-feature.data'), 'utf8');
    expect(data).toContain('Writing on the Site Itself');
    expect(html('blogs/every-feature')).toContain('FIXTUREMARKER-PROSE');
  });
});

describe('the post pages of the fixture', () => {
  it('are conforming HTML (0 errors from tools/html-conformance.ts)', async () => {
    const pages = ['blogs/every-feature', 'es/blogs/every-feature', 'blogs/english-only', 'blogs', 'es/blogs'];
    const errors: string[] = [];
    for (const page of pages) errors.push(...(await htmlErrors(html(page), page)));
    expect(errors, errors.join('\n')).toEqual([]);
  });

  it("are listed on their language's /blogs before the external articles, opening in the same tab", () => {
    const blogs = html('blogs');
    expect(blogs).toMatch(
      /<a class="card blog-card"[^>]* href="\/blogs\/every-feature"[^>]*><h2 class="card-title"><bdi>Writing on the Site Itself<\/bdi><\/h2>/,
    );
    expect(blogs).not.toMatch(/href="\/blogs\/every-feature"[^>]*target=/);
    expect(blogs.indexOf('/blogs/every-feature')).toBeLessThan(blogs.indexOf('/blogs/english-only'));
    expect(blogs.indexOf('/blogs/english-only')).toBeLessThan(blogs.indexOf('https://medium.com/'));
    expect(html('es/blogs')).toContain('href="/es/blogs/every-feature"');
    expect(html('es/blogs')).not.toContain('english-only');
  });
});

describe('images', () => {
  it('become AVIF and WebP at a few widths, with srcset, sizes, width, height and lazy loading, in the page and the feed', () => {
    const page = html('blogs/every-feature');
    expect(page).toMatch(
      /<picture><source type="image\/avif" srcset="\/assets\/posts\/diagram-[\w-]+-480\.avif 480w, \/assets\/posts\/diagram-[\w-]+-960\.avif 960w, \/assets\/posts\/diagram-[\w-]+-1200\.avif 1200w" sizes="[^"]+"\/>/,
    );
    expect(page).toMatch(
      /<img src="\/assets\/posts\/diagram-[\w-]+-1200\.webp" alt="A gradient standing in for a diagram" width="1200" height="600" loading="lazy" decoding="async"\/>/,
    );
    expect(page).not.toContain('post-image:');
    for (const src of page.match(/\/assets\/posts\/[\w.-]+/g) ?? []) expect(existsSync(client(src)), src).toBe(true);
    expect(readFileSync(client('feed.xml'), 'utf8')).toContain('&#60;picture&#62;&#60;source type=&#34;image/avif&#34;');
    // The same file as another post's cover: made once, the same files.
    const cover = html('blogs/english-only');
    expect(cover).toMatch(/<div class="post-body" data-post-body=""><p class="post-cover"><picture><source type="image\/avif"/);
    expect(cover).toMatch(
      /<img src="\/assets\/posts\/diagram-[\w-]+-1200\.webp" alt="A diagram of the build: Markdown in, pages, feed and search index out" width="1200" height="600" loading="eager" fetchpriority="high" decoding="async"\/>/,
    );
    expect(readdirSync(client('assets/posts'))).toHaveLength(6);
  });
});

describe('tag pages', () => {
  it("list a language's posts with the tag, linked from each post", () => {
    const page = html('blogs/every-feature');
    expect(page).toMatch(/<a class="post-tag" href="\/blogs\/tags\/markdown"[^>]*>markdown<\/a>/);
    expect(html('es/blogs/every-feature')).toMatch(/<a class="post-tag" href="\/es\/blogs\/tags\/markdown"/);
    const tag = html('blogs/tags/markdown');
    expect(tag).toContain('<h1 id="tag-title">Posts tagged “markdown”</h1>');
    expect(tag).toContain('href="/blogs/every-feature"');
    expect(tag).not.toContain('href="/blogs/english-only"');
    expect(html('blogs/tags/notes')).toContain('href="/blogs/english-only"');
    expect(html('es/blogs/tags/markdown')).toContain('Artículos con la etiqueta «markdown»');
    expect(existsSync(client('es/blogs/tags/notes/index.html'))).toBe(false);
    // Its switcher leads to the other language's /blogs when that language has no post with the tag.
    expect(html('blogs/tags/notes')).toMatch(/<a href="\/es\/blogs" lang="es"/);
  });

  it('take a tag in any script: its page at the address as written, every link to it percent-encoded', () => {
    // A Hebrew tag on an English post and an Arabic one on a Spanish post (scripts without case, kept as written).
    const hebrew = encodeURIComponent('הערות');
    const arabic = encodeURIComponent('ملاحظات');
    expect(html('blogs/english-only')).toContain(`<a class="post-tag" href="/blogs/tags/${hebrew}" data-discover="true">הערות</a>`);
    expect(html('es/blogs/every-feature')).toContain(`href="/es/blogs/tags/${arabic}"`);
    expect(html('blogs/tags/הערות')).toContain('href="/blogs/english-only"');
    expect(html('blogs/tags/הערות')).toMatch(new RegExp(`<link rel="canonical" href="https://[^"]+/blogs/tags/${hebrew}"/>`));
    expect(html('es/blogs/tags/ملاحظات')).toContain('href="/es/blogs/every-feature"');
    expect(existsSync(client('blogs/tags/ملاحظات/index.html'))).toBe(false);
  });

  it('are conforming HTML', async () => {
    const errors: string[] = [];
    for (const page of ['blogs/tags/markdown', 'es/blogs/tags/markdown', 'blogs/tags/notes', 'blogs/tags/הערות'])
      errors.push(...(await htmlErrors(html(page), page)));
    expect(errors, errors.join('\n')).toEqual([]);
  });
});

describe('feeds and the sitemap', () => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    isArray: (name) => ['entry', 'category', 'link'].includes(name),
  });
  type Entry = {
    title: string;
    id: string;
    link: { '@href': string; '@rel'?: string }[];
    category?: { '@term': string }[];
    content?: { '#text': string; '@type': string };
  };
  const feed = (file: string) =>
    (
      parser.parse(readFileSync(client(file), 'utf8')) as {
        feed: { title: string; entry: Entry[]; link?: { '@href': string; '@rel'?: string }[]; '@xml:lang': string };
      }
    ).feed;

  it('each language has an Atom feed with its posts (full text) and the external articles marked as such', () => {
    const en = feed('feed.xml');
    expect(en['@xml:lang']).toBe('en');
    expect(en.entry.map((e) => e.title)).toEqual([
      'Writing on the Site Itself',
      'A Post in English Only',
      'Prerendering a React Site Without a Server',
      'A Contact Form on AWS for Pennies a Month',
      'Accessibility Checks That Fit in a Sprint',
    ]);
    const post = en.entry[0]!;
    expect(post.link[0]!['@href']).toMatch(/^https:\/\/[^/]+\/blogs\/every-feature$/);
    expect(post.content?.['@type']).toBe('html');
    expect(post.content?.['#text']).toContain('FIXTUREMARKER-PROSE');
    expect(post.category?.map((c) => c['@term'])).toEqual(['markdown', 'build-time']);
    expect(en.entry[1]!.category?.map((c) => c['@term'])).toEqual(['notes', 'הערות']);
    for (const external of en.entry.slice(2)) expect(external.category?.map((c) => c['@term'])).toEqual(['external']);
    const es = feed('es/feed.xml');
    expect(es.entry.map((e) => e.link[0]!['@href']).filter((href) => href.includes('/blogs/'))).toEqual([
      expect.stringMatching(/\/es\/blogs\/every-feature$/),
    ]);
    expect(existsSync(client('feed.xml.data'))).toBe(false);
    expect(existsSync(client('es/feed.xml.data'))).toBe(false);
  });

  it('every link and image in an entry resolves from a feed reader: absolute, to a file and an id the build has', () => {
    let checked = 0;
    for (const file of ['feed.xml', 'es/feed.xml']) {
      const self = new URL(feed(file).link!.find((l) => l['@rel'] === 'self')!['@href']);
      for (const entry of feed(file).entry.filter((e) => e.content)) {
        // The parser leaves the feed's numeric character references (&#60;) as written.
        const body = entry.content!['#text'].replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
        const references = [
          ...[...body.matchAll(/<[a-z][^>]*\s(?:href|src)="([^"]*)"/gi)].map((m) => m[1]!),
          ...[...body.matchAll(/\ssrcset="([^"]*)"/g)].flatMap((m) => m[1]!.split(',').map((c) => c.trim().split(/\s+/)[0]!)),
        ];
        for (const reference of references) {
          // What a reader that ignores xml:base does: resolve against the feed's own address.
          const url = new URL(reference.replaceAll('&amp;', '&'), self);
          expect(reference, `${file}: ${reference} is relative`).toMatch(/^(https:|mailto:)/);
          if (url.origin !== self.origin) continue;
          const page = url.pathname.startsWith('/assets/') ? client(url.pathname) : client(url.pathname, 'index.html');
          expect(existsSync(page), `${file}: ${reference} is not in the build`).toBe(true);
          if (url.hash)
            expect(readFileSync(page, 'utf8'), `${file}: ${reference} has no such id`).toContain(
              ` id="${decodeURIComponent(url.hash.slice(1))}"`,
            );
          checked += 1;
        }
      }
    }
    // The fixture posts' headings, footnotes, images and a link to a page of the site.
    expect(checked).toBeGreaterThan(10);
  });

  it("every page links its language's feed in its head, /blogs in its body", () => {
    expect(html('home')).toContain('<link rel="alternate" type="application/atom+xml" title="Alex Example" href="/feed.xml"/>');
    expect(html('es/blogs/every-feature')).toContain('type="application/atom+xml" title="Alex Example" href="/es/feed.xml"/>');
    expect(html('blogs')).toMatch(/<a href="\/feed\.xml" type="application\/atom\+xml">/);
  });

  it('the sitemap lists each post in its languages, with alternates only among them', () => {
    const sitemap = readFileSync(client('sitemap.xml'), 'utf8');
    const urls = [...sitemap.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1]!);
    const entry = (path: string) => urls.find((u) => new RegExp(`<loc>https://[^<]+${path}</loc>`).test(u));
    expect(entry('/blogs/every-feature')).toMatch(/hreflang="es" href="https:\/\/[^"]+\/es\/blogs\/every-feature"/);
    expect(entry('/es/blogs/every-feature')).toBeDefined();
    expect(entry('/blogs/english-only')).not.toContain('hreflang');
    expect(entry('/es/blogs/english-only')).toBeUndefined();
    expect(sitemap).not.toContain('work-in-progress');
  });

  it("the sitemap lists each language's tag pages, without alternates, and only pages the build has", () => {
    const sitemap = readFileSync(client('sitemap.xml'), 'utf8');
    const urls = [...sitemap.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1]!);
    // Written percent-encoded (a sitemap takes RFC 3986 addresses only), read back decoded.
    expect(sitemap).toContain(`/blogs/tags/${encodeURIComponent('הערות')}</loc>`);
    expect(sitemap).not.toMatch(/\p{Script=Hebrew}|\p{Script=Arabic}/u);
    const locs = urls.map((u) => decodeURIComponent(new URL(/<loc>([^<]+)<\/loc>/.exec(u)![1]!).pathname));
    expect(locs.filter((loc) => loc.includes('/tags/')).sort()).toEqual(
      [
        '/blogs/tags/build-time',
        '/blogs/tags/markdown',
        '/blogs/tags/notes',
        '/blogs/tags/הערות',
        '/es/blogs/tags/build-time',
        '/es/blogs/tags/markdown',
        '/es/blogs/tags/ملاحظات',
      ].sort(),
    );
    for (const url of urls.filter((u) => u.includes('/tags/'))) expect(url).not.toContain('hreflang');
    // Every address it lists is a page of the build (a tag's page included).
    for (const loc of locs) expect(existsSync(client(loc, 'index.html')), loc).toBe(true);
  });
});
