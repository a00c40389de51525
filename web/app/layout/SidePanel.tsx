import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { onDemand } from '../components/on-demand';
import { useHydrated } from '../components/use-hydrated';
import { trackedExternal } from '../features/tracking/tracked';
import { ThemeControl } from '../features/theme/ThemeControl';
import { MenuLinks } from './MenuLinks';
import { PrintHeader } from './PrintHeader';
import { ResumeLink } from './ResumeLink';
import { useViewTransitions } from '../components/use-view-transitions';
import { CLICK_EVENTS } from '../../../contract/event-names';
import { useCatalogue, useLocalizePath } from '../i18n/locale-context';
import { LanguageSwitcher } from './LanguageSwitcher';
import { withBase } from '../base-path';

// Opened only by a click, so not needed to hydrate (0.6 KB gzip less on every first load): fetched
// right after hydration, and at once if the visitor reaches for the headshot before that.
const funFactModal = onDemand('fun-fact modal', () => import('./FunFactModal').then((module) => module.FunFactModal));

/** The desktop side panel (shown on wide screens by CSS). */
export function SidePanel() {
  const viewTransition = useViewTransitions();
  const { site, ui } = useCatalogue();
  const localize = useLocalizePath();
  // A number drawn at each opening: the modal picks that opening's fact from its own chunk's facts.
  const [draw, setDraw] = useState<number | null>(null);
  const headshotRef = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setDraw(null), []);
  // The modal needs the scripts: until they have hydrated the page, the headshot is visibly not ready.
  const ready = useHydrated();
  useEffect(() => funFactModal.preload(), []);

  return (
    <>
      <PrintHeader />
      <aside className="side-panel" aria-label={ui.sidePanel}>
        <Link to={localize('/home')} className="side-name" viewTransition={viewTransition}>
          <bdi>{site.name}</bdi>
        </Link>
        {/* Named by its content, so the name always holds the visible text (WCAG 2.5.3, label in name):
            the line shown while it waits is part of it, whichever one the stylesheet shows. */}
        <button
          ref={headshotRef}
          type="button"
          className="headshot-button"
          aria-haspopup="dialog"
          disabled={!ready}
          onPointerEnter={funFactModal.preload}
          onFocus={funFactModal.preload}
          // Mounted once its chunk is here (preloaded on mount, so at once as a rule): a Suspense
          // fallback would hold the modal back 300 ms however soon the chunk came (on-demand.tsx `load`).
          onClick={() => {
            const picked = Math.random();
            const show = () => setDraw(picked);
            funFactModal.load().then(show, show);
          }}
        >
          {/* Lazy: the panel is hidden on phones, where the image is then never fetched. */}
          <img src={withBase(site.headshot)} alt="" width={144} height={144} className="headshot" loading="lazy" decoding="async" />
          <span className="visually-hidden">{ui.headshotLabel(site.name)}</span>{' '}
          {ready ? (
            // Shown on hover and focus; "fun fact" is already in the name.
            <span className="headshot-hint" aria-hidden="true">
              {ui.headshotHint}
            </span>
          ) : (
            // Shown while the scripts load; the stylesheet swaps in the second line when scripts are off.
            <span className="headshot-hint headshot-hint--waiting">
              <span className="when-scripting">{ui.headshotLoading}</span>{' '}
              <span className="when-no-scripting">{ui.headshotNeedsScripts}</span>
            </span>
          )}
        </button>
        <p className="side-role">{site.role}</p>
        <nav aria-label={ui.mainNav} className="side-nav">
          <MenuLinks />
        </nav>
        {/* The search control: the /search page (every page by kind), or the search dialog once the page has hydrated (search/SearchHost.tsx). */}
        <Link to={localize('/search')} className="search-link">
          {ui.search}
        </Link>
        <ThemeControl />
        <LanguageSwitcher />
        <ul className="badges" aria-label={ui.badges}>
          {site.badges.map((badge) => (
            <li key={badge} className="badge" dir="auto">
              {badge}
            </li>
          ))}
        </ul>
        <a className="profile-link" href={site.profileUrl} {...trackedExternal(CLICK_EVENTS.sidebarLinkedIn)}>
          <svg aria-hidden="true" focusable="false" width="18" height="18" viewBox="0 0 24 24">
            <path
              fill="currentColor"
              d="M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM3 9h4v12H3zM9 9h3.8v1.7h.05c.53-1 1.83-2.05 3.77-2.05C20.6 8.65 21 11.2 21 14.5V21h-4v-5.7c0-1.36-.03-3.1-1.9-3.1-1.9 0-2.2 1.48-2.2 3V21H9z"
            />
          </svg>
          {site.profileLabel}
          <span className="visually-hidden">{ui.opensInNewTab}</span>
        </a>
        <ResumeLink href={site.resume} className="profile-link resume-link" />
        {draw !== null ? <funFactModal.Render draw={draw} onClose={close} returnFocusRef={headshotRef} /> : null}
      </aside>
    </>
  );
}
