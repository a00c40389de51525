import { createContext, useContext } from 'react';
import { LOCALES, LOCALE_CODES, localeDirection } from '../../content/locales';
import type { UiMessages } from '../../content/types';
import { homeLink } from '../i18n/paths';
import { withBase } from '../base-path';

/** The 404 page's heading, message and "Go home" of each language, default first. */
export type NotFoundTexts = { code: string; notFound: UiMessages['notFound'] }[];

/**
 * Given by the build's server entry (entry.server.tsx, from fallback-texts.server.ts) and by nothing in
 * the browser: the browser never renders a `<noscript>`'s content (React leaves it as the HTML has
 * it), so no language's strings join the page's scripts for it.
 */
export const EveryLanguageNotFound = createContext<NotFoundTexts>([]);

/**
 * The page served, with status 404, for every address that has no prerendered page, in every
 * language (the CDN has one such page: web/app/root.tsx's HydrateFallback, see docs/architecture.md).
 *
 * - With scripts, it is an empty area of the usual height until the client router shows the 404 page
 *   in the path's language (or, for an unknown project id, goes to /error); its heading tells
 *   assistive technology, in every language, that the page is loading.
 * - Without scripts, the path's language cannot be told (the CDN answers every missing address with
 *   this one file), so it shows the 404 page's heading, message and a link home in every language,
 *   each marked with its `lang` and `dir`. That part is inside `<noscript>`: a browser running scripts never
 *   parses it into elements, so it neither shows nor shifts anything there, and hydration leaves it be.
 */
export function FallbackPage() {
  const languages = useContext(EveryLanguageNotFound);
  return (
    <main className="page-placeholder">
      <div className="fallback-page">
        <h1>
          <span className="visually-hidden when-scripting">
            {LOCALE_CODES.map((code) => (
              <span key={code} lang={code} dir={localeDirection(code)}>
                {LOCALES[code].fallback.loading}{' '}
              </span>
            ))}
          </span>
          <noscript>
            {languages.map(({ code, notFound }) => (
              <span key={code} lang={code} dir={localeDirection(code)} className="fallback-page__line">
                {notFound.heading}
              </span>
            ))}
          </noscript>
        </h1>
        <noscript>
          {languages.map(({ code, notFound }) => (
            <div key={code} lang={code} dir={localeDirection(code)} className="fallback-page__language">
              <p>{notFound.message}</p>
              <a href={withBase(homeLink(code))} className="button">
                {notFound.goHome}
              </a>
            </div>
          ))}
        </noscript>
      </div>
    </main>
  );
}
