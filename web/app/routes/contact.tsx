import { usePageEvent } from '../features/analytics/page-events';
import { ContactForm } from '../features/contact/ContactForm';
import { metaBundle, pageMeta } from '../layout/seo';
import { useCatalogue } from '../i18n/locale-context';

export function meta(args?: { matches?: readonly ({ handle?: unknown } | undefined)[] }) {
  const bundle = metaBundle(args);
  const { ui, pages } = bundle.catalogue;
  return pageMeta({ title: ui.contact.title, description: pages.contact.description, path: '/contact', bundle });
}

export default function Contact() {
  usePageEvent('contactPage');
  const { pages, ui } = useCatalogue();
  return (
    <section className="contact-page" aria-labelledby="contact-title">
      <h1 id="contact-title">{ui.contact.heading}</h1>
      <p className="lead">{pages.contact.intro}</p>
      <div className="card contact-card">
        <ContactForm />
      </div>
    </section>
  );
}
