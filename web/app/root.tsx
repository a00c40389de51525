import type { ReactNode } from 'react';
import { Link, Links, Meta, Outlet, Scripts, isRouteErrorResponse, useRouteError } from 'react-router';
import { THEME_COLORS, THEME_SCRIPT } from '../../contract/theme-script';
import { HYDRATION_BOOT_SCRIPT } from '../../contract/inline-scripts';
import { site } from '../content/site';
import { AppShell } from './layout/AppShell';
import './styles/global.css';

export function links() {
  return [
    { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
    { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
    { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
    { rel: 'manifest', href: '/site.webmanifest' },
  ];
}

/**
 * Used only where no page sets its own tags: the SPA fallback page (served with status 404 for
 * unknown paths), which must stay out of search results.
 */
export function meta() {
  return [
    { title: site.name },
    { name: 'description', content: site.tagline },
    { name: 'robots', content: 'noindex' },
  ];
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        {/* Before anything paints: applies the stored theme choice (a constant, admitted by its hash). */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" media="(prefers-color-scheme: light)" content={THEME_COLORS.light} />
        <meta name="theme-color" media="(prefers-color-scheme: dark)" content={THEME_COLORS.dark} />
        <Meta />
        <Links />
        {/* Constant (its CSP hash comes from source): starts the page's scripts after the first paint. */}
        <script dangerouslySetInnerHTML={{ __html: HYDRATION_BOOT_SCRIPT }} />
      </head>
      <body>
        <AppShell>{children}</AppShell>
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/**
 * What the SPA fallback page shows before the client router takes over: the shared layout with an
 * empty main area of the usual height, so the 404 page or the /error redirect appears in place.
 * Its heading is for assistive technology only: it says why the area is empty meanwhile.
 */
export function HydrateFallback() {
  return (
    <div className="page-placeholder">
      <h1 className="visually-hidden">
        <span className="when-scripting">Loading the page…</span>
        <span className="when-no-scripting">This page needs JavaScript</span>
      </h1>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : undefined;
  if (import.meta.env.DEV && !isRouteErrorResponse(error)) console.error(error);
  return (
    <section className="error-page">
      <h1>{status === 404 ? 'Oops! Page not found.' : 'Something went wrong.'}</h1>
      <p>Please try again, or start over from the home page.</p>
      <Link to="/" className="button">
        Go home
      </Link>
    </section>
  );
}
