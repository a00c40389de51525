import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { startAnalytics } from '../analytics/analytics-loader';
import { hasStoredConsent, storeConsent, subscribeToConsent } from './consent-store';
import './CookieBanner.css';
import { useLocalizePath, useUi } from '../../i18n/locale-context';

type ConsentState = 'granted' | 'none' | 'unknown';

const readConsent = (): ConsentState => (hasStoredConsent() ? 'granted' : 'none');
// The prerendered HTML and the hydration pass know nothing about storage: they render no banner,
// so consented visitors never see a flash and hydration never mismatches.
const serverConsent = (): ConsentState => 'unknown';

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
  const ui = useUi();
  const localize = useLocalizePath();

  useEffect(() => {
    if (consent === 'granted') startAnalytics();
  }, [consent]);

  if (consent !== 'none') return null;
  const symbol = expanded ? '-' : '+';

  return (
    <section className="cookie-banner" aria-label={ui.cookie.label} data-expanded={expanded}>
      <div className="cookie-banner__inner">
        <div className="cookie-banner__body" id={detailsId}>
          <p className="cookie-banner__text">{expanded ? ui.cookie.long : ui.cookie.short}</p>
          <div className="cookie-banner__actions">
            {expanded && (
              <button type="button" className="cookie-banner__accept" onClick={() => storeConsent()}>
                {ui.cookie.accept}
              </button>
            )}
            <Link className="cookie-banner__link" to={localize('/privacy-policy')}>
              {ui.privacyPolicyLink}
            </Link>
          </div>
        </div>
        {/* The visible + / - as designed. Its accessible name starts with that text (WCAG 2.5.3, label in name)
            and says what it shows; aria-expanded says whether it is shown, aria-controls what it changes. */}
        <button
          type="button"
          className="cookie-banner__toggle"
          aria-expanded={expanded}
          aria-controls={detailsId}
          aria-label={`${symbol} ${ui.cookie.more}`}
          onClick={() => setExpanded((open) => !open)}
        >
          {symbol}
        </button>
      </div>
    </section>
  );
}
