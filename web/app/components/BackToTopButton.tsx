import { scrollToTop } from './scroll';
import { useHydrated } from './use-hydrated';
import { ArrowUp } from './LineIcon';
import { useUi } from '../i18n/locale-context';

/**
 * The in-page button under the projects grid, same behaviour as the floating one. It needs the
 * scripts: disabled (visibly not ready) until the page has hydrated, and left out by the
 * stylesheet when scripts are off, where it could never work.
 */
export function BackToTopButton() {
  const ready = useHydrated();
  const ui = useUi();
  return (
    <button type="button" className="button button-secondary needs-scripts" disabled={!ready} onClick={scrollToTop}>
      <ArrowUp /> {ui.backToTop}
    </button>
  );
}
