import type { ReactNode } from 'react';
import { onDemand } from '../components/on-demand';
import { useHydrated } from '../components/use-hydrated';
import { ConsentGate } from '../features/consent/ConsentGate';
import { useUi } from '../i18n/locale-context';
import { Footer } from './Footer';
import { MobileBar } from './MobileBar';
import { ScrollReset } from './ScrollReset';
import { SidePanel } from './SidePanel';

// Not needed to hydrate (the floating scroll-to-top button, the search control's behaviour): fetched right after.
const afterHydration = onDemand('deferred layout', () => import('./AfterHydration').then((module) => module.AfterHydration));

function AfterHydrationParts() {
  return useHydrated() ? <afterHydration.Render /> : null;
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
      <AfterHydrationParts />
      <ScrollReset />
      <ConsentGate />
    </>
  );
}
