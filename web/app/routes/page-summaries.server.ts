import { pathOf, patternOfPath, SITE_PAGES, type PagePattern } from '../../../contract/site-routes';
import { loadCatalogue } from '../../content/check';
import { findProjectIn } from '../../content/find-project';
import type { Catalogue, PolicyFacts, PrivacyPolicy, Project, WrittenPrivacyPolicy } from '../../content/types';
import { pageFacts } from '../config/page-facts';
import { localeOfPath, localizePath, unlocalizePath } from '../i18n/paths';
import { absoluteUrl, previewImagePath, type PageHead } from '../layout/seo';
import { blogPostingJsonLd, ownerPageJsonLd, projectJsonLd } from '../layout/structured-data';
import { allPosts, type Post } from '../posts/posts.server';

/*
 * One summary per pattern of the page table (contract/site-routes.ts): what a page is called and says,
 * what it is, how search finds it, and its structured data. The pages' heads (through their loaders'
 * data, seo.ts `summaryMeta`), the preview cards, the search index and the JSON-LD all read it. Built at
 * build time only: the table is data the browser loads, and these builders never ship.
 */

/** A page's language, its catalogue, and the facts its policy is written out with. */
export interface PageOf {
  locale: string;
  catalogue: Catalogue;
  facts: PolicyFacts;
}

export interface PageSummary extends PageHead {
  /** What the preview card and a search result lead with, when it is not the title (the home page's is ''). */
  headline?: string;
  /** The preview card's line above the title. */
  kicker?: string;
  /** The page as a search document; none for a page that is not one (it lists others, or is noindex). */
  search?: () => { text: string; tags?: string };
}

/** What a page of a content kind is made from (as its loader finds it: entityOf). */
interface Entities {
  project: { project: Project; repository?: string };
  post: Post;
  /** A tag and the titles of its language's posts that have it. */
  tag: { tag: string; titles: readonly string[] };
}
export type EntityOf<P extends PagePattern> = Extract<(typeof SITE_PAGES)[number], { pattern: P }>['kind'] extends infer K extends string
  ? K extends keyof Entities
    ? Entities[K]
    : undefined
  : never;

/** A pattern's summary of one of its pages; a pattern with no parameter is the page's path. */
export type SummaryOf<P extends PagePattern> = (
  page: PageOf,
  entity: EntityOf<P>,
) => Omit<PageSummary, 'path'> & (P extends `${string}:${string}` | '*' ? Pick<PageSummary, 'path'> : { path?: never });

const join = (...parts: readonly (string | undefined)[]) => parts.filter(Boolean).join(' ');

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

/** The policy with every paragraph written out with the configured facts (how long messages are kept). */
export function writePolicy(policy: PrivacyPolicy, facts: PolicyFacts): WrittenPrivacyPolicy {
  return {
    lastUpdated: policy.lastUpdated,
    revised: policy.revised,
    sections: policy.sections.map(({ paragraphs, ...section }) => ({
      ...section,
      paragraphs: paragraphs.map((text) => (typeof text === 'string' ? text : text(facts))),
    })),
  };
}

export const PAGE_SUMMARIES = {
  // Only redirects: its head is index-redirect.tsx's own (it has no loader, so its clientLoader runs at once).
  '/': ({ catalogue: { siteHead } }) => ({ title: '', description: siteHead.tagline, noindex: true }),
  '/home': (page) => {
    const { pages, headUi } = page.catalogue;
    return {
      title: '',
      headline: pages.home.headline,
      kicker: headUi.home.previewKicker,
      description: pages.home.description,
      type: 'profile',
      structuredData: ownerPageJsonLd('/home', page),
      search: () => ({ text: join(pages.home.intro.join(' '), pages.home.description) }),
    };
  },
  '/projects': ({ catalogue: { pages, ui } }) => ({
    title: ui.projects.title,
    description: pages.projects.description,
    search: () => ({ text: join(pages.projects.intro, pages.projects.description) }),
  }),
  '/projects/:projectId': (page, { project, repository }) => ({
    path: pathOf('project', project.id),
    title: project.title,
    kicker: page.catalogue.headUi.project.previewKicker,
    description: page.catalogue.headUi.project.metaDescription(project.solution, project.tech),
    type: 'article',
    structuredData: projectJsonLd(project, repository, page),
    search: () => ({ text: join(project.problem, project.solution, project.description), tags: project.tech }),
  }),
  '/blogs': ({ catalogue: { pages, ui } }) => ({
    title: ui.blogs.title,
    description: pages.blogs.description,
    search: () => ({ text: join(pages.blogs.intro, pages.blogs.description) }),
  }),
  '/blogs/:slug': (page, post) => {
    const { title, description, published, updated, tags } = post.frontMatter;
    const path = pathOf('post', post.slug);
    // The preview image is drawn at build time (routes/og-png.ts).
    const image = absoluteUrl(previewImagePath(localizePath(page.locale, path)));
    return {
      path,
      title,
      description,
      type: 'article',
      structuredData: blogPostingJsonLd({ slug: post.slug, title, description, published, updated, tags, image }, page),
      search: () => ({ text: join(description, textOfHtml(post.html)), tags: tags.join(' ') }),
    };
  },
  // It lists posts that are search documents themselves.
  '/blogs/tags/:tag': ({ catalogue: { ui } }, { tag, titles }) => ({
    path: pathOf('tag', tag),
    title: ui.blogs.tagged(tag),
    description: titles.join(' · '),
  }),
  '/contact': ({ catalogue: { pages, ui } }) => ({
    title: ui.contact.title,
    description: pages.contact.description,
    search: () => ({ text: join(pages.contact.intro, pages.contact.description) }),
  }),
  '/about': (page) => {
    const { about, pages, ui } = page.catalogue;
    return {
      title: ui.about.title,
      description: pages.about.description,
      type: 'profile',
      structuredData: ownerPageJsonLd('/about', page),
      search: () => ({
        tags: join(about.technologies, about.tools, about.practices),
        text: join(about.intro.join(' '), ...about.education.map((entry) => join(entry.title, entry.school, entry.detail))),
      }),
    };
  },
  '/error': ({ catalogue: { ui, headUi } }) => ({ title: ui.error.title, description: headUi.error.description, noindex: true }),
  '/privacy-policy': ({ catalogue: { pages, privacyPolicy, ui }, facts }) => ({
    title: ui.privacy.title,
    description: pages.privacy.description,
    search: () => ({
      text: join(
        pages.privacy.description,
        ...writePolicy(privacyPolicy, facts).sections.flatMap((section) => [
          section.heading,
          ...section.paragraphs,
          ...(section.list ?? []),
        ]),
      ),
    }),
  }),
  // The list of the search documents, not one of them.
  '/search': ({ catalogue: { search } }) => ({ title: search.title, description: search.description }),
  // Any address: its head is written in the browser (not-found.tsx), its preview is the error page's.
  '*': ({ catalogue: { ui } }) => ({ path: '/error', title: ui.notFound.title, description: ui.notFound.description, noindex: true }),
} satisfies { [P in PagePattern]: SummaryOf<P> };

/** The summary of one page of a pattern. */
export function summaryOf<P extends PagePattern>(pattern: P, page: PageOf, entity: EntityOf<P>): PageSummary {
  const summary = (PAGE_SUMMARIES[pattern] as (page: PageOf, entity: EntityOf<P>) => Omit<PageSummary, 'path'> & { path?: string })(
    page,
    entity,
  );
  return { path: pattern, ...summary };
}

/** The page's language and everything it shows. */
export async function pageOf(locale: string, facts: PolicyFacts = pageFacts): Promise<PageOf> {
  return { locale, catalogue: await loadCatalogue(locale), facts };
}

/** What the page at `param` of a content kind is made from, as the loaders find it; undefined: no such page. */
async function entityOf(pattern: PagePattern, page: PageOf, param: string): Promise<EntityOf<PagePattern> | undefined> {
  const kind = SITE_PAGES.find((p) => p.pattern === pattern)!.kind;
  if (kind === 'project') {
    const project = findProjectIn(page.catalogue.projects, param);
    return project && { project };
  }
  if (kind === 'post') return (await allPosts()).find((post) => post.locale === page.locale && post.slug === param);
  if (kind === 'tag') {
    const titles = (await allPosts())
      .filter((post) => post.locale === page.locale && post.frontMatter.tags.includes(param))
      .map((post) => post.frontMatter.title);
    return titles.length > 0 ? { tag: param, titles } : undefined;
  }
  return undefined;
}

/** The summary of one page (a path with its language prefix: /es/projects/3). */
export async function summaryOfPath(pagePath: string): Promise<PageSummary> {
  const path = unlocalizePath(pagePath);
  const pattern = patternOfPath(path);
  const page = await pageOf(localeOfPath(pagePath));
  const entity = await entityOf(pattern, page, decodeURIComponent(path.split('/').filter(Boolean).at(-1) ?? ''));
  if (pattern.includes(':') && !entity) throw new Error(`No page at ${pagePath}.`);
  return summaryOf(pattern, page, entity as never);
}
