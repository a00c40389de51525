import { loadCatalogue } from '../../content/check';
import { localeDirection } from '../../content/locales';
import { localeOfPath } from '../i18n/paths';
import { absoluteUrl, previewImagePath } from '../layout/seo';
import { siteUrl } from '../layout/site-url';
import { summaryOfPath } from '../routes/page-summaries.server';
import type { Preview } from './card';

/*
 * What a page's preview card shows: the page's summary (routes/page-summaries.server.ts), in its
 * language, the same its head states (never read back from the written HTML).
 */

/** The preview card of one page (a path with its language prefix: /es/projects/3). */
export async function previewOfPage(pagePath: string): Promise<Preview> {
  const locale = localeOfPath(pagePath);
  const [summary, { site }] = await Promise.all([summaryOfPath(pagePath), loadCatalogue(locale)]);
  return {
    image: new URL(absoluteUrl(previewImagePath(pagePath)), 'http://localhost').pathname,
    kicker: summary.kicker ?? '',
    title: summary.headline ?? summary.title,
    description: summary.description,
    host: /^https?:\/\//.test(siteUrl) ? new URL(siteUrl).host : '',
    name: site.name,
    role: site.role,
    ...(localeDirection(locale) === 'rtl' ? { dir: 'rtl' as const } : {}),
  };
}
