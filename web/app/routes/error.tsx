import { Link } from 'react-router';
import { summaryMeta } from '../layout/seo';
import { headOfPage } from './page-content';
import { useLocalizePath, useUi } from '../i18n/locale-context';
import { useViewTransitions } from '../components/use-view-transitions';

/** The page's head, from its summary, written into the page at build time. */
export async function loader({ request }: { request: Request }) {
  return { page: await headOfPage(request, '/error') };
}

export const meta = summaryMeta;

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
