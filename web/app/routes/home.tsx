import { Link } from 'react-router';
import { Greeting } from '../components/Greeting';
import { usePageEvent } from '../features/analytics/page-events';
import { trackClick } from '../features/tracking/track-click';
import { jsonLd, metaBundle, personJsonLd, pageMeta } from '../layout/seo';
import { useCatalogue, useLocalizePath } from '../i18n/locale-context';
import { useViewTransitions } from '../components/use-view-transitions';
import { CLICK_EVENTS } from '../../../contract/event-names';

export function meta(args?: { matches?: readonly ({ handle?: unknown } | undefined)[] }) {
  const bundle = metaBundle(args);
  return [
    ...pageMeta({ title: '', description: bundle.catalogue.pages.home.description, path: '/home', type: 'profile', bundle }),
    jsonLd(personJsonLd(bundle)),
  ];
}

export default function Home() {
  const viewTransition = useViewTransitions();
  usePageEvent('homePage');
  const { pages, site, ui } = useCatalogue();
  const localize = useLocalizePath();
  return (
    <section className="home" aria-labelledby="home-title">
      <Greeting />
      <h1 id="home-title" className="home-title">
        <span className="home-name">{ui.home.iAm(site.name)}</span> {pages.home.headline}
      </h1>
      {pages.home.intro.map((paragraph) => (
        <p key={paragraph} className="lead">
          {paragraph}
        </p>
      ))}
      <p>
        <Link to={localize('/projects')} viewTransition={viewTransition} className="button button-large" onClick={() => trackClick(CLICK_EVENTS.homeExploreProjects)}>
          {pages.home.cta}
        </Link>
      </p>
    </section>
  );
}
