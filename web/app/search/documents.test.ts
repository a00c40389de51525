import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../content/check';
import { LOCALE_CODES } from '../../content/locales';
import { compilePosts } from '../posts/posts.server';
import { searchDocuments, textOfHtml } from './documents';
import { buildIndex, loadIndex, searchIn } from './engine';

const FACTS = { messageRetentionDays: 365, logRetentionDays: 30 };

const POST = (draft: boolean, title: string) => `---
title: ${title}
description: A post about search.
published: 2026-01-02
tags: [search, web]
draft: ${draft}
---

Paragraph with **Pagefind** &amp; friends.
`;

describe('searchDocuments', () => {
  it('holds every page, project and article of a language, at its own paths', async () => {
    for (const locale of LOCALE_CODES) {
      const catalogue = await loadCatalogue(locale);
      const documents = await searchDocuments(locale, FACTS, []);
      const prefix = locale === 'en' ? '' : `/${locale}`;
      const ids = documents.map((document) => document.id);
      expect(ids).toEqual(
        expect.arrayContaining(['/home', '/projects', '/blogs', '/contact', '/about', '/privacy-policy'].map((path) => prefix + path)),
      );
      for (const project of catalogue.projects) {
        expect(documents).toContainEqual(
          expect.objectContaining({ id: `${prefix}/projects/${project.id}`, kind: 'project', title: project.title, tags: project.tech }),
        );
      }
      for (const article of catalogue.blogs) {
        expect(documents).toContainEqual(
          expect.objectContaining({ id: `${prefix}/blogs#article-${article.id}`, kind: 'article', title: article.title }),
        );
      }
      expect(ids.some((id) => id.endsWith('/error') || id.includes('*'))).toBe(false);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('holds the posts of its language, words of their text and tags included; never a draft', async () => {
    const posts = await compilePosts(
      {
        'web/content/posts/finding-things.md': POST(false, 'Finding things'),
        'web/content/posts/secret-plan.md': POST(true, 'Secret plan'),
        'web/content/es/posts/encontrar.md': POST(false, 'Encontrar cosas'),
      },
      { drafts: false, locales: LOCALE_CODES },
    );
    const english = await searchDocuments('en', FACTS, posts);
    const post = english.find((document) => document.kind === 'post');
    expect(post).toMatchObject({ id: '/blogs/finding-things', title: 'Finding things', tags: 'search web' });
    expect(post?.text).toContain('Paragraph with Pagefind & friends.');
    expect(english.filter((document) => document.kind === 'post')).toHaveLength(1);
    expect(
      (await searchDocuments('es', FACTS, posts)).filter((document) => document.kind === 'post').map((document) => document.id),
    ).toEqual(['/es/blogs/encontrar']);

    const index = loadIndex(buildIndex(english));
    expect(searchIn(index, 'pagefnd').map((hit) => hit.id)).toEqual(['/blogs/finding-things']);
    expect(searchIn(index, 'secret')).toEqual([]);
  });

  it("writes the privacy policy's configured facts into its text", async () => {
    const policy = (await searchDocuments('en', { messageRetentionDays: 123, logRetentionDays: 30 }, [])).find(
      (document) => document.id === '/privacy-policy',
    );
    expect(policy?.text).toContain('123');
  });
});

describe('textOfHtml', () => {
  it('keeps the words a reader sees', () => {
    expect(textOfHtml('<h2 id="a">Title</h2>\n<p>One &amp; <code>two</code>&nbsp;&lt;three&gt;</p><script>x()</script>')).toBe(
      'Title One & two <three>',
    );
  });
});
