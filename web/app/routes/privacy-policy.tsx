import { pages } from '../../content/pages';
import { privacyPolicy } from '../../content/privacy-policy';
import { pageMeta } from '../layout/seo';

export function meta() {
  return pageMeta({ title: 'Privacy Policy', description: pages.privacy.description, path: '/privacy-policy' });
}

export default function PrivacyPolicy() {
  return (
    <article className="prose" aria-labelledby="privacy-title">
      <h1 id="privacy-title">Privacy Policy</h1>
      <p className="muted">last updated {privacyPolicy.lastUpdated}</p>
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
