import { createContext, useContext } from 'react';

/**
 * Every post's HTML, keyed `${locale}/${slug}`: given by the build's server entry (entry.server.tsx, from
 * posts.server.ts) and by nothing in the browser, so a post's text is in its prerendered HTML only, never
 * in a script or the page's loader data (docs/architecture.md, "Posts").
 */
export const PostBodies = createContext<ReadonlyMap<string, string> | null>(null);

/**
 * The post's text. At build time the server entry's HTML; in the browser, hydration keeps the HTML the
 * page came with (an element with `dangerouslySetInnerHTML` has no children for React to compare, and
 * its innerHTML is set again only when `__html` changes), and a client navigation passes the `html` its
 * clientLoader read from the prerendered page.
 */
export function PostBody({ postKey, html }: { postKey: string; html?: string }) {
  const bodies = useContext(PostBodies);
  const body = html ?? bodies?.get(postKey) ?? '';
  return <div className="post-body" data-post-body="" dangerouslySetInnerHTML={{ __html: body }} suppressHydrationWarning />;
}

/** A post's text from its prerendered page, for a client navigation (the same HTML the page has). */
export async function fetchPostBody(pathname: string, signal: AbortSignal): Promise<string> {
  const response = await fetch(pathname, { signal, headers: { Accept: 'text/html' } });
  if (!response.ok) throw new Response(null, { status: response.status });
  const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
  return doc.querySelector('[data-post-body]')?.innerHTML ?? '';
}
