import { useEffect, type ReactNode } from 'react';
import { Link, isRouteErrorResponse, useRouteError } from 'react-router';
import { localeDirection } from '../../content/locales';
import { HydrationProvider } from '../components/use-hydrated';
import { AppShell } from './AppShell';
import { LocaleProvider, type LocaleBundle } from '../i18n/locale-context';
import { homeLink } from '../i18n/paths';

/**
 * The shell of every page of one language, with that language's strings for the shell and the page.
 * `<html lang dir>` is right in every prerendered page (root.tsx reads the path); the SPA fallback page
 * (unknown paths, any language) is prerendered once, so both are also set here once the language is known.
 */
export function LocaleShell({ bundle, children }: { bundle: LocaleBundle; children: ReactNode }) {
  useEffect(() => {
    document.documentElement.lang = bundle.locale;
    document.documentElement.dir = localeDirection(bundle.locale);
  }, [bundle.locale]);
  return (
    <LocaleProvider bundle={bundle}>
      <HydrationProvider>
        <AppShell>{children}</AppShell>
      </HydrationProvider>
    </LocaleProvider>
  );
}

/** A page that failed to render: the shell stays, the message is in the page's language. */
export function LocaleError({ bundle }: { bundle: LocaleBundle }) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : undefined;
  if (import.meta.env.DEV && !isRouteErrorResponse(error)) console.error(error);
  const { ui } = bundle.catalogue;
  return (
    <LocaleShell bundle={bundle}>
      <section className="error-page">
        <h1>{status === 404 ? ui.notFound.heading : ui.failure.heading}</h1>
        <p>{ui.failure.message}</p>
        <Link to={homeLink(bundle.locale)} className="button">
          {ui.failure.goHome}
        </Link>
      </section>
    </LocaleShell>
  );
}
