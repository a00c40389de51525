import { usePageEvent } from '../features/analytics/page-events';
import { trackClick } from '../features/tracking/track-click';
import { metaBundle, pageMeta } from '../layout/seo';
import { useLoaderData } from 'react-router';
import { pageContent } from '../i18n/page-content';
import { formatDate, formatNumber, useCatalogue, useLocale } from '../i18n/locale-context';
import { blogEventTitle } from '../features/tracking/event-titles';
import { CLICK_EVENTS } from '../../../contract/event-names';

/** The page's blogs in its language, written into the page at build time. */
export function loader({ request }: { request: Request }) {
  return pageContent(request, 'blogs');
}

export function meta(args?: { matches?: readonly ({ handle?: unknown } | undefined)[] }) {
  const bundle = metaBundle(args);
  const { ui, pages } = bundle.catalogue;
  return pageMeta({ title: ui.blogs.title, description: pages.blogs.description, path: '/blogs', bundle });
}

export default function Blogs() {
  usePageEvent('blogsPage');
  const { pages, site, ui } = useCatalogue();
  const { blogs } = useLoaderData<typeof loader>();
  const locale = useLocale();
  return (
    <section aria-labelledby="blogs-title">
      <h1 id="blogs-title">{ui.blogs.heading}</h1>
      <p className="lead">{pages.blogs.intro}</p>
      <ul className="blog-list">
        {blogs.map((blog) => (
          <li key={blog.id}>
            {/* The whole card is one link to the external article, opened in a new tab. */}
            <a
              className="card blog-card"
              href={blog.url}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => trackClick(CLICK_EVENTS.blogRead, blogEventTitle(blog.id))}
            >
              <h2 className="card-title">{blog.title}</h2>
              <p className="blog-description">“{blog.description}”</p>
              <p className="blog-meta">
                <time dateTime={blog.published}>{formatDate(locale, blog.published)}</time>
                <span aria-hidden="true"> · </span>
                <span>{ui.blogs.readLength(formatNumber(locale, blog.minutes))}</span>
                <span className="visually-hidden">{ui.opensInNewTab}</span>
              </p>
            </a>
          </li>
        ))}
      </ul>
      <p className="client-blogs">
        <a
          className="button button-secondary"
          href={site.clientBlogsUrl}
          target="_blank"
          rel="noopener noreferrer"
          onClick={() => trackClick(CLICK_EVENTS.clientBlogs)}
        >
          {ui.blogs.clientBlogs} <span aria-hidden="true">↗</span>
        </a>
      </p>
    </section>
  );
}
