import { DEFAULT_LOCALE, LOCALE_CODES } from '../../content/locales';
import type { UiMessages } from '../../content/types';
import type { NotFoundTexts } from './FallbackPage';

/**
 * Every language's interface strings, for the build only (a `.server` module: React Router keeps it
 * out of the browser build, and only entry.server.tsx imports it). The prerendered 404 fallback page
 * shows each language's 404 words to visitors without JavaScript; no page's scripts carry them.
 */
const UI_FILES = import.meta.glob<UiMessages>(['../../content/ui.ts', '../../content/*/ui.ts'], { eager: true, import: 'ui' });

/** The 404 page's words of every declared language, default first; a language without its ui.ts is named. */
export function notFoundTexts(files: Record<string, UiMessages> = UI_FILES): NotFoundTexts {
  return LOCALE_CODES.map((code) => {
    const file = code === DEFAULT_LOCALE ? '../../content/ui.ts' : `../../content/${code}/ui.ts`;
    const ui = files[file];
    if (!ui) throw new Error(`Locale "${code}" is declared in web/content/locales.ts but web/content/${code}/ui.ts exports no \`ui\`.`);
    return { code, notFound: ui.notFound };
  });
}
