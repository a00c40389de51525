import { act, inEnglish } from '../../test/render';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as React from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { THEME_ATTRIBUTE, THEME_STORAGE_KEY } from '../../../contract/theme-script';

/**
 * Every useSyncExternalStore in web/app goes through this wrapper, which records the stores whose
 * server snapshot differs from the client's while `probe.firstRender` is on (the hydration pass).
 * Such a store makes React re-render all its consumers synchronously right after hydration, in one
 * long task (react-dom's updateStoreInstance → forceStoreRerender), which Total Blocking Time counts.
 */
const probe = vi.hoisted(() => ({ firstRender: false, mismatches: [] as string[] }));
vi.mock('react', async (importOriginal) => {
  const actual = await importOriginal<typeof import('react')>();
  return {
    ...actual,
    useSyncExternalStore<T>(subscribe: (onChange: () => void) => () => void, getSnapshot: () => T, getServerSnapshot?: () => T): T {
      if (probe.firstRender && getServerSnapshot) {
        const server = getServerSnapshot();
        const client = getSnapshot();
        if (!Object.is(server, client)) {
          probe.mismatches.push(
            `server ${JSON.stringify(server)}, client ${JSON.stringify(client)}: ${new Error().stack?.split('\n')[2]?.trim() ?? ''}`,
          );
        }
      }
      return actual.useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
    },
  };
});
vi.mock('../config/env', () => ({ env: { contactEndpoint: '/api/contact', recaptchaSiteKey: 'test-site-key-0123456789', siteUrl: '' } }));
vi.mock('../features/tracking/track-click', () => ({ trackClick: vi.fn() }));

const { HydrationProvider, useHydrated } = await import('./use-hydrated');
const { useViewTransitions } = await import('./use-view-transitions');
const { AppShell } = await import('../layout/AppShell');
const { ContactForm } = await import('../features/contact/ContactForm');
const { CurrentYear } = await import('./CurrentYear');
const { useResolvedTheme, useThemePreference } = await import('../features/theme/theme-store');

/** What the client-only values read once hydrated, shown so the test sees them switch. */
function Values() {
  return (
    <p data-testid="values">{[useHydrated(), useViewTransitions(), useThemePreference(), useResolvedTheme()].map(String).join(' ')}</p>
  );
}

/** The layout with every consumer of a client-only value: menu links, theme controls, the form. */
function Page() {
  return (
    <HydrationProvider>
      <AppShell>
        <Values />
        <CurrentYear />
        <ContactForm />
      </AppShell>
    </HydrationProvider>
  );
}

/** A browser whose values all differ from the prerender's: dark system, a stored choice, motion allowed, no popover API (jsdom). */
function browserUnlikeThePrerender() {
  window.matchMedia = ((query: string) => ({
    matches: query.includes('dark'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  })) as unknown as typeof window.matchMedia;
  localStorage.setItem(THEME_STORAGE_KEY, 'dark');
  // What the head script does before the first paint.
  document.documentElement.setAttribute(THEME_ATTRIBUTE, 'dark');
}

describe('client-only values after hydration', () => {
  const matchMedia = window.matchMedia;
  beforeEach(() => {
    window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
    browserUnlikeThePrerender();
  });
  afterEach(() => {
    window.matchMedia = matchMedia;
    localStorage.clear();
    document.documentElement.removeAttribute(THEME_ATTRIBUTE);
    probe.mismatches = [];
  });

  it("no useSyncExternalStore has a server snapshot that differs from the client's while hydrating (no forced re-render)", async () => {
    const FirstRenderDone = () => {
      // Layout effects run once the hydration pass has rendered the whole tree, before its passive effects.
      React.useLayoutEffect(() => {
        probe.firstRender = false;
      }, []);
      return null;
    };
    const Stub = createRoutesStub([{ path: '*', Component: Page }]);
    const app = inEnglish(
      <>
        <Stub initialEntries={['/contact']} />
        <FirstRenderDone />
      </>,
    );
    const container = document.createElement('div');
    container.innerHTML = renderToString(app);
    document.body.append(container);
    expect(container.querySelector('[data-testid="values"]')?.textContent).toBe('false false system light');

    probe.firstRender = true;
    let root: ReturnType<typeof hydrateRoot> | undefined;
    const recoverable: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(container, app, { onRecoverableError: (error) => recoverable.push(error) });
    });
    probe.firstRender = false;
    expect(probe.mismatches).toEqual([]);
    expect(recoverable, 'hydration matched the prerender').toEqual([]);
    // The values did switch, with the `hydrated` transition.
    await vi.waitFor(() => expect(container.querySelector('[data-testid="values"]')?.textContent).toBe('true true dark dark'));
    act(() => root?.unmount());
    container.remove();
  });
});

/** The files of web/app (tests aside) that call useSyncExternalStore directly. */
function directStores(): string[] {
  const app = join(import.meta.dirname, '..');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
    });
  return walk(app)
    .filter((file) => /useSyncExternalStore\(/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(app, file))
    .sort();
}

describe('stores outside the hydration pass', () => {
  it('every other useSyncExternalStore either agrees with its server snapshot or is first rendered after hydration', () => {
    // use-hydrated.tsx: useClientValue, the server value until the `hydrated` switch (the test above).
    // CurrentYear.tsx: its server snapshot reads back the year the HTML holds, the client's year.
    // CookieBanner.tsx: ConsentGate mounts it only once hydrated, so it never hydrates.
    expect(directStores()).toEqual(['components/CurrentYear.tsx', 'components/use-hydrated.tsx', 'features/consent/CookieBanner.tsx']);
  });
});
