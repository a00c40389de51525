// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { absoluteReferences } from './absolute-references';

const BASE = 'https://example.com/blogs/hello';

describe('absoluteReferences', () => {
  it('resolves anchors, site paths, relative paths and each srcset candidate against the post', () => {
    const html =
      '<h2 id="a"><a href="#a">A</a></h2><sup><a href="#fn-1" id="ref-1">1</a></sup><a href="/projects/2">p</a><a href="other">o</a>' +
      '<picture><source srcset="/assets/posts/x-480.avif 480w, /assets/posts/x-960.avif 960w" sizes="100vw"/><img src="/assets/posts/x.webp" alt=""/></picture>';
    expect(absoluteReferences(html, BASE)).toBe(
      '<h2 id="a"><a href="https://example.com/blogs/hello#a">A</a></h2><sup><a href="https://example.com/blogs/hello#fn-1" id="ref-1">1</a></sup>' +
        '<a href="https://example.com/projects/2">p</a><a href="https://example.com/blogs/other">o</a>' +
        '<picture><source srcset="https://example.com/assets/posts/x-480.avif 480w, https://example.com/assets/posts/x-960.avif 960w" sizes="100vw"/>' +
        '<img src="https://example.com/assets/posts/x.webp" alt=""/></picture>',
    );
  });

  it('leaves absolute and mailto references as written, and keeps escaped ampersands escaped', () => {
    const html = '<a href="https://Other.example/a b">x</a><a href="mailto:a@b.c">m</a><a href="/search?q=1&amp;p=2">s</a>';
    expect(absoluteReferences(html, BASE)).toBe(
      '<a href="https://Other.example/a b">x</a><a href="mailto:a@b.c">m</a><a href="https://example.com/search?q=1&amp;p=2">s</a>',
    );
  });

  it('leaves text that merely mentions href= alone', () => {
    expect(absoluteReferences('<p>write href="#x" in a link</p>', BASE)).toBe('<p>write href="#x" in a link</p>');
  });

  it('resolves to site paths when the site has no address (a build without a site URL)', () => {
    expect(absoluteReferences('<a href="#a">A</a><img src="x.webp" alt=""/>', '/es/blogs/hello')).toBe(
      '<a href="/es/blogs/hello#a">A</a><img src="/es/blogs/x.webp" alt=""/>',
    );
  });
});
