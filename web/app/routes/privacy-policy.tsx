import { metaBundle, pageMeta } from '../layout/seo';
import { formatDate, useCatalogue, useLocale } from '../i18n/locale-context';

export function meta(args?: { matches?: readonly ({ handle?: unknown } | undefined)[] }) {
  const bundle = metaBundle(args);
  const { ui, pages } = bundle.catalogue;
  return pageMeta({ title: ui.privacy.title, description: pages.privacy.description, path: '/privacy-policy', bundle });
}

export default function PrivacyPolicy() {
  const { privacyPolicy, ui } = useCatalogue();
  const locale = useLocale();
  return (
    <article className="prose" aria-labelledby="privacy-title">
      <h1 id="privacy-title">{ui.privacy.title}</h1>
      <p className="muted">
        {ui.privacy.lastUpdated(formatDate(locale, privacyPolicy.lastUpdated))}
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
