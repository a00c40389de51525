import type { Catalogue, LocaleHandle } from '../types';
import { about } from './about';
import { blogs } from './blogs';
import { funFacts } from './fun-facts';
import { pages } from './pages';
import { privacyPolicy } from './privacy-policy';
import { projects } from './projects';
import { search } from './search';
import { site, siteHead } from './site';
import { headUi, ui } from './ui';

/** Everything the site shows in this folder's language. A missing or extra key in any file here is a type error. */
export const catalogue: Catalogue = { ui, headUi, site, siteHead, pages, projects, blogs, about, funFacts, privacyPolicy, search };

/**
 * This module is also the layout route of this language's pages: its handle gives them their strings.
 * `locale` is this folder's name (the language's code in ../locales.ts).
 */
export const handle: LocaleHandle = {
  localeBundle: { locale: 'es', catalogue: { ui, site } },
};
