import { Link, useLoaderData } from 'react-router';
import { Greeting } from '../components/Greeting';
import { usePageEvent } from '../features/analytics/page-events';
import { tracked } from '../features/tracking/tracked';
import { summaryMeta } from '../layout/seo';
import { headOfPage, pageCopy } from './page-content';
import { useCatalogue, useLocalizePath } from '../i18n/locale-context';
import { useViewTransitions } from '../components/use-view-transitions';
import { CLICK_EVENTS } from '../../../contract/event-names';

/** The owner's copy of the page in its language and its structured data, written into the page at build time. */
export async function loader({ request }: { request: Request }) {
  return { ...(await pageCopy(request, 'home')), page: await headOfPage(request, '/home') };
}

export const meta = summaryMeta;

export default function Home() {
  const viewTransition = useViewTransitions();
  usePageEvent('homePage');
  const { site, ui } = useCatalogue();
  const { copy } = useLoaderData<typeof loader>();
  const localize = useLocalizePath();
  return (
    <section className="home" aria-labelledby="home-title">
      <Greeting />
      <h1 id="home-title" className="home-title">
        <span className="home-name">{ui.home.iAm(site.name)}</span> {copy.headline}
      </h1>
      {copy.intro.map((paragraph) => (
        <p key={paragraph} className="lead">
          {paragraph}
        </p>
      ))}
      <p>
        <Link
          to={localize('/projects')}
          viewTransition={viewTransition}
          className="button button-large"
          {...tracked(CLICK_EVENTS.homeExploreProjects)}
        >
          {copy.cta}
        </Link>
      </p>
    </section>
  );
}
