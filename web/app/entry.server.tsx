import { prerender } from 'react-dom/static';
import { ServerRouter, type EntryContext } from 'react-router';
import { EveryLanguageNotFound } from './layout/FallbackPage';
import { notFoundTexts } from './layout/fallback-texts.server';
import { PageTexts } from './components/PageText';
import { PostBodies } from './posts/PostBody';
import { postBodies } from './posts/posts.server';
import { pageTexts } from './routes/page-texts.server';

/** A page whose render takes longer than this fails the build instead of hanging it. */
const RENDER_TIMEOUT_MS = 30_000;

/**
 * The site renders only at build time (ssr: false, every page prerendered), so each page is rendered
 * whole with React's static `prerender`, which waits for all data before writing anything. React
 * Router's default entry streams instead: its loader data then arrives in a Suspense boundary after
 * the shell, and every page carried React's boundary-swap script and a hidden copy of that part.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
): Promise<Response> {
  // Every language's 404 words, for the fallback page's visitors without JavaScript (FallbackPage.tsx).
  // Every post's HTML, and the projects' and privacy policy's long texts: written into their pages here,
  // and carried by no script or data file (PostBody.tsx, PageText.tsx).
  const page = (
    <EveryLanguageNotFound.Provider value={notFoundTexts()}>
      <PostBodies.Provider value={await postBodies()}>
        <PageTexts.Provider value={await pageTexts()}>
          <ServerRouter context={routerContext} url={request.url} />
        </PageTexts.Provider>
      </PostBodies.Provider>
    </EveryLanguageNotFound.Provider>
  );
  const { prelude } = await prerender(page, { signal: AbortSignal.timeout(RENDER_TIMEOUT_MS) });
  responseHeaders.set('Content-Type', 'text/html');
  return new Response(prelude, { status: responseStatusCode, headers: responseHeaders });
}
