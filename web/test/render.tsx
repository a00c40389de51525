/**
 * Testing Library for the site's tests: `render` and `renderHook` put what they render under the
 * default language's provider, as a page sits under its language layout on the site; a test's own
 * `wrapper` goes inside it. Web tests import Testing Library from here (eslint.config.js).
 */
import { render as renderAlone, renderHook as renderHookAlone, type RenderHookOptions, type RenderOptions } from '@testing-library/react';
import type { ComponentType, ReactElement, ReactNode } from 'react';
import { handle } from '../content/catalogue';
import { LocaleProvider } from '../app/i18n/locale-context';

export * from '@testing-library/react';

/** English, the default language: what a test renders speaks it unless it renders its own provider. */
export const english = handle.localeBundle;

/** What a route's `meta` reads outside the router: the matches of the default language's layout. */
export const englishMatches = [{ handle }];

/** For a test that renders without Testing Library (renderToString, hydrateRoot). */
export function inEnglish(ui: ReactNode): ReactElement {
  return <LocaleProvider bundle={english}>{ui}</LocaleProvider>;
}

function englishWrapper(Inner?: ComponentType<{ children: ReactNode }>): ComponentType<{ children: ReactNode }> {
  return ({ children }) => inEnglish(Inner ? <Inner>{children}</Inner> : children);
}

export function render(ui: ReactElement, options: RenderOptions = {}): ReturnType<typeof renderAlone> {
  return renderAlone(ui, { ...options, wrapper: englishWrapper(options.wrapper) });
}

export function renderHook<Result, Props>(hook: (props: Props) => Result, options: RenderHookOptions<Props> = {}) {
  return renderHookAlone(hook, { ...options, wrapper: englishWrapper(options.wrapper) });
}
