import { Link, useLoaderData } from 'react-router';
import { useCatalogue, useLocalizePath } from '../i18n/locale-context';
import { postsWithTag } from './page-content';
import { PostCard } from './post-card';
import { metaBundle, summaryMeta, type PageMetaArgs } from '../layout/seo';

/*
 * /blogs/tags/:tag: a language's posts with one tag. Typed by hand like routes/post.tsx (the route
 * exists only in a build whose posts have tags).
 */
type TagData = Awaited<ReturnType<typeof postsWithTag>>;

export function loader({ request, params }: { request: Request; params: { tag?: string } }) {
  return postsWithTag(request, params.tag);
}

export function meta(args: PageMetaArgs<TagData>) {
  // A tag's page lists its language's posts only: no alternates (another language may not have the tag).
  return summaryMeta(args, { locales: [metaBundle(args).locale] });
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
            <PostCard post={post} />
          </li>
        ))}
      </ul>
    </section>
  );
}
