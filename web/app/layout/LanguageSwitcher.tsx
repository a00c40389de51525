import { useContext } from 'react';
import { UNSAFE_DataRouterStateContext, useLocation } from 'react-router';
import { LOCALE_CODES, LOCALES, localeDirection } from '../../content/locales';
import { useLocaleBundle } from '../i18n/locale-context';
import { localizePath, unlocalizePath } from '../i18n/paths';
import { withBase } from '../base-path';

/**
 * Links to the same page in each other language: plain links (they work before hydration and
 * without scripts), each named in its own language and written in its own direction. Consent and theme live in localStorage, which
 * every language's pages share (same origin), so both survive the switch.
 */
export function LanguageSwitcher() {
  const { locale, catalogue } = useLocaleBundle();
  const { pathname, search, hash } = useLocation();
  // The router's state, read without useMatches(): the switcher also renders under a plain router
  // (the layout's tests), where there is no loader data and so no post.
  const routerState = useContext(UNSAFE_DataRouterStateContext);
  const others = LOCALE_CODES.filter((code) => code !== locale);
  if (others.length === 0) return null;
  const page = unlocalizePath(pathname);
  // A post written in some languages only (its loader names them): the others' /blogs instead.
  const translations = routerState?.matches
    .map((match) => (routerState.loaderData[match.route.id] as { translations?: unknown } | undefined)?.translations)
    .find((list): list is string[] => Array.isArray(list));

  return (
    <div role="group" className="language-switcher" aria-label={catalogue.ui.language}>
      <ul>
        {others.map((code) => (
          <li key={code}>
            <a
              href={withBase(
                translations && !translations.includes(code) ? localizePath(code, '/blogs') : `${localizePath(code, page)}${search}${hash}`,
              )}
              lang={code}
              dir={localeDirection(code)}
              hrefLang={code}
              className="language-link"
            >
              {LOCALES[code].name}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
