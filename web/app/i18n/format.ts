import { LOCALES, type Locale } from '../../content/locales';

/*
 * Dates and numbers as each language writes them, for the routes' build-time loaders only
 * (page-content.ts): the text is written into the page and its .data file, so the browser never
 * constructs an Intl formatter while hydrating (one render step of 60–87 ms on a throttled phone).
 */

/** Formats an ISO date (yyyy-mm-dd) as the locale writes it: "September 27, 2024", "27 de septiembre de 2024". */
export function formatDate(locale: string, isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`Not an ISO date (yyyy-mm-dd): "${isoDate}".`);
  return new Intl.DateTimeFormat(intlTag(locale), { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

export function formatNumber(locale: string, value: number): string {
  return new Intl.NumberFormat(intlTag(locale)).format(value);
}

function intlTag(locale: string): string {
  return locale in LOCALES ? LOCALES[locale as Locale].intl : locale;
}
