import { usePageEvent } from '../features/analytics/page-events';
import { ContactForm } from '../features/contact/ContactForm';
import { useLoaderData } from 'react-router';
import { summaryMeta } from '../layout/seo';
import { headOfPage, pageCopy } from './page-content';
import { useCatalogue } from '../i18n/locale-context';

/** The owner's copy of the page in its language, written into the page at build time. */
export async function loader({ request }: { request: Request }) {
  return { ...(await pageCopy(request, 'contact')), page: await headOfPage(request, '/contact') };
}

export const meta = summaryMeta;

export default function Contact() {
  usePageEvent('contactPage');
  const { ui } = useCatalogue();
  const { copy } = useLoaderData<typeof loader>();
  return (
    <section className="contact-page" aria-labelledby="contact-title">
      <h1 id="contact-title">{ui.contact.heading}</h1>
      <p className="lead">{copy.intro}</p>
      <div className="card contact-card">
        <ContactForm />
      </div>
    </section>
  );
}
