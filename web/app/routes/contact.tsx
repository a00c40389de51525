import { pages } from '../../content/pages';
import { usePageEvent } from '../features/analytics/page-events';
import { ContactForm } from '../features/contact/ContactForm';
import { pageMeta } from '../layout/seo';

export function meta() {
  return pageMeta({ title: 'Contact', description: pages.contact.description, path: '/contact' });
}

export default function Contact() {
  usePageEvent('contactPage');
  return (
    <section className="contact-page" aria-labelledby="contact-title">
      <h1 id="contact-title">Contact Me</h1>
      <p className="lead">{pages.contact.intro}</p>
      <div className="card contact-card">
        <ContactForm />
      </div>
    </section>
  );
}
