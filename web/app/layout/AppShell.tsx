import type { ReactNode } from 'react';
import { onDemand } from '../components/on-demand';
import { useHydrated } from '../components/use-hydrated';
import { ConsentGate } from '../features/consent/ConsentGate';
import { useUi } from '../i18n/locale-context';
import { Footer } from './Footer';
import { MobileBar } from './MobileBar';
import { ScrollReset } from './ScrollReset';
import { SidePanel } from './SidePanel';

// Hidden until the page is scrolled, so it is not needed to hydrate: fetched right after hydration.
const scrollToTopButton = onDemand('scroll-to-top button', () =>
  import('../components/ScrollToTopButton').then((module) => module.ScrollToTopButton),
);

function FloatingScrollToTop() {
  return useHydrated() ? <scrollToTopButton.Render /> : null;
}

/** The layout every page shares: skip link, mobile bar, side panel, main, footer, banner. */
export function AppShell({ children }: { children: ReactNode }) {
  const ui = useUi();
  return (
    <>
      <a className="skip-link" href="#main">
        {ui.skipLink}
      </a>
      <MobileBar />
      <SidePanel />
      <div className="page">
        <main id="main" tabIndex={-1} className="main">
          {children}
        </main>
        <Footer />
      </div>
      <FloatingScrollToTop />
      <ScrollReset />
      <ConsentGate />
    </>
  );
}
