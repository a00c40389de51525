import { pathOf } from '../../../contract/site-routes';
import { loadCatalogue } from '../../content/check';
import { localizePath } from '../i18n/paths';
import { escapeXml } from '../xml';
import { absoluteUrl } from '../layout/seo';
import { absoluteReferences } from '../posts/absolute-references';
import { allPosts, type Post } from '../posts/posts.server';
import type { BlogArticle } from '../../content/types';
import { localeOfRequest } from '../base-path';

/** Atom's dates are RFC 3339 date-times (https://www.rfc-editor.org/rfc/rfc4287#section-3.3): midnight UTC of the day. */
const atomDate = (isoDate: string) => `${isoDate}T00:00:00Z`;

export interface FeedInput {
  locale: string;
  title: string;
  author: string;
  posts: readonly Pick<Post, 'slug' | 'frontMatter' | 'html'>[];
  articles: readonly BlogArticle[];
}

/** One entry of the feed; `more`: its lines after the summary (categories, the content). */
function entry(title: string, url: string, published: string, updated: string, summary: string, more: readonly string[]): string {
  return [
    '  <entry>',
    `    <title>${escapeXml(title)}</title>`,
    `    <id>${escapeXml(url)}</id>`,
    `    <link rel="alternate" type="text/html" href="${escapeXml(url)}"/>`,
    `    <published>${atomDate(published)}</published>`,
    `    <updated>${atomDate(updated)}</updated>`,
    `    <summary>${escapeXml(summary)}</summary>`,
    ...more,
    '  </entry>',
  ].join('\n');
}

/**
 * A language's Atom feed (RFC 4287): its on-site posts with their full text, and the external articles,
 * each marked with the category "external" and linking to the publisher's page. Newest first. A post's
 * links and images are absolute (a reader shows the entry away from the site): its HTML holds its images'
 * `<picture>`s already (made in the Markdown step), whose addresses are made absolute with the rest.
 */
export function feedXml({ locale, title, author, posts, articles }: FeedInput): string {
  const self = absoluteUrl(localizePath(locale, '/feed.xml'));
  const entries = [
    ...posts.map(({ slug, html, frontMatter: fm }) => {
      const url = absoluteUrl(localizePath(locale, pathOf('post', slug)));
      const date = fm.updated ?? fm.published;
      return {
        date,
        xml: entry(fm.title, url, fm.published, date, fm.description, [
          ...fm.tags.map((tag) => `    <category term="${escapeXml(tag)}"/>`),
          `    <content type="html">${escapeXml(absoluteReferences(html, url))}</content>`,
        ]),
      };
    }),
    ...articles.map((article) => ({
      date: article.published,
      xml: entry(article.title, article.url, article.published, article.published, article.description, [
        '    <category term="external" label="Published on another site"/>',
      ]),
    })),
  ].sort((a, b) => b.date.localeCompare(a.date));
  const updated = entries[0]?.date ?? '1970-01-01';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${escapeXml(locale)}">`,
    `  <title>${escapeXml(title)}</title>`,
    `  <id>${escapeXml(self)}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(absoluteUrl(localizePath(locale, '/blogs')))}"/>`,
    `  <updated>${atomDate(updated)}</updated>`,
    `  <author><name>${escapeXml(author)}</name></author>`,
    ...entries.map((e) => e.xml),
    '</feed>',
    '',
  ].join('\n');
}

/** Prerendered to /feed.xml and /es/feed.xml (resource routes, one per language). */
export async function loader({ request }: { request: Request }) {
  const locale = localeOfRequest(request);
  const catalogue = await loadCatalogue(locale);
  const posts = (await allPosts()).filter((post) => post.locale === locale);
  const xml = feedXml({
    locale,
    title: `${catalogue.ui.blogs.title} | ${catalogue.site.name}`,
    author: catalogue.site.name,
    posts,
    articles: catalogue.blogs,
  });
  return new Response(xml, { headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' } });
}
