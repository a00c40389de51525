import { createContext, useContext, type ReactNode } from 'react';
import type { LocaleBundle, LocaleHandle, ShellCatalogue, UiMessages } from '../../content/types';
import { localizePath } from './paths';

export type { LocaleBundle } from '../../content/types';

const LocaleContext = createContext<LocaleBundle | null>(null);

export function LocaleProvider({ bundle, children }: { bundle: LocaleBundle; children: ReactNode }) {
  return <LocaleContext.Provider value={bundle}>{children}</LocaleContext.Provider>;
}

export function useLocaleBundle(): LocaleBundle {
  const bundle = useContext(LocaleContext);
  if (!bundle) throw new Error('No language: render this under a language layout route (web/app/routes.ts).');
  return bundle;
}

export const useCatalogue = (): ShellCatalogue => useLocaleBundle().catalogue;
export const useUi = (): UiMessages => useLocaleBundle().catalogue.ui;
export const useLocale = (): string => useLocaleBundle().locale;

/** Maps a default-locale path to the current page's locale: /contact → /es/contact on a Spanish page. */
export function useLocalizePath(): (path: string) => string {
  const { locale } = useLocaleBundle();
  return (path) => localizePath(locale, path);
}

function isLocaleHandle(handle: unknown): handle is LocaleHandle {
  return typeof handle === 'object' && handle !== null && 'localeBundle' in handle;
}

/** The matched language layout's strings, or null (the SPA fallback page before its routes load). */
export function matchedBundle(matches: readonly ({ handle?: unknown } | undefined)[] | undefined): LocaleBundle | null {
  return (matches ?? []).map((m) => m?.handle).find(isLocaleHandle)?.localeBundle ?? null;
}

/** The page's language, for a route's `meta` (from the matched locale layout's handle). */
export function bundleFromMatches(matches: readonly ({ handle?: unknown } | undefined)[] | undefined): LocaleBundle {
  const bundle = matchedBundle(matches);
  if (!bundle) throw new Error('No language for this page: its route must sit under a locale layout.');
  return bundle;
}
