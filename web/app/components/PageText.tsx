import { createContext, useContext } from 'react';

/**
 * The long texts of the project and privacy pages, as HTML keyed by `pageTextId`: given by the build's
 * server entry (entry.server.tsx, from page-texts.server.ts) and by nothing in the browser. A text
 * the page already shows is not carried a second time in its loader data, which every first load
 * fetches as script (the same rule as posts' texts: posts/PostBody.tsx).
 */
export const PageTexts = createContext<ReadonlyMap<string, string> | null>(null);

/** Texts read from a prerendered page by a client navigation (`fetchPageTexts`), by their id. */
export type FetchedTexts = Readonly<Record<string, string>>;

/** The id of one page text: its language, then what it is (`es`, `projects`, `3`, `problem`). */
export function pageTextId(locale: string, ...parts: (string | number)[]): string {
  return [locale, ...parts].join('/');
}

interface PageTextProps {
  as: 'p' | 'dd' | 'div';
  id: string;
  /** The texts a client navigation read from the page (undefined when the page was loaded, and hydrated). */
  texts?: FetchedTexts;
}

/**
 * One page text. At build time the server entry's HTML; in the browser, hydration keeps the HTML the
 * page came with (an element with `dangerouslySetInnerHTML` has no children for React to compare, and
 * its innerHTML is set again only when `__html` changes), and a client navigation passes the texts its
 * clientLoader read from the prerendered page.
 */
export function PageText({ as: Tag, id, texts }: PageTextProps) {
  const prerendered = useContext(PageTexts);
  const html = texts?.[id] ?? prerendered?.get(id) ?? '';
  return <Tag data-page-text={id} dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />;
}

/** Every page text of a prerendered page, for a client navigation (the same HTML the page has). */
export async function fetchPageTexts(pathname: string, signal: AbortSignal): Promise<FetchedTexts> {
  const response = await fetch(pathname, { signal, headers: { Accept: 'text/html' } });
  if (!response.ok) throw new Response(null, { status: response.status });
  const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
  return Object.fromEntries(
    [...doc.querySelectorAll<HTMLElement>('[data-page-text]')].map((element) => [element.dataset.pageText ?? '', element.innerHTML]),
  );
}
