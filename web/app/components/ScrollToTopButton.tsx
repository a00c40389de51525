import { useEffect, useState } from 'react';
import { SCROLL_TOP_THRESHOLD, scrollToTop } from './scroll';

function ArrowUp() {
  return (
    <svg aria-hidden="true" focusable="false" width="20" height="20" viewBox="0 0 24 24">
      <path d="M12 5l-7 7m7-7l7 7M12 5v14" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Floating button, shown once the page is scrolled more than 300 px (spec §2). */
export function ScrollToTopButton() {
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const update = () => setVisible(window.scrollY > SCROLL_TOP_THRESHOLD);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);

  if (!visible) return null;
  return (
    <button type="button" className="scroll-top-fab" aria-label="Scroll to top" onClick={scrollToTop}>
      <ArrowUp />
    </button>
  );
}

/** The in-page button under the projects grid: always visible, same behaviour. */
export function BackToTopButton() {
  return (
    <button type="button" className="button button-secondary" onClick={scrollToTop}>
      <ArrowUp /> Back to top
    </button>
  );
}
