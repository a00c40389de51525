import { Link } from 'react-router';
import { usePageEvent } from '../features/analytics/page-events';
import { metaBundle, pageMeta } from '../layout/seo';
import { useLocale, useUi } from '../i18n/locale-context';
import { homeLink, unlocalizePath } from '../i18n/paths';

export function meta({ location, matches }: { location: { pathname: string }; matches?: readonly ({ handle?: unknown } | undefined)[] }) {
  const bundle = metaBundle({ matches });
  const { ui } = bundle.catalogue;
  return pageMeta({
    title: ui.notFound.title,
    description: ui.notFound.description,
    path: unlocalizePath(location.pathname),
    bundle,
    noindex: true,
    // Any address can land here: show the error page's preview rather than one per address.
    previewPath: '/error',
  });
}

export default function NotFound() {
  usePageEvent('pageNotFoundPage');
  const ui = useUi();
  const locale = useLocale();
  return (
    <section className="error-page" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{ui.notFound.heading}</h1>
      <p>{ui.notFound.message}</p>
      <Link to={homeLink(locale)} className="button">
        {ui.notFound.goHome}
      </Link>
    </section>
  );
}
