import { Link } from 'react-router';
import { pages } from '../../content/pages';
import { projects } from '../../content/projects';
import { ProjectVideo, posterPreload } from '../components/ProjectVideo';
import { BackToTopButton } from '../components/BackToTopButton';
import { usePageEvent } from '../features/analytics/page-events';
import { trackClick } from '../features/tracking/track-click';
import { pageMeta } from '../layout/seo';
import { useViewTransitions } from '../components/use-view-transitions';
import { CLICK_EVENTS } from '../../../contract/event-names';

/** The first poster is the largest paint on phones: fetch it early, at high priority. */
const firstPoster = projects.find((p) => posterPreload(p));

export function links() {
  const preload = firstPoster && posterPreload(firstPoster);
  return preload ? [preload] : [];
}

export function meta() {
  return pageMeta({ title: 'Projects', description: pages.projects.description, path: '/projects' });
}

export default function Projects() {
  const viewTransition = useViewTransitions();
  usePageEvent('projectsPage');
  return (
    <section aria-labelledby="projects-title">
      <h1 id="projects-title">Projects</h1>
      <p className="lead">{pages.projects.intro}</p>
      <ul className="project-grid">
        {projects.map((project) => (
          <li key={project.id} className="card project-card">
            <article aria-labelledby={`project-${project.id}-title`}>
              <h2 id={`project-${project.id}-title`} className="card-title">
                {project.title}
              </h2>
              <ProjectVideo project={project} priority={project === firstPoster} />
              <dl className="facts">
                <dt>Need</dt>
                <dd>{project.problem}</dd>
                <dt>Solution</dt>
                <dd>{project.solution}</dd>
                <dt>Tech</dt>
                <dd>{project.tech}</dd>
              </dl>
              <Link
                to={`/projects/${project.id}`}
                viewTransition={viewTransition}
                className="read-more"
                aria-describedby={`project-${project.id}-title`}
                onClick={() => trackClick(CLICK_EVENTS.projectView, project.title)}
              >
                Read more <span aria-hidden="true">→</span>
              </Link>
            </article>
          </li>
        ))}
      </ul>
      <div className="more-to-come">
        <p>More to come!</p>
        <BackToTopButton />
      </div>
    </section>
  );
}
