import { data } from 'react-router';
import { projectPageEvent } from '../../../contract/page-events';
import { pathOf, type PagePattern } from '../../../contract/site-routes';
import { loadCatalogue } from '../../content/check';
import { findProjectIn } from '../../content/find-project';
import { DEFAULT_LOCALE } from '../../content/locales';
import type {
  BlogArticle,
  Catalogue,
  PageCopy,
  PageOnlyContent,
  PolicyFacts,
  Project,
  ProjectCard,
  WrittenPrivacyPolicy,
} from '../../content/types';
import { pageFacts } from '../config/page-facts';
import type { PageHead } from '../layout/seo';
import type { TocEntry } from '../posts/markdown.server';
import { allPosts, postKey } from '../posts/posts.server';
import { formatDate, formatNumber } from '../i18n/format';
import { localizePath } from '../i18n/paths';
import { localeOfRequest } from '../base-path';
import { pageOf, summaryOf, writePolicy, type EntityOf } from './page-summaries.server';

/*
 * For routes' `loader`s, which run at build time when a page is prerendered and are never shipped to
 * the browser: a page's own texts, in the language of its path. The data is written into that page
 * (and its .data file, for client navigations), so no other page carries it.
 */

/** Everything the language of the page's path shows. */
export function catalogueOfPage(request: Request): Promise<Catalogue> {
  return loadCatalogue(localeOfRequest(request));
}

/**
 * The page's summary (page-summaries.server.ts) as its head needs it, structured data included: built
 * here at build time, so the builders never ship; the page's `meta` writes it (seo.ts `summaryMeta`).
 */
export async function headOfPage<P extends PagePattern>(
  request: Request,
  pattern: P,
  ...[entity]: EntityOf<P> extends undefined ? [] : [EntityOf<P>]
): Promise<PageHead> {
  const { path, title, description, type, noindex, structuredData } = summaryOf(
    pattern,
    await pageOf(localeOfRequest(request)),
    entity as EntityOf<P>,
  );
  return {
    path,
    title,
    description,
    ...(type ? { type } : {}),
    ...(noindex ? { noindex } : {}),
    ...(structuredData ? { structuredData } : {}),
  };
}

/** The owner's copy of a page as the page shows it: its description is in its head (headOfPage) only. */
export type ShownCopy<P extends keyof PageCopy> = Omit<PageCopy[P], 'description'>;
const shown = <P extends keyof PageCopy>({ description: _description, ...copy }: PageCopy[P]): ShownCopy<P> => copy;

/** The owner's copy of one page, and the page's own long texts named in `texts`: pageCopy(request, 'about', 'about'). */
export async function pageCopy<P extends keyof PageCopy, K extends PageOnlyContent = never>(
  request: Request,
  page: P,
  ...texts: K[]
): Promise<{ copy: ShownCopy<P> } & Pick<Catalogue, K>> {
  const catalogue = await catalogueOfPage(request);
  const picked = Object.fromEntries(texts.map((key) => [key, catalogue[key]])) as Pick<Catalogue, K>;
  return { copy: shown<P>(catalogue.pages[page]), ...picked };
}

/**
 * Gives each project or article the default language's title: analytics events are named by it on
 * every language's page, so a project's counts do not split by language.
 */
async function withEventTitles<T extends { id: number }>(kind: 'projects' | 'blogs', items: readonly T[]): Promise<WithEventTitle<T>[]> {
  const defaults = (await loadCatalogue(DEFAULT_LOCALE))[kind];
  return items.map((item) => {
    const title = defaults.find((d) => d.id === item.id)?.title;
    if (title === undefined) throw new Error(`No ${kind} entry with id ${item.id} in the default language (web/content).`);
    return { ...item, eventTitle: title };
  });
}

export type WithEventTitle<T> = T & { eventTitle: string };

/**
 * /projects: its copy and every project's card with its page's address, without the detail pages'
 * descriptions, and without the cards' long texts, which only the page's HTML carries (page-texts.server.ts).
 */
export async function projectCards(
  request: Request,
): Promise<{ copy: ShownCopy<'projects'>; projects: WithEventTitle<ProjectCard & { href: string }>[] }> {
  const { pages, projects } = await catalogueOfPage(request);
  const href = (id: number) => localizePath(localeOfRequest(request), pathOf('project', id));
  const cards = projects.map(
    ({ description: _description, site: _site, github: _github, problem: _problem, solution: _solution, ...card }) => ({
      ...card,
      href: href(card.id),
    }),
  );
  return { copy: shown<'projects'>(pages.projects), projects: await withEventTitles('projects', cards) };
}

/**
 * /projects/:projectId: that one project. Only known ids are prerendered; any other id has no data
 * file, so the browser's request for it gets a 404, as the thrown response says here. `pageEvent` is
 * the page's Google Analytics event name, made from the default language's title by GA4's rules
 * (contract/page-events.ts; the build checks that each project's is its own).
 */
export async function projectOfPage(
  request: Request,
  param: string | undefined,
  /** The repository the page shows, if any: the structured data names the same one. */
  repositoryOf: (project: Project) => string | undefined,
): Promise<{ project: WithEventTitle<Project>; pageEvent: string; page: PageHead }> {
  const project = findProjectIn((await catalogueOfPage(request)).projects, param);
  if (!project) throw data(null, { status: 404 });
  const [withTitle] = await withEventTitles('projects', [project]);
  return {
    project: withTitle!,
    pageEvent: projectPageEvent(withTitle!.eventTitle),
    page: await headOfPage(request, '/projects/:projectId', { project, repository: repositoryOf(project) }),
  };
}

/** An on-site post's card on /blogs (and its language's tag pages): what the card shows and where it goes. */
export interface PostCard {
  slug: string;
  href: string;
  title: string;
  description: string;
  published: string;
  publishedText: string;
  minutesText: string;
  /** The default language's title of the post when it has one: its BLOG_READ event's name in every language. */
  eventTitle: string;
}

/**
 * /blogs: its copy, the on-site posts of its language (newest first) and the external articles, each
 * with its analytics title and its date and length written out.
 */
export async function blogArticles(request: Request): Promise<{
  copy: ShownCopy<'blogs'>;
  posts: PostCard[];
  blogs: WithEventTitle<BlogArticle & { publishedText: string; minutesText: string }>[];
}> {
  const locale = localeOfRequest(request);
  const { pages, blogs } = await catalogueOfPage(request);
  const written = blogs.map((blog) => ({
    ...blog,
    publishedText: formatDate(locale, blog.published),
    minutesText: formatNumber(locale, blog.minutes),
  }));
  return { copy: shown<'blogs'>(pages.blogs), posts: await postCards(locale), blogs: await withEventTitles('blogs', written) };
}

/** The cards of a language's posts, newest first; with `tag`, only the posts that have it. */
async function postCards(locale: string, tag?: string): Promise<PostCard[]> {
  const posts = await allPosts();
  return posts
    .filter((post) => post.locale === locale && (tag === undefined || post.frontMatter.tags.includes(tag)))
    .map((post): PostCard => ({
      slug: post.slug,
      href: localizePath(locale, pathOf('post', post.slug)),
      title: post.frontMatter.title,
      description: post.frontMatter.description,
      published: post.frontMatter.published,
      publishedText: formatDate(locale, post.frontMatter.published),
      minutesText: formatNumber(locale, post.minutes),
      eventTitle: posts.find((p) => p.locale === DEFAULT_LOCALE && p.slug === post.slug)?.frontMatter.title ?? post.frontMatter.title,
    }));
}

/** /blogs/tags/:tag: the language's posts with that tag; a tag no post of the language has is a 404. */
export async function postsWithTag(
  request: Request,
  tag: string | undefined,
): Promise<{ tag: string; posts: PostCard[]; translations: string[]; page: PageHead }> {
  const locale = localeOfRequest(request);
  const posts = tag === undefined ? [] : await postCards(locale, tag);
  if (posts.length === 0) throw data(null, { status: 404 });
  // The languages with a post of this tag: the language switcher leads elsewhere to /blogs.
  const translations = [...new Set((await allPosts()).filter((post) => post.frontMatter.tags.includes(tag!)).map((post) => post.locale))];
  const page = await headOfPage(request, '/blogs/tags/:tag', { tag: tag!, titles: posts.map((post) => post.title) });
  return { tag: tag!, posts, translations, page };
}

/** /privacy-policy: its copy and the policy, written out with this build's configuration (page-facts.ts), and its date. */
export async function privacyPolicyOfPage(
  request: Request,
  facts: PolicyFacts = pageFacts,
): Promise<{ copy: ShownCopy<'privacy'>; privacyPolicy: WrittenPrivacyPolicy; lastUpdatedText: string; revisedText?: string }> {
  const { copy, privacyPolicy } = await pageCopy(request, 'privacy', 'privacyPolicy');
  const locale = localeOfRequest(request);
  const lastUpdatedText = formatDate(locale, privacyPolicy.lastUpdated);
  const revisedText = privacyPolicy.revised === undefined ? undefined : formatDate(locale, privacyPolicy.revised);
  return { copy, privacyPolicy: writePolicy(privacyPolicy, facts), lastUpdatedText, ...(revisedText === undefined ? {} : { revisedText }) };
}

/** What a post's page shows besides its text (which only its HTML carries: posts/PostBody.tsx). */
export interface PostPage {
  key: string;
  slug: string;
  title: string;
  description: string;
  published: string;
  publishedText: string;
  updated?: string;
  updatedText?: string;
  tags: string[];
  minutesText: string;
  toc: TocEntry[];
}

/**
 * /blogs/:slug: the post's facts in its language, the languages it is written in (hreflang, and where
 * the language switcher goes) and its BlogPosting structured data, all built here at build time.
 * A slug with no post in the page's language has no page and no data file: a 404.
 */
export async function postOfPage(
  request: Request,
  slug: string | undefined,
): Promise<{ post: PostPage; translations: string[]; page: PageHead; html?: string }> {
  const locale = localeOfRequest(request);
  const posts = await allPosts();
  const post = posts.find((p) => p.locale === locale && p.slug === slug);
  if (!post) throw data(null, { status: 404 });
  const { title, description, published, updated, tags } = post.frontMatter;
  return {
    post: {
      key: postKey(locale, post.slug),
      slug: post.slug,
      title,
      description,
      published,
      publishedText: formatDate(locale, published),
      ...(updated ? { updated, updatedText: formatDate(locale, updated) } : {}),
      tags,
      minutesText: formatNumber(locale, post.minutes),
      toc: post.toc,
    },
    translations: posts.filter((p) => p.slug === post.slug).map((p) => p.locale),
    // `npm run dev` renders pages in the browser (nothing prerendered): there, and only there, the text
    // comes with the data. A build never has it (import.meta.env.DEV is false; posts-build.test.ts checks).
    ...(import.meta.env.DEV ? { html: post.html } : {}),
    page: await headOfPage(request, '/blogs/:slug', post),
  };
}
