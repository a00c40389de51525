import { Link } from 'react-router';
import { about } from '../../content/about';
import { pages } from '../../content/pages';
import { site } from '../../content/site';
import { usePageEvent } from '../features/analytics/page-events';
import { trackClick } from '../features/tracking/track-click';
import { ResumeLink } from '../layout/ResumeLink';
import { jsonLd, personJsonLd, pageMeta } from '../layout/seo';
import { useViewTransitions } from '../components/use-view-transitions';
import { CLICK_EVENTS } from '../../../contract/event-names';

export function meta() {
  return [
    ...pageMeta({ title: 'About', description: pages.about.description, path: '/about', type: 'profile' }),
    jsonLd(personJsonLd()),
  ];
}

const GROUPS = [
  { key: 'technologies', title: 'Technologies' },
  { key: 'tools', title: 'Tools' },
  { key: 'practices', title: 'Practices' },
] as const;

export default function About() {
  const viewTransition = useViewTransitions();
  usePageEvent('aboutPage');
  return (
    <section aria-labelledby="about-title">
      <h1 id="about-title">About me</h1>
      {about.intro.map((paragraph) => (
        <p key={paragraph} className="lead">
          {paragraph}
        </p>
      ))}
      <p className="about-actions">
        <Link to="/contact" className="button" viewTransition={viewTransition}>
          Let&apos;s Chat!
        </Link>
        <ResumeLink href={site.resume} className="button button-secondary" />
      </p>
      <div className="about-grid">
        {GROUPS.map((group) => (
          <section key={group.key} className="card" aria-labelledby={`about-${group.key}`}>
            <h2 id={`about-${group.key}`} className="card-title">
              {group.title}
            </h2>
            <ul className="tag-list">
              {about[group.key].split(',').map((item) => (
                <li key={item.trim()} className="tag">
                  {item.trim()}
                </li>
              ))}
            </ul>
          </section>
        ))}
        <section className="card" aria-labelledby="about-education">
          <h2 id="about-education" className="card-title">
            Education
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
        <a
          className="button button-secondary"
          href={site.profileUrl}
          target="_blank"
          rel="noopener noreferrer"
          onClick={() => trackClick(CLICK_EVENTS.sidebarLinkedIn)}
        >
          {site.profileLabel} <span aria-hidden="true">↗</span>
        </a>
      </p>
    </section>
  );
}
