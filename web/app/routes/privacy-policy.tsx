import { summaryMeta } from '../layout/seo';
import { useLoaderData } from 'react-router';
import { headOfPage, privacyPolicyOfPage } from './page-content';
import { useCatalogue, useLocale } from '../i18n/locale-context';
import { fetchPageTexts, PageText, pageTextId, type FetchedTexts } from '../components/PageText';

/**
 * The page's copy and the policy's date in its language, written into the page at build time. The
 * policy itself, written out with the deploy's own settings (how long the message archive keeps a
 * message), is in the page's HTML only (PageText.tsx, page-texts.server.ts).
 */
export async function loader({ request }: { request: Request }) {
  const { privacyPolicy: _inTheHtml, ...shown } = await privacyPolicyOfPage(request);
  return { ...shown, page: await headOfPage(request, '/privacy-policy') };
}

/** A client navigation reads the policy from the prerendered page; hydration keeps the page's own HTML. */
export async function clientLoader({ request, serverLoader }: { request: Request; serverLoader: () => ReturnType<typeof loader> }) {
  const [data, texts] = await Promise.all([serverLoader(), fetchPageTexts(new URL(request.url).pathname, request.signal)]);
  return { ...data, texts };
}

export const meta = summaryMeta;

export default function PrivacyPolicy() {
  const { ui } = useCatalogue();
  const { lastUpdatedText, revisedText, texts } = useLoaderData<Awaited<ReturnType<typeof loader>> & { texts?: FetchedTexts }>();
  const locale = useLocale();
  return (
    <article className="prose" aria-labelledby="privacy-title">
      <h1 id="privacy-title">{ui.privacy.title}</h1>
      <p className="muted">
        {ui.privacy.lastUpdated(lastUpdatedText)}
        {revisedText === undefined ? null : ` · ${ui.privacy.revised(revisedText)}`}
      </p>
      <PageText as="div" id={pageTextId(locale, 'privacy-policy')} texts={texts} />
    </article>
  );
}
