import { Link, Navigate, useParams } from 'react-router';
import { findProjectIn } from '../../content/find-project';
import type { Project } from '../../content/types';
import { useCatalogue, useLocalizePath } from '../i18n/locale-context';
import { projectEventTitle } from '../features/tracking/event-titles';
import { ProjectVideo, posterPreload } from '../components/ProjectVideo';
import { usePageEvent } from '../features/analytics/page-events';
import { trackClick } from '../features/tracking/track-click';
import { jsonLd, metaBundle, projectJsonLd, pageMeta } from '../layout/seo';
import type { Route } from './+types/project-detail';
import { useViewTransitions } from '../components/use-view-transitions';
import { CLICK_EVENTS } from '../../../contract/event-names';

export function meta({ params, matches }: Route.MetaArgs) {
  const bundle = metaBundle({ matches });
  const { ui, projects } = bundle.catalogue;
  const project = findProjectIn(projects, params.projectId);
  if (!project) return pageMeta({ title: ui.project.notFoundTitle, description: ui.project.notFoundDescription, path: '/error', noindex: true, bundle });
  const tags = pageMeta({
    title: project.title,
    description: ui.project.metaDescription(project.solution, project.tech),
    path: `/projects/${project.id}`,
    type: 'article',
    bundle,
  });
  tags.push(jsonLd(projectJsonLd(project, publicRepository(project), bundle)));
  // The video poster is the page's largest paint: fetch it early, at high priority.
  const preload = posterPreload(project);
  if (preload) tags.push({ tagName: 'link', ...preload });
  return tags;
}

/**
 * Spec §2: the project whose id equals the parameter, else a redirect to /error. The check lives
 * in the component (not a clientLoader) so the prerendered pages keep their content: a route with
 * only a clientLoader would be prerendered as an empty fallback.
 */
export default function ProjectDetailRoute() {
  const { projectId } = useParams();
  const { projects } = useCatalogue();
  const localize = useLocalizePath();
  const project = findProjectIn(projects, projectId);
  if (!project) return <Navigate to={localize('/error')} replace />;
  return <ProjectDetail key={project.id} project={project} />;
}

/** Project 1 is private: no Website link, a Contact link instead. Project 4 has no public code. */
export const HIDE_WEBSITE_FOR = 1;
export const HIDE_GITHUB_FOR = 4;

/** The repository the page links to, if any (the structured data names the same one). */
function publicRepository(project: Project): string | undefined {
  return project.id !== HIDE_GITHUB_FOR && project.github !== '' ? project.github : undefined;
}

function ProjectDetail({ project }: { project: Project }) {
  const viewTransition = useViewTransitions();
  const { ui } = useCatalogue();
  const localize = useLocalizePath();
  // Named by the default language's title, so a project's counts do not split by language.
  const eventTitle = projectEventTitle(project.id);
  usePageEvent(eventTitle);
  const showWebsite = project.id !== HIDE_WEBSITE_FOR && project.site !== '';
  const showGithub = publicRepository(project) !== undefined;
  return (
    <article className="project-detail" aria-labelledby="project-title">
      <p className="breadcrumb">
        <Link to={localize('/projects')} viewTransition={viewTransition}>
          <span aria-hidden="true">←</span> {ui.project.allProjects}
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
            <li key={tech.trim()} className="tag">
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
          <a
            className="button"
            href={project.site}
            target="_blank"
            rel="noopener noreferrer"
            onClick={() => trackClick(CLICK_EVENTS.projectWebsite, eventTitle)}
          >
            {ui.project.website} <span aria-hidden="true">↗</span>
          </a>
        ) : null}
        {showGithub ? (
          <a
            className="button button-secondary"
            href={project.github}
            target="_blank"
            rel="noopener noreferrer"
            onClick={() => trackClick(CLICK_EVENTS.projectGithub, eventTitle)}
          >
            {ui.project.github} <span aria-hidden="true">↗</span>
          </a>
        ) : null}
      </div>
      {project.id === HIDE_WEBSITE_FOR ? (
        <p className="contact-note">
          <Link to={localize('/contact')} viewTransition={viewTransition} onClick={() => trackClick(CLICK_EVENTS.projectContact, eventTitle)}>
            {ui.project.contact}
          </Link>{' '}
          {ui.project.contactRest}
        </p>
      ) : null}
    </article>
  );
}
