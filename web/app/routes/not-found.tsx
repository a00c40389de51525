import { Link } from 'react-router';
import { usePageEvent } from '../features/analytics/page-events';
import { pageMeta } from '../layout/seo';

export function meta({ location }: { location: { pathname: string } }) {
  return pageMeta({
    title: 'Page not found',
    description: 'There is no page at this address.',
    path: location.pathname,
    noindex: true,
    // Any address can land here: show the error page's preview rather than one per address.
    previewPath: '/error',
  });
}

export default function NotFound() {
  usePageEvent('pageNotFoundPage');
  return (
    <section className="error-page" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Oops! Page not found.</h1>
      <p>The address may be mistyped, or the page may have moved.</p>
      <Link to="/" className="button">
        Go home
      </Link>
    </section>
  );
}
