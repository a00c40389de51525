import { redirect, useLocation } from 'react-router';
import { useCatalogue } from '../i18n/locale-context';
import { localeOfPath, localizePath } from '../i18n/paths';
import { absoluteUrl, metaBundle } from '../layout/seo';
import { withBase, withoutBase } from '../base-path';

/**
 * A language's root: "/" → /home, "/es" and "/es/" → /es/home ("/" replaces itself with /home in the history).
 * The CDN answers "/" with a 302 itself; a language's root is this route's prerendered page
 * (/es/index.html, which the CloudFront Function's usual mapping finds for /es and /es/), so the CDN
 * needs no list of languages. That page sends the visitor on with or without scripts: a meta refresh
 * of 0 seconds (an instant client-side redirect; the browser replaces the history entry) and a
 * canonical link to the home page, and, once scripts run, this clientLoader (which also covers in-app
 * links to a root). A browser that refuses meta refresh shows the language's shell and a link home.
 * Why not a redirect in the CloudFront Function: docs/decisions.md.
 */
export function homeOf(pathname: string): string {
  return localizePath(localeOfPath(pathname), '/home');
}

// The query is kept, as the CDN's 302 keeps it. On the root's own document (the browser's address is the
// root's), the scripts navigate as the meta refresh does, replacing the entry; a client-side redirect
// there raced the refresh and sometimes left the root in the history, so Back sent the visitor on again.
// From a link inside the site, a clientLoader redirect (which also replaces the entry).
export function clientLoader({ request }: { request: Request }) {
  const url = new URL(request.url);
  const home = `${homeOf(withoutBase(url.pathname))}${url.search}`; // the router adds its basename
  if (url.pathname !== window.location.pathname) return redirect(home);
  window.location.replace(withBase(home));
  return new Promise<never>(() => undefined); // the page is leaving: keep the fallback until it does
}

export function meta({ location, matches }: { location: { pathname: string }; matches?: readonly ({ handle?: unknown } | undefined)[] }) {
  const home = homeOf(location.pathname);
  const { site } = metaBundle({ matches }).catalogue;
  return [
    { title: `${site.name} | ${site.role}` },
    // https://www.w3.org/WAI/WCAG22/Techniques/html/H76 (an instant client-side redirect: 0 seconds).
    { httpEquiv: 'refresh', content: `0; url=${withBase(home)}` },
    { tagName: 'link', rel: 'canonical', href: absoluteUrl(home) },
  ];
}

/** The prerendered page (before scripts, or without them): the owner's name and a link to the home page. */
export function HydrateFallback() {
  const { pathname } = useLocation();
  const { site, ui } = useCatalogue();
  return (
    <section className="error-page" aria-labelledby="index-redirect-title">
      <h1 id="index-redirect-title">
        <bdi>{site.name}</bdi>
      </h1>
      <a href={withBase(homeOf(pathname))} className="button">
        {ui.notFound.goHome}
      </a>
    </section>
  );
}

export default function IndexRedirect() {
  return null;
}
