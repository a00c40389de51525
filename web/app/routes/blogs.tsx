import { blogs } from '../../content/blogs';
import { pages } from '../../content/pages';
import { site } from '../../content/site';
import { usePageEvent } from '../features/analytics/page-events';
import { trackClick } from '../features/tracking/track-click';
import { pageMeta } from '../layout/seo';
import { CLICK_EVENTS } from '../../../contract/event-names';

export function meta() {
  return pageMeta({ title: 'Blogs', description: pages.blogs.description, path: '/blogs' });
}

export default function Blogs() {
  usePageEvent('blogsPage');
  return (
    <section aria-labelledby="blogs-title">
      <h1 id="blogs-title">Insights &amp; Inspiration</h1>
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
              onClick={() => trackClick(CLICK_EVENTS.blogRead, blog.title)}
            >
              <h2 className="card-title">{blog.title}</h2>
              <p className="blog-description">“{blog.description}”</p>
              <p className="blog-meta">
                <span>{blog.published}</span>
                <span aria-hidden="true"> · </span>
                <span>{blog.length}</span>
                <span className="visually-hidden"> (opens in a new tab)</span>
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
          Client blogs <span aria-hidden="true">↗</span>
        </a>
      </p>
    </section>
  );
}
