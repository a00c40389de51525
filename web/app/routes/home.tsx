import { Link } from 'react-router';
import { pages } from '../../content/pages';
import { site } from '../../content/site';
import { Greeting } from '../components/Greeting';
import { usePageEvent } from '../features/analytics/page-events';
import { trackClick } from '../features/tracking/track-click';
import { jsonLd, personJsonLd, pageMeta } from '../layout/seo';
import { useViewTransitions } from '../components/use-view-transitions';
import { CLICK_EVENTS } from '../../../contract/event-names';

export function meta() {
  return [
    ...pageMeta({ title: '', description: pages.home.description, path: '/home', type: 'profile' }),
    jsonLd(personJsonLd()),
  ];
}

export default function Home() {
  const viewTransition = useViewTransitions();
  usePageEvent('homePage');
  return (
    <section className="home" aria-labelledby="home-title">
      <Greeting />
      <h1 id="home-title" className="home-title">
        <span className="home-name">I’m {site.name}.</span> {pages.home.headline}
      </h1>
      {pages.home.intro.map((paragraph) => (
        <p key={paragraph} className="lead">
          {paragraph}
        </p>
      ))}
      <p>
        <Link to="/projects" viewTransition={viewTransition} className="button button-large" onClick={() => trackClick(CLICK_EVENTS.homeExploreProjects)}>
          {pages.home.cta}
        </Link>
      </p>
    </section>
  );
}
