import { useEffect, useState } from 'react';
import { ArrowUp } from './LineIcon';
import { SCROLL_TOP_THRESHOLD, scrollToTop } from './scroll';
import { useUi } from '../i18n/locale-context';

// In its own module so the layout can load the floating button on demand, while the projects
// page imports only the in-page one (BackToTopButton.tsx, not re-exported here: the floating
// button's chunk would then hold it, and /projects would preload it as a chunk of its own).

/** Floating button, shown once the page is scrolled more than 300 px. */
export function ScrollToTopButton() {
  const [visible, setVisible] = useState(false);
  const ui = useUi();

  useEffect(() => {
    const update = () => setVisible(window.scrollY > SCROLL_TOP_THRESHOLD);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);

  if (!visible) return null;
  return (
    <button type="button" className="scroll-top-fab" aria-label={ui.scrollToTop} onClick={scrollToTop}>
      <ArrowUp />
    </button>
  );
}
