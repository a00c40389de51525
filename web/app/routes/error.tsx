import { Link } from 'react-router';
import { pageMeta } from '../layout/seo';
import { useViewTransitions } from '../components/use-view-transitions';

export function meta() {
  return pageMeta({
    title: '404 - Not Found',
    description: 'The page you are looking for does not exist.',
    path: '/error',
    noindex: true,
  });
}

/**
 * Where an unknown project id lands. The message writes "doesn"t" with a double quote: that is the
 * product's wording, kept exactly.
 */
export default function ErrorPage() {
  const viewTransition = useViewTransitions();
  return (
    <section className="error-page" aria-labelledby="error-title">
      <h1 id="error-title">404 - Not Found</h1>
      <p>The page you are looking for doesn&quot;t exist or an error occurred.</p>
      <Link to="/projects" className="button" viewTransition={viewTransition}>
        Go Back to Projects
      </Link>
    </section>
  );
}
