import { useClientValue } from '../../components/use-hydrated';
import { THEME_ATTRIBUTE, THEME_STORAGE_KEY, isTheme, type Theme, type ThemePreference } from '../../../../contract/theme-script';

/**
 * The visitor's theme preference, shared by every theme control on the page and kept in step with
 * other tabs. Local storage holds a preference only (no identifier, never sent anywhere).
 */

const listeners = new Set<() => void>();

/** The system's dark-scheme query; null where matchMedia is missing (old engines, jsdom). */
function darkQuery(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
}

function readStored(): ThemePreference {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(value) ? value : 'system';
  } catch {
    return 'system';
  }
}

function apply(preference: ThemePreference) {
  const root = document.documentElement;
  if (preference === 'system') root.removeAttribute(THEME_ATTRIBUTE);
  else root.setAttribute(THEME_ATTRIBUTE, preference);
}

export function setThemePreference(preference: ThemePreference) {
  try {
    if (preference === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // Storage refused (private mode, blocked site data): the choice still holds for this page.
  }
  apply(preference);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed the choice: follow it here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
    apply(readStored());
    listener();
  };
  const media = darkQuery();
  window.addEventListener('storage', onStorage);
  media?.addEventListener('change', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
    media?.removeEventListener('change', listener);
  };
}

/** The page's preference as applied to <html> (the head script set it before the first paint). */
function currentPreference(): ThemePreference {
  const value = document.documentElement.getAttribute(THEME_ATTRIBUTE);
  return isTheme(value) ? value : 'system';
}

/**
 * 'system' in the prerender and while hydrating (the HTML cannot know), then the real choice. The page's
 * colours never wait for it: the head script has already applied the stored choice to <html>.
 */
export function useThemePreference(): ThemePreference {
  return useClientValue<ThemePreference>(subscribe, currentPreference, 'system');
}

function currentTheme(): Theme {
  const preference = currentPreference();
  if (preference !== 'system') return preference;
  return darkQuery()?.matches ? 'dark' : 'light';
}

/** The theme the page shows now ('light' in the prerender and while hydrating), for widgets that take a theme prop. */
export function useResolvedTheme(): Theme {
  return useClientValue<Theme>(subscribe, currentTheme, 'light');
}
