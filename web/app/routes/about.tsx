import { Link } from 'react-router';
import { usePageEvent } from '../features/analytics/page-events';
import { trackedExternal } from '../features/tracking/tracked';
import { ResumeLink } from '../layout/ResumeLink';
import { summaryMeta } from '../layout/seo';
import { useLoaderData } from 'react-router';
import { headOfPage, pageCopy } from './page-content';
import { useCatalogue, useLocalizePath } from '../i18n/locale-context';
import { useViewTransitions } from '../components/use-view-transitions';
import { CLICK_EVENTS } from '../../../contract/event-names';

/** The page's copy, about and structured data in its language, written into the page at build time. */
export async function loader({ request }: { request: Request }) {
  return { ...(await pageCopy(request, 'about', 'about')), page: await headOfPage(request, '/about') };
}

export const meta = summaryMeta;

const GROUPS = ['technologies', 'tools', 'practices'] as const;

export default function About() {
  const viewTransition = useViewTransitions();
  usePageEvent('aboutPage');
  const { site, ui } = useCatalogue();
  const { about } = useLoaderData<typeof loader>();
  const localize = useLocalizePath();
  return (
    <section aria-labelledby="about-title">
      <h1 id="about-title">{ui.about.heading}</h1>
      {about.intro.map((paragraph) => (
        <p key={paragraph} className="lead">
          {paragraph}
        </p>
      ))}
      <p className="about-actions">
        <Link to={localize('/contact')} className="button" viewTransition={viewTransition}>
          {ui.about.letsChat}
        </Link>
        <ResumeLink href={site.resume} className="button button-secondary" />
      </p>
      <div className="about-grid">
        {GROUPS.map((group) => (
          <section key={group} className="card" aria-labelledby={`about-${group}`}>
            <h2 id={`about-${group}`} className="card-title">
              {ui.about[group]}
            </h2>
            <ul className="tag-list">
              {about[group].split(',').map((item) => (
                <li key={item.trim()} className="tag" dir="auto">
                  {item.trim()}
                </li>
              ))}
            </ul>
          </section>
        ))}
        <section className="card" aria-labelledby="about-education">
          <h2 id="about-education" className="card-title">
            {ui.about.education}
          </h2>
          <ul className="education-list">
            {about.education.map((entry) => (
              <li key={entry.title}>
                <p className="education-title">{entry.title}</p>
                <p className="education-school">
                  {entry.school} · {entry.years}
                </p>
                <p>{entry.detail}</p>
              </li>
            ))}
          </ul>
        </section>
      </div>
      {/* The side panel with this link is hidden on small screens, so the page offers it there. */}
      <p className="about-profile">
        <a className="button button-secondary" href={site.profileUrl} {...trackedExternal(CLICK_EVENTS.sidebarLinkedIn)}>
          {site.profileLabel}{' '}
          <span aria-hidden="true" className="direction-icon">
            ↗
          </span>
        </a>
      </p>
    </section>
  );
}
