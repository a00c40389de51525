import { isRouteErrorResponse, Link, redirect, useLoaderData } from 'react-router';
import type { Project } from '../../content/types';
import { useCatalogue, useLocalizePath } from '../i18n/locale-context';
import { projectOfPage, type WithEventTitle } from './page-content';
import { localizePath } from '../i18n/paths';
import { ProjectVideo, posterPreload } from '../components/ProjectVideo';
import { usePageEvent } from '../features/analytics/page-events';
import { tracked, trackedExternal } from '../features/tracking/tracked';
import { metaBundle, pageMeta, summaryMeta } from '../layout/seo';
import type { Route } from './+types/project-detail';
import { useViewTransitions } from '../components/use-view-transitions';
import { CLICK_EVENTS } from '../../../contract/event-names';
import { localeOfRequest } from '../base-path';

/** The page's project in its language, written into the page at build time (known ids only). */
export function loader({ request, params }: Route.LoaderArgs) {
  return projectOfPage(request, params.projectId, publicRepository);
}

/**
 * An id with no project goes to /error. Such an id was never prerendered, so the request
 * for its data gets a 404 (from the CDN, or from the build-time loader): that, and only that,
 * redirects; a network failure stays an error. Not used to hydrate a prerendered page (no `hydrate`).
 */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  try {
    return await serverLoader();
  } catch (error) {
    if (isRouteErrorResponse(error) && error.status === 404) {
      throw redirect(localizePath(localeOfRequest(request), '/error'));
    }
    throw error;
  }
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const bundle = metaBundle({ matches });
  const { ui } = bundle.catalogue;
  const project = loaderData?.project;
  if (!project)
    return pageMeta({
      title: ui.project.notFoundTitle,
      description: ui.project.notFoundDescription,
      path: '/error',
      noindex: true,
      bundle,
    });
  const tags = summaryMeta({ loaderData, matches });
  // The video poster is the page's largest paint: fetch it early, at high priority.
  const preload = posterPreload(project);
  if (preload) tags.push({ tagName: 'link', ...preload });
  return tags;
}

export default function ProjectDetailRoute() {
  const { project, pageEvent } = useLoaderData<typeof loader>();
  return <ProjectDetail key={project.id} project={project} pageEvent={pageEvent} />;
}

/** Project 1 is private: no Website link, a Contact link instead. Project 4 has no public code. */
export const HIDE_WEBSITE_FOR = 1;
export const HIDE_GITHUB_FOR = 4;

/** The repository the page links to, if any (the structured data names the same one). */
function publicRepository(project: Project): string | undefined {
  return project.id !== HIDE_GITHUB_FOR && project.github !== '' ? project.github : undefined;
}

function ProjectDetail({ project, pageEvent }: { project: WithEventTitle<Project>; pageEvent: string }) {
  const viewTransition = useViewTransitions();
  const { ui } = useCatalogue();
  const localize = useLocalizePath();
  // Named by the default language's title, so a project's counts do not split by language: the page
  // event by that title made a valid GA4 name, with the title itself as its project_title.
  const eventTitle = project.eventTitle;
  usePageEvent(pageEvent, eventTitle);
  const showWebsite = project.id !== HIDE_WEBSITE_FOR && project.site !== '';
  const showGithub = publicRepository(project) !== undefined;
  return (
    <article className="project-detail" aria-labelledby="project-title">
      <p className="breadcrumb">
        <Link to={localize('/projects')} viewTransition={viewTransition}>
          <span aria-hidden="true" className="direction-icon">
            ←
          </span>{' '}
          {ui.project.allProjects}
        </Link>
      </p>
      <h1 id="project-title">{project.title}</h1>
      <ProjectVideo project={project} priority />
      <div className="detail-grid">
        <section className="card" aria-labelledby="need-title">
          <h2 id="need-title">{ui.projects.need}</h2>
          <p>{project.problem}</p>
        </section>
        <section className="card" aria-labelledby="solution-title">
          <h2 id="solution-title">{ui.projects.solution}</h2>
          <p>{project.solution}</p>
        </section>
      </div>
      <section aria-labelledby="tech-title">
        <h2 id="tech-title">{ui.project.technologies}</h2>
        <ul className="tag-list">
          {project.tech.split(',').map((tech) => (
            <li key={tech.trim()} className="tag" dir="auto">
              {tech.trim()}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="description-title">
        <h2 id="description-title">{ui.project.description}</h2>
        <p>{project.description}</p>
      </section>
      <div className="project-links">
        {showWebsite ? (
          <a className="button" href={project.site} {...trackedExternal(CLICK_EVENTS.projectWebsite, eventTitle)}>
            {ui.project.website}{' '}
            <span aria-hidden="true" className="direction-icon">
              ↗
            </span>
          </a>
        ) : null}
        {showGithub ? (
          <a className="button button-secondary" href={project.github} {...trackedExternal(CLICK_EVENTS.projectGithub, eventTitle)}>
            {ui.project.github}{' '}
            <span aria-hidden="true" className="direction-icon">
              ↗
            </span>
          </a>
        ) : null}
      </div>
      {project.id === HIDE_WEBSITE_FOR ? (
        <p className="contact-note">
          <Link to={localize('/contact')} viewTransition={viewTransition} {...tracked(CLICK_EVENTS.projectContact, eventTitle)}>
            {ui.project.contact}
          </Link>{' '}
          {ui.project.contactRest}
        </p>
      ) : null}
    </article>
  );
}
