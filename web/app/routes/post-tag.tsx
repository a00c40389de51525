import { Link, useLoaderData } from 'react-router';
import { CLICK_EVENTS } from '../../../contract/event-names';
import { trackClick } from '../features/tracking/track-click';
import { useCatalogue, useLocalizePath } from '../i18n/locale-context';
import { postsWithTag } from './page-content';
import { metaBundle, pageMeta, type PageMetaArgs } from '../layout/seo';

/*
 * /blogs/tags/:tag: a language's posts with one tag. Typed by hand like routes/post.tsx (the route
 * exists only in a build whose posts have tags).
 */
type TagData = Awaited<ReturnType<typeof postsWithTag>>;

export function loader({ request, params }: { request: Request; params: { tag?: string } }) {
  return postsWithTag(request, params.tag);
}

export function meta({ loaderData, matches }: PageMetaArgs<TagData>) {
  const bundle = metaBundle({ matches });
  if (!loaderData) return [];
  const { ui } = bundle.catalogue;
  const title = ui.blogs.tagged(loaderData.tag);
  // A tag's page lists its language's posts only: no alternates (another language may not have the tag).
  return pageMeta({ title, description: loaderData.posts.map((post) => post.title).join(' · '), path: `/blogs/tags/${loaderData.tag}`, bundle, locales: [bundle.locale] });
}

export default function PostTag() {
  const { tag, posts } = useLoaderData<TagData>();
  const { ui } = useCatalogue();
  const localize = useLocalizePath();
  return (
    <section aria-labelledby="tag-title">
      <p className="breadcrumb">
        <Link to={localize('/blogs')}>{ui.blogs.allArticles}</Link>
      </p>
      <h1 id="tag-title">{ui.blogs.tagged(tag)}</h1>
      <ul className="blog-list">
        {posts.map((post) => (
          <li key={post.slug}>
            <Link className="card blog-card" to={post.href} onClick={() => trackClick(CLICK_EVENTS.blogRead, post.eventTitle)}>
              <h2 className="card-title">{post.title}</h2>
              <p className="blog-description">“{post.description}”</p>
              <p className="blog-meta">
                <time dateTime={post.published}>{post.publishedText}</time>
                <span aria-hidden="true"> · </span>
                <span>{ui.blogs.readLength(post.minutesText)}</span>
              </p>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
