import { usePageEvent } from '../features/analytics/page-events';
import { trackedExternal } from '../features/tracking/tracked';
import { summaryMeta } from '../layout/seo';
import { useLoaderData } from 'react-router';
import { blogArticles, headOfPage } from './page-content';
import { CardText, PostCard } from './post-card';
import { useCatalogue, useLocalizePath } from '../i18n/locale-context';
import { CLICK_EVENTS } from '../../../contract/event-names';
import { withBase } from '../base-path';

/** The page's copy and articles in its language (dates and numbers written out), written into the page at build time. */
export async function loader({ request }: { request: Request }) {
  return { ...(await blogArticles(request)), page: await headOfPage(request, '/blogs') };
}

export const meta = summaryMeta;

export default function Blogs() {
  usePageEvent('blogsPage');
  const { site, ui } = useCatalogue();
  const localize = useLocalizePath();
  const { copy, posts, blogs } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="blogs-title">
      <h1 id="blogs-title">{ui.blogs.heading}</h1>
      <p className="lead">{copy.intro}</p>
      <ul className="blog-list">
        {posts.map((post) => (
          <li key={post.slug}>
            <PostCard post={post} />
          </li>
        ))}
        {blogs.map((blog) => (
          // The anchor a search result for the article leads to.
          <li key={blog.id} id={`article-${blog.id}`}>
            {/* The whole card is one link to the external article, opened in a new tab. */}
            <a className="card blog-card" href={blog.url} {...trackedExternal(CLICK_EVENTS.blogRead, blog.eventTitle)}>
              <CardText card={blog}>
                <span className="visually-hidden">{ui.opensInNewTab}</span>
              </CardText>
            </a>
          </li>
        ))}
      </ul>
      <p className="blog-feed">
        <a href={withBase(localize('/feed.xml'))} type="application/atom+xml">
          {ui.blogs.feed}
        </a>
      </p>
      <p className="client-blogs">
        <a className="button button-secondary" href={site.clientBlogsUrl} {...trackedExternal(CLICK_EVENTS.clientBlogs)}>
          {ui.blogs.clientBlogs}{' '}
          <span aria-hidden="true" className="direction-icon">
            ↗
          </span>
        </a>
      </p>
    </section>
  );
}
