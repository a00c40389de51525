import { Component, type ComponentType, type ErrorInfo, type ReactNode, Suspense, lazy, useState } from 'react';

/**
 * A component whose code is kept out of the first-load JS and fetched on demand (its own chunk).
 *
 * `preload()` starts the download (once; again after a failure). `Render` shows the component:
 * directly when the chunk has already arrived, so an update (a click, the first render after
 * hydration) shows it in the same commit; through React.lazy and Suspense (rendering nothing
 * meanwhile) when it is still on the way. A chunk that fails to load (offline, a deploy in between) renders nothing
 * and logs to the console instead of taking the page down with the route's error boundary.
 */
export interface OnDemand<P extends object> {
  /** Starts the download; a failure shows up when the component renders. */
  preload: () => void;
  /**
   * Starts the download and settles once it has arrived (or failed): a caller that mounts `Render` only
   * then shows the component in one commit, with no Suspense fallback first. React holds back the
   * content of a boundary that showed its fallback until 300 ms after that fallback, however soon the
   * chunk arrives (its FALLBACK_THROTTLE_MS), which a dialog opened by a click should not wait for.
   */
  load: () => Promise<void>;
  Render: ComponentType<P>;
}

class SkipOnError extends Component<{ what: string; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(`Could not show the ${this.props.what}`, error, info.componentStack);
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}

export function onDemand<P extends object>(what: string, load: () => Promise<ComponentType<P>>): OnDemand<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;

  // React.lazy keeps a rejection for good, so a failed load gets a fresh one for later mounts.
  const makeLazy = (): ComponentType<P> => lazy(() => fetchOnce().then((component) => ({ default: component })));
  let Lazy: ComponentType<P>;

  const fetchOnce = () => {
    pending ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        pending = null;
        Lazy = makeLazy();
        throw error;
      },
    );
    return pending;
  };
  Lazy = makeLazy();
  const preload = () => void fetchOnce().catch(() => {});
  const loadNow = () => fetchOnce().then(() => undefined);

  function Render(props: P) {
    // Chosen once per mount: switching from Lazy to the loaded type later would remount the
    // component and lose its state.
    const [Chosen] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return (
      <SkipOnError what={what}>
        <Suspense fallback={null}>
          <Chosen {...props} />
        </Suspense>
      </SkipOnError>
    );
  }
  Render.displayName = `OnDemand(${what})`;

  return { preload, load: loadNow, Render };
}
