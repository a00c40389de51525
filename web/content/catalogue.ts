import { about } from './about';
import { blogs } from './blogs';
import { funFacts } from './fun-facts';
import { pages } from './pages';
import { privacyPolicy } from './privacy-policy';
import { projects } from './projects';
import { search } from './search';
import { site, siteHead } from './site';
import type { Catalogue, LocaleHandle } from './types';
import { headUi, ui } from './ui';

/** Everything the English site shows (the default language; each other language has a folder). */
export const catalogue: Catalogue = { ui, headUi, site, siteHead, pages, projects, blogs, about, funFacts, privacyPolicy, search };

/** This module is also the English pages' layout route: its handle gives them their strings. */
export const handle: LocaleHandle = {
  localeBundle: { locale: 'en', catalogue: { ui, site } },
};
