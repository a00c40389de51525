import type { ReactNode } from 'react';
import { Links, Meta, Outlet, Scripts, isRouteErrorResponse, useLocation, useMatches, useRouteError } from 'react-router';
import { THEME_COLORS, THEME_SCRIPT } from '../../contract/theme-script';
import { EVENTS_ENDPOINT_ATTRIBUTE } from '../../contract/inline-scripts';
import { localeDirection } from '../content/locales';
import { env } from './config/env';
import { owner } from '../content/site';
import { LocaleError, LocaleShell } from './layout/LocaleLayout';
import { FallbackPage } from './layout/FallbackPage';
import { usePageViews } from './features/tracking/page-views';
import { matchedBundle } from './i18n/locale-context';
import { localeOfPath, localizePath } from './i18n/paths';
import { withBase } from './base-path';
import './styles/global.css';

/** The boot script's text, generated from web/boot/boot.ts at build time (vite.config.ts); only the prerender writes it. */
declare const __BOOT_SCRIPT__: string;

export function links() {
  return [
    { rel: 'icon', href: withBase('/favicon.ico'), sizes: '32x32' },
    { rel: 'icon', href: withBase('/favicon.svg'), type: 'image/svg+xml' },
    { rel: 'apple-touch-icon', href: withBase('/apple-touch-icon.png') },
    { rel: 'manifest', href: withBase('/site.webmanifest') },
  ];
}

/**
 * Used only where no page sets its own tags: the SPA fallback page (served with status 404 for
 * unknown paths in every language), which must stay out of search results. It names no language's
 * text: the page's own tags replace these once its language's route has loaded.
 */
export function meta() {
  return [{ title: owner.name }, { name: 'robots', content: 'noindex' }];
}

/*
 * The inline scripts' text is in the prerendered HTML only (`import.meta.env.SSR`, so the browser build
 * drops it: 0.4 KB gzip less on every first load). A browser runs an inline script once, as the parser
 * meets it; the browser build renders the element empty, hydration keeps the element the HTML already
 * has (React does not rewrite inner HTML while hydrating), and the empty text never changes afterwards.
 */
export function Layout({ children }: { children: ReactNode }) {
  const locale = localeOfPath(useLocation().pathname);
  return (
    <html lang={locale} dir={localeDirection(locale)}>
      <head>
        {/* Before anything paints: applies the stored theme choice (a constant, admitted by its hash). */}
        <script dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? THEME_SCRIPT : '' }} suppressHydrationWarning />
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" media="(prefers-color-scheme: light)" content={THEME_COLORS.light} />
        <meta name="theme-color" media="(prefers-color-scheme: dark)" content={THEME_COLORS.dark} />
        <Meta />
        <Links />
        {/* The language's Atom feed (its posts and articles), for feed readers that look in any page. */}
        <link rel="alternate" type="application/atom+xml" title={owner.name} href={withBase(localizePath(locale, '/feed.xml'))} />
        {/* Constant (its CSP hash comes from source): starts the page's scripts after the first paint, and
            counts clicks on tracked links until then (to the events endpoint named beside it). */}
        <script
          {...{ [EVENTS_ENDPOINT_ATTRIBUTE]: env.eventsEndpoint }}
          dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? __BOOT_SCRIPT__ : '' }}
          suppressHydrationWarning
        />
      </head>
      <body>
        {children}
        <Scripts />
      </body>
    </html>
  );
}

/** Each page in the shell of its language (the language's layout route carries its strings). */
export default function App() {
  const bundle = matchedBundle(useMatches());
  usePageViews(useLocation().pathname);
  return bundle ? (
    <LocaleShell bundle={bundle}>
      <Outlet />
    </LocaleShell>
  ) : (
    <Outlet />
  );
}

/** The SPA fallback page: what unknown addresses of every language get (see layout/FallbackPage.tsx). */
export function HydrateFallback() {
  return <FallbackPage />;
}

export function ErrorBoundary() {
  const bundle = matchedBundle(useMatches());
  const error = useRouteError();
  if (bundle) return <LocaleError bundle={bundle} />;
  // Nothing of any language has loaded: only the status and a way home.
  if (import.meta.env.DEV && !isRouteErrorResponse(error)) console.error(error);
  return (
    <section className="error-page">
      <h1>{isRouteErrorResponse(error) ? error.status : '500'}</h1>
      <a href={withBase('/')} className="button">
        ⌂ /
      </a>
    </section>
  );
}
