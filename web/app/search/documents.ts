import { loadCatalogue } from '../../content/check';
import type { Catalogue, PolicyFacts } from '../../content/types';
import { pageFacts } from '../config/page-facts';
import { localizePath } from '../i18n/paths';
import { allPosts, type Post } from '../posts/posts.server';
import { writePolicy } from '../routes/page-content';
import type { SearchDocument } from './engine';

/*
 * What search finds in one language, read at build time from the same modules the pages are built from
 * (the language's catalogue and its posts), never from a list kept by hand: a project, page or post the
 * owner adds is searchable at the next build. A draft is never in a build (posts.server.ts), and the
 * pages marked noindex (/error, the not-found page) are not documents here.
 */

/** Tags, entities and runs of white space out of a post's compiled HTML: its words, as a reader sees them. */
export function textOfHtml(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

const join = (...parts: readonly (string | undefined)[]) => parts.filter(Boolean).join(' ');

/** The language's own pages (kind "page"), projects and external articles, from its catalogue. */
function catalogueDocuments(locale: string, catalogue: Catalogue, facts: PolicyFacts): SearchDocument[] {
  const { ui, pages, about } = catalogue;
  const at = (path: string) => localizePath(locale, path);
  const policy = writePolicy(catalogue.privacyPolicy, facts);
  return [
    { id: at('/home'), kind: 'page', title: pages.home.headline, text: join(pages.home.intro.join(' '), pages.home.description) },
    { id: at('/projects'), kind: 'page', title: ui.menu.Projects, text: join(pages.projects.intro, pages.projects.description) },
    ...catalogue.projects.map((project) => ({
      id: at(`/projects/${project.id}`),
      kind: 'project' as const,
      title: project.title,
      tags: project.tech,
      text: join(project.problem, project.solution, project.description),
    })),
    { id: at('/blogs'), kind: 'page', title: ui.menu.Blogs, text: join(pages.blogs.intro, pages.blogs.description) },
    // An external article has no page of its own here: its result opens /blogs, where its card links out.
    ...catalogue.blogs.map((article) => ({ id: `${at('/blogs')}#article-${article.id}`, kind: 'article' as const, title: article.title, text: article.description })),
    { id: at('/contact'), kind: 'page', title: ui.menu.Contact, text: join(pages.contact.intro, pages.contact.description) },
    {
      id: at('/about'),
      kind: 'page',
      title: ui.menu.About,
      tags: join(about.technologies, about.tools, about.practices),
      text: join(about.intro.join(' '), ...about.education.map((entry) => join(entry.title, entry.school, entry.detail))),
    },
    {
      id: at('/privacy-policy'),
      kind: 'page',
      title: ui.privacy.title,
      text: join(pages.privacy.description, ...policy.sections.flatMap((section) => [section.heading, ...section.paragraphs, ...(section.list ?? [])])),
    },
  ];
}

function postDocument(post: Post): SearchDocument {
  const { title, description, tags } = post.frontMatter;
  return { id: localizePath(post.locale, `/blogs/${post.slug}`), kind: 'post', title, tags: tags.join(' '), text: join(description, textOfHtml(post.html)) };
}

/** Every searchable page of one language, in the order the site lists them (posts newest first). */
export async function searchDocuments(locale: string, facts: PolicyFacts = pageFacts, posts?: readonly Post[]): Promise<SearchDocument[]> {
  const catalogue = await loadCatalogue(locale);
  const ownPosts = (posts ?? (await allPosts())).filter((post) => post.locale === locale);
  const documents = catalogueDocuments(locale, catalogue, facts);
  const blogsAt = documents.findIndex((document) => document.id === localizePath(locale, '/blogs'));
  documents.splice(blogsAt + 1, 0, ...ownPosts.map(postDocument));
  return documents;
}

