import { scrollToTop } from './scroll';
import { useHydrated } from './use-hydrated';
import { LineIcon } from './LineIcon';
import { useUi } from '../i18n/locale-context';

export function ArrowUp() {
  return (
    <LineIcon d="M12 5l-7 7m7-7l7 7M12 5v14" size={20} strokeWidth={2.2} />
  );
}

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
