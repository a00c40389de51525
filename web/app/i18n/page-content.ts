import { data } from 'react-router';
import { loadCatalogue } from '../../content/check';
import { findProjectIn } from '../../content/find-project';
import { DEFAULT_LOCALE } from '../../content/locales';
import type { BlogArticle, Catalogue, PageCopy, Project, ProjectCard } from '../../content/types';
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

/** The owner's copy of one page (its intro and its description for search results and previews). */
export async function pageCopy<P extends keyof PageCopy>(request: Request, page: P): Promise<{ copy: PageCopy[P] }> {
  return { copy: (await catalogueOfPage(request)).pages[page] };
}

/**
 * The default language's title of a project or an article: analytics events are named by it on
 * every language's page, so a project's counts do not split by language.
 */
async function eventTitle(kind: 'projects' | 'blogs', id: number): Promise<string> {
  const title = (await loadCatalogue(DEFAULT_LOCALE))[kind].find((item) => item.id === id)?.title;
  if (title === undefined) throw new Error(`No ${kind} entry with id ${id} in the default language (web/content).`);
  return title;
}

export type WithEventTitle<T> = T & { eventTitle: string };

/** /projects: its copy and every project's card, without the detail pages' descriptions. */
export async function projectCards(request: Request): Promise<{ copy: PageCopy['projects']; projects: WithEventTitle<ProjectCard>[] }> {
  const { pages, projects } = await catalogueOfPage(request);
  const cards = projects.map(async ({ description: _description, site: _site, github: _github, ...card }) => ({
    ...card,
    eventTitle: await eventTitle('projects', card.id),
  }));
  return { copy: pages.projects, projects: await Promise.all(cards) };
}

/**
 * /projects/:projectId: that one project. Only known ids are prerendered; any other id has no data
 * file, so the browser's request for it gets a 404, as the thrown response says here.
 */
export async function projectOfPage(request: Request, param: string | undefined): Promise<{ project: WithEventTitle<Project> }> {
  const project = findProjectIn((await catalogueOfPage(request)).projects, param);
  if (!project) throw data(null, { status: 404 });
  return { project: { ...project, eventTitle: await eventTitle('projects', project.id) } };
}

/** /blogs: its copy and the articles, each with its analytics title. */
export async function blogArticles(request: Request): Promise<{ copy: PageCopy['blogs']; blogs: WithEventTitle<BlogArticle>[] }> {
  const { pages, blogs } = await catalogueOfPage(request);
  return { copy: pages.blogs, blogs: await Promise.all(blogs.map(async (blog) => ({ ...blog, eventTitle: await eventTitle('blogs', blog.id) }))) };
}
