import { SITE_PAGES, type PageKind } from '../../../contract/site-routes';
import type { PolicyFacts } from '../../content/types';
import { pageFacts } from '../config/page-facts';
import { localizePath } from '../i18n/paths';
import { allPosts, type Post } from '../posts/posts.server';
import { pageOf, summaryOf, type PageSummary } from '../routes/page-summaries.server';
import type { SearchDocument, SearchKind } from './engine';

export { textOfHtml } from '../routes/page-summaries.server';

/*
 * What search finds in one language: each page of the page table (contract/site-routes.ts) whose summary
 * (routes/page-summaries.server.ts) makes it a search document, read at build time from the same
 * catalogue and posts the pages are built from, never from a list kept by hand: a page, project or post
 * the owner adds is searchable at the next build. A draft is never in a build (posts.server.ts), and the
 * pages marked noindex (/error, the not-found page) are not documents here.
 */

const SEARCH_KINDS: Record<PageKind, SearchKind> = { fixed: 'page', project: 'project', post: 'post', tag: 'page', error: 'page' };

function document(locale: string, kind: PageKind, summary: PageSummary): SearchDocument[] {
  if (!summary.search || summary.noindex) return [];
  const { text, tags } = summary.search();
  return [
    {
      id: localizePath(locale, summary.path),
      kind: SEARCH_KINDS[kind],
      title: summary.headline ?? summary.title,
      ...(tags === undefined ? {} : { tags }),
      text,
    },
  ];
}

/** Every searchable page of one language, in the table's order (posts newest first), then the external articles. */
export async function searchDocuments(locale: string, facts: PolicyFacts = pageFacts, posts?: readonly Post[]): Promise<SearchDocument[]> {
  const page = await pageOf(locale, facts);
  const { catalogue } = page;
  const entities = {
    fixed: [undefined],
    project: catalogue.projects.map((project) => ({ project })),
    post: (posts ?? (await allPosts())).filter((post) => post.locale === locale),
    tag: [],
    error: [undefined],
  };
  const pages = SITE_PAGES.flatMap(({ pattern, kind }) =>
    entities[kind].flatMap((entity: unknown) => document(locale, kind, summaryOf(pattern, page, entity as never))),
  );
  // An external article has no page of its own here: its result opens /blogs, where its card links out.
  const articles = catalogue.blogs.map((article) => ({
    id: `${localizePath(locale, '/blogs')}#article-${article.id}`,
    kind: 'article' as const,
    title: article.title,
    text: article.description,
  }));
  return [...pages, ...articles];
}
