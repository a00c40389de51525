/**
 * The colour theme: what the inline head script, the theme control and the stylesheet agree on.
 *
 * The stylesheet follows the system's `prefers-color-scheme` by itself (CSS `light-dark()` under
 * `color-scheme: light dark`). A visitor's explicit choice is stored in local storage and applied
 * as `data-theme` on <html> by THEME_SCRIPT, which runs first thing in the head, before the first
 * paint, so a reload never flashes the other theme. Its text is a constant (no content, no build
 * data), so one sha256 in the Content-Security-Policy admits it on every page and every build.
 */

/** Local storage key of the visitor's choice: 'light' or 'dark'; absent means "follow the system". */
export const THEME_STORAGE_KEY = 'theme';

/** The attribute on <html> that forces a theme; absent means "follow the system". */
export const THEME_ATTRIBUTE = 'data-theme';

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export type ThemePreference = Theme | 'system';

export function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark';
}

/**
 * The inline head script. Tiny and defensive: storage can throw (blocked cookies, sandboxed
 * frames) and may hold anything, so only the two known values are applied.
 */
export const THEME_SCRIPT =
  `try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');` +
  `if(t==='light'||t==='dark')document.documentElement.setAttribute('${THEME_ATTRIBUTE}',t)}catch(e){}`;

/** `theme-color` per scheme: the colour of the phone bar, so the browser's chrome continues it. */
export const THEME_COLORS: Record<Theme, string> = {
  light: '#0f1b2d',
  dark: '#070c17',
};
