import { Link } from 'react-router';
import { metaBundle, pageMeta } from '../layout/seo';
import { useLocalizePath, useUi } from '../i18n/locale-context';
import { useViewTransitions } from '../components/use-view-transitions';

export function meta(args?: { matches?: readonly ({ handle?: unknown } | undefined)[] }) {
  const bundle = metaBundle(args);
  const { ui } = bundle.catalogue;
  return pageMeta({ title: ui.error.title, description: ui.error.description, path: '/error', noindex: true, bundle });
}

/**
 * Where an unknown project id lands. The message writes "doesn"t" with a double quote: that is the
 * product's wording, kept exactly.
 */
export default function ErrorPage() {
  const viewTransition = useViewTransitions();
  const ui = useUi();
  const localize = useLocalizePath();
  return (
    <section className="error-page" aria-labelledby="error-title">
      <h1 id="error-title">{ui.error.title}</h1>
      <p>{ui.error.message}</p>
      <Link to={localize('/projects')} className="button" viewTransition={viewTransition}>
        {ui.error.back}
      </Link>
    </section>
  );
}
