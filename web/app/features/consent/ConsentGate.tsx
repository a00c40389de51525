import { useEffect } from 'react';
import { useHydrated } from '../../components/use-hydrated';
import { startAnalytics } from '../analytics/analytics-loader';
import { CookieBanner } from './CookieBanner';
import { hasStoredConsent } from './consent-store';

/**
 * What the layout mounts for cookie consent: nothing in the prerendered HTML and while hydrating (no
 * flash for consented visitors, no mismatch); then, with stored consent, analytics start (their
 * code is fetched only now, see analytics-loader.ts); without it, the cookie banner shows.
 *
 * The banner stays in the first-load JS on purpose: it must be on screen as soon as the page is
 * interactive. Loaded on demand it saved ~0.6 KB gzip but appeared a network round trip after
 * hydration on a cold cache, which the browser tests (rightly) reject.
 */
export function ConsentGate() {
  const hydrated = useHydrated();
  const consented = hydrated && hasStoredConsent();

  useEffect(() => {
    if (consented) startAnalytics();
  }, [consented]);

  return hydrated && !consented ? <CookieBanner /> : null;
}
