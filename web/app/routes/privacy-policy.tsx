import { metaBundle, pageMeta, type PageMetaArgs } from '../layout/seo';
import { useLoaderData } from 'react-router';
import { privacyPolicyOfPage } from './page-content';
import { useCatalogue } from '../i18n/locale-context';

/**
 * The page's copy and privacy policy in its language, written into the page at build time with the
 * deploy's own settings (how long the message archive keeps a message) and its date written out.
 */
export function loader({ request }: { request: Request }) {
  return privacyPolicyOfPage(request);
}

export function meta(args?: PageMetaArgs<Awaited<ReturnType<typeof loader>>>) {
  const bundle = metaBundle(args);
  const { ui } = bundle.catalogue;
  return pageMeta({ title: ui.privacy.title, description: args?.loaderData?.copy.description ?? '', path: '/privacy-policy', bundle });
}

export default function PrivacyPolicy() {
  const { ui } = useCatalogue();
  const { privacyPolicy, lastUpdatedText } = useLoaderData<typeof loader>();
  return (
    <article className="prose" aria-labelledby="privacy-title">
      <h1 id="privacy-title">{ui.privacy.title}</h1>
      <p className="muted">
        {ui.privacy.lastUpdated(lastUpdatedText)}
      </p>
      {privacyPolicy.sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.list ? (
            <ul>
              {section.list.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </article>
  );
}
