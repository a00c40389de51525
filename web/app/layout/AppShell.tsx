import type { ReactNode } from 'react';
import { ScrollToTopButton } from '../components/ScrollToTopButton';
import { CookieBanner } from '../features/consent/CookieBanner';
import { Footer } from './Footer';
import { MobileBar } from './MobileBar';
import { ScrollReset } from './ScrollReset';
import { SidePanel } from './SidePanel';

/** The layout every page shares: skip link, mobile bar, side panel, main, footer, banner. */
export function AppShell({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <MobileBar />
      <SidePanel />
      <div className="page">
        <main id="main" tabIndex={-1} className="main">
          {children}
        </main>
        <Footer />
      </div>
      <ScrollToTopButton />
      <ScrollReset />
      <CookieBanner />
    </>
  );
}
