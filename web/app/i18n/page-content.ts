import { data } from 'react-router';
import { loadCatalogue } from '../../content/check';
import { findProjectIn } from '../../content/find-project';
import { DEFAULT_LOCALE } from '../../content/locales';
import type { BlogArticle, Catalogue, PageCopy, PageOnlyContent, Project, ProjectCard } from '../../content/types';
import { formatDate, formatNumber } from './format';
import { localeOfPath } from './paths';

/*
 * For routes' `loader`s, which run at build time when a page is prerendered and are never shipped to
 * the browser: a page's own texts, in the language of its path. The data is written into that page
 * (and its .data file, for client navigations), so no other page carries it.
 */

/** Everything the language of the page's path shows. */
export function catalogueOfPage(request: Request): Promise<Catalogue> {
  return loadCatalogue(localeOfPath(new URL(request.url).pathname));
}

/**
 * The owner's copy of one page (its intro and its description for search results and previews),
 * and the page's own long texts named in `texts`: pageCopy(request, 'privacy', 'privacyPolicy').
 */
export async function pageCopy<P extends keyof PageCopy, K extends PageOnlyContent = never>(
  request: Request,
  page: P,
  ...texts: K[]
): Promise<{ copy: PageCopy[P] } & Pick<Catalogue, K>> {
  const catalogue = await catalogueOfPage(request);
  const picked = Object.fromEntries(texts.map((key) => [key, catalogue[key]])) as Pick<Catalogue, K>;
  return { copy: catalogue.pages[page], ...picked };
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

/** /projects: its copy and every project's card, without the detail pages' descriptions. */
export async function projectCards(request: Request): Promise<{ copy: PageCopy['projects']; projects: WithEventTitle<ProjectCard>[] }> {
  const { pages, projects } = await catalogueOfPage(request);
  const cards = projects.map(({ description: _description, site: _site, github: _github, ...card }): ProjectCard => card);
  return { copy: pages.projects, projects: await withEventTitles('projects', cards) };
}

/**
 * /projects/:projectId: that one project. Only known ids are prerendered; any other id has no data
 * file, so the browser's request for it gets a 404, as the thrown response says here.
 */
export async function projectOfPage(request: Request, param: string | undefined): Promise<{ project: WithEventTitle<Project> }> {
  const project = findProjectIn((await catalogueOfPage(request)).projects, param);
  if (!project) throw data(null, { status: 404 });
  const [withTitle] = await withEventTitles('projects', [project]);
  return { project: withTitle! };
}

/** /blogs: its copy and the articles, each with its analytics title and its date and length written out. */
export async function blogArticles(
  request: Request,
): Promise<{ copy: PageCopy['blogs']; blogs: WithEventTitle<BlogArticle & { publishedText: string; minutesText: string }>[] }> {
  const locale = localeOfPath(new URL(request.url).pathname);
  const { pages, blogs } = await catalogueOfPage(request);
  const written = blogs.map((blog) => ({
    ...blog,
    publishedText: formatDate(locale, blog.published),
    minutesText: formatNumber(locale, blog.minutes),
  }));
  return { copy: pages.blogs, blogs: await withEventTitles('blogs', written) };
}

/** /privacy-policy: its copy and the policy, with the date it was last updated written out. */
export async function privacyPage(
  request: Request,
): Promise<{ copy: PageCopy['privacy']; privacyPolicy: Catalogue['privacyPolicy']; lastUpdatedText: string }> {
  const { copy, privacyPolicy } = await pageCopy(request, 'privacy', 'privacyPolicy');
  return { copy, privacyPolicy, lastUpdatedText: formatDate(localeOfPath(new URL(request.url).pathname), privacyPolicy.lastUpdated) };
}
