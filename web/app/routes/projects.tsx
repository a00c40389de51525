import { Link, useLoaderData } from 'react-router';
import { ProjectVideo, posterPreload } from '../components/ProjectVideo';
import { BackToTopButton } from '../components/BackToTopButton';
import { usePageEvent } from '../features/analytics/page-events';
import { tracked } from '../features/tracking/tracked';
import { summaryMeta, type PageMetaArgs } from '../layout/seo';
import type { ProjectCard } from '../../content/types';
import { headOfPage, projectCards } from './page-content';
import { useCatalogue, useLocale } from '../i18n/locale-context';
import { fetchPageTexts, PageText, pageTextId, type FetchedTexts } from '../components/PageText';
import { useViewTransitions } from '../components/use-view-transitions';
import { CLICK_EVENTS } from '../../../contract/event-names';

/** The first poster is the largest paint on phones: fetch it early, at high priority. */
const firstPoster = (projects: readonly ProjectCard[]) => projects.find((p) => posterPreload(p));

/** The page's copy and project cards in its language, written into the page at build time. */
export async function loader({ request }: { request: Request }) {
  return { ...(await projectCards(request)), page: await headOfPage(request, '/projects') };
}

/**
 * A client navigation reads the cards' long texts from the prerendered page, the one place they are
 * (PageText.tsx). Not used to hydrate a prerendered page (no `hydrate`): the page's own HTML is kept.
 */
export async function clientLoader({ request, serverLoader }: { request: Request; serverLoader: () => ReturnType<typeof loader> }) {
  const [data, texts] = await Promise.all([serverLoader(), fetchPageTexts(new URL(request.url).pathname, request.signal)]);
  return { ...data, texts };
}

export function meta(args?: PageMetaArgs<Awaited<ReturnType<typeof loader>>>) {
  const tags = summaryMeta(args);
  // In meta (not links) because the poster comes from the page's language's content.
  const first = firstPoster(args?.loaderData?.projects ?? []);
  const preload = first && posterPreload(first);
  if (preload) tags.push({ tagName: 'link', ...preload });
  return tags;
}

export default function Projects() {
  const viewTransition = useViewTransitions();
  usePageEvent('projectsPage');
  const { ui } = useCatalogue();
  const { copy, projects, texts } = useLoaderData<Awaited<ReturnType<typeof loader>> & { texts?: FetchedTexts }>();
  const locale = useLocale();
  const first = firstPoster(projects);
  return (
    <section aria-labelledby="projects-title">
      <h1 id="projects-title">{ui.projects.title}</h1>
      <p className="lead">{copy.intro}</p>
      <ul className="project-grid">
        {projects.map((project) => (
          <li key={project.id} className="card project-card">
            <article aria-labelledby={`project-${project.id}-title`}>
              <h2 id={`project-${project.id}-title`} className="card-title">
                {project.title}
              </h2>
              <ProjectVideo project={project} priority={project === first} />
              <dl className="facts">
                <dt>{ui.projects.need}</dt>
                <PageText as="dd" id={pageTextId(locale, 'projects', project.id, 'problem')} texts={texts} />
                <dt>{ui.projects.solution}</dt>
                <PageText as="dd" id={pageTextId(locale, 'projects', project.id, 'solution')} texts={texts} />
                <dt>{ui.projects.tech}</dt>
                <dd>
                  <bdi>{project.tech}</bdi>
                </dd>
              </dl>
              <Link
                to={project.href}
                viewTransition={viewTransition}
                className="read-more"
                aria-describedby={`project-${project.id}-title`}
                {...tracked(CLICK_EVENTS.projectView, project.eventTitle)}
              >
                {ui.projects.readMore}{' '}
                <span aria-hidden="true" className="direction-icon">
                  →
                </span>
              </Link>
            </article>
          </li>
        ))}
      </ul>
      <div className="more-to-come">
        <p>{ui.projects.moreToCome}</p>
        <BackToTopButton />
      </div>
    </section>
  );
}
