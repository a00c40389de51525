import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { startAnalytics } from '../analytics/analytics-loader';
import { hasStoredConsent, storeConsent, subscribeToConsent } from './consent-store';
import './CookieBanner.css';

type ConsentState = 'granted' | 'none' | 'unknown';

const readConsent = (): ConsentState => (hasStoredConsent() ? 'granted' : 'none');
// The prerendered HTML and the hydration pass know nothing about storage: they render no banner,
// so consented visitors never see a flash and hydration never mismatches.
const serverConsent = (): ConsentState => 'unknown';

export const COOKIE_TEXT_SHORT = 'We use cookies.';
export const COOKIE_TEXT_LONG =
  'We use cookies to enhance your experience and improve website functionality and content.';

/**
 * The cookie-consent banner: shown unless consent is stored; collapsed, or expanded with
 * Accept. Accept stores consent and loads analytics; stored consent loads analytics at start.
 * Fixed at the bottom of the viewport, so appearing after hydration shifts no layout. The layout
 * mounts it through ConsentGate, which keeps the banner's code from running for consented visitors.
 */
export function CookieBanner() {
  const consent = useSyncExternalStore(subscribeToConsent, readConsent, serverConsent);
  const [expanded, setExpanded] = useState(false);
  const detailsId = useId();

  useEffect(() => {
    if (consent === 'granted') startAnalytics();
  }, [consent]);

  if (consent !== 'none') return null;

  return (
    <section className="cookie-banner" aria-label="Cookie consent" data-expanded={expanded}>
      <div className="cookie-banner__inner">
        <div className="cookie-banner__body" id={detailsId}>
          <p className="cookie-banner__text">{expanded ? COOKIE_TEXT_LONG : COOKIE_TEXT_SHORT}</p>
          <div className="cookie-banner__actions">
            {expanded && (
              <button type="button" className="cookie-banner__accept" onClick={() => storeConsent()}>
                Accept
              </button>
            )}
            <Link className="cookie-banner__link" to="/privacy-policy">
              Privacy policy
            </Link>
          </div>
        </div>
        <button
          type="button"
          className="cookie-banner__toggle"
          aria-expanded={expanded}
          aria-controls={detailsId}
          title={expanded ? 'Show less about cookies' : 'Show more about cookies'}
          onClick={() => setExpanded((open) => !open)}
        >
          {expanded ? '-' : '+'}
        </button>
      </div>
    </section>
  );
}
