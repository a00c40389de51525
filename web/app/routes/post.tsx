import { isRouteErrorResponse, Link, redirect, useLoaderData } from 'react-router';
import { useCatalogue, useLocalizePath } from '../i18n/locale-context';
import { postOfPage } from './page-content';
import { encodePath, pathOf } from '../../../contract/site-routes';
import { localizePath } from '../i18n/paths';
import { fetchPostBody, PostBody } from '../posts/PostBody';
import { summaryMeta, type PageMetaArgs } from '../layout/seo';
import '../posts/post.css';
import { localeOfRequest } from '../base-path';

/** The post's facts in its language, written into the page at build time (its text is in the HTML only). */
/*
 * Typed by hand, not by React Router's generated `+types/post`: the route exists only in a build with
 * posts (routes.ts), and the shipped content has none, so typegen writes no types for it.
 */
type PostData = Awaited<ReturnType<typeof postOfPage>>;

export function loader({ request, params }: { request: Request; params: { slug?: string } }) {
  return postOfPage(request, params.slug);
}

/**
 * A client navigation (a card on /blogs, the language switcher) reads the post's text from its
 * prerendered page, the one place it is; a slug with no page goes to /error. Not used to hydrate a
 * prerendered page (no `hydrate`): the page's own HTML is kept.
 */
export async function clientLoader({ request, serverLoader }: { request: Request; serverLoader: () => Promise<PostData> }) {
  try {
    const [data, html] = await Promise.all([serverLoader(), fetchPostBody(new URL(request.url).pathname, request.signal)]);
    // `npm run dev`'s data carries the text itself (its pages are not prerendered).
    return { ...data, html: data.html ?? html };
  } catch (error) {
    if (isRouteErrorResponse(error) && error.status === 404) {
      throw redirect(localizePath(localeOfRequest(request), '/error'));
    }
    throw error;
  }
}

export function meta(args: PageMetaArgs<PostData>) {
  const post = args.loaderData?.post;
  if (!post) return [];
  return [
    ...summaryMeta(args, { locales: args.loaderData!.translations }),
    { property: 'article:published_time', content: post.published },
    ...(post.updated ? [{ property: 'article:modified_time', content: post.updated }] : []),
    ...post.tags.map((tag) => ({ property: 'article:tag', content: tag })),
  ];
}

export default function PostRoute() {
  const data = useLoaderData<PostData & { html?: string }>();
  const { post } = data;
  const { ui } = useCatalogue();
  const localize = useLocalizePath();
  return (
    <article className="post" aria-labelledby="post-title">
      <p className="breadcrumb">
        <Link to={localize('/blogs')}>{ui.blogs.allArticles}</Link>
      </p>
      <h1 id="post-title">
        <bdi>{post.title}</bdi>
      </h1>
      <p className="lead">{post.description}</p>
      <p className="blog-meta">
        <time dateTime={post.published}>{post.publishedText}</time>
        {post.updated ? (
          <>
            <span aria-hidden="true"> · </span>
            <span>{ui.blogs.updated(post.updatedText ?? '')}</span>
          </>
        ) : null}
        <span aria-hidden="true"> · </span>
        <span>{ui.blogs.readLength(post.minutesText)}</span>
      </p>
      {post.toc.length > 0 ? (
        <nav className="post-toc" aria-labelledby="post-toc-title">
          <h2 id="post-toc-title">{ui.blogs.onThisPage}</h2>
          <ol>
            {post.toc.map((entry) => (
              <li key={entry.id} className={entry.depth === 3 ? 'post-toc__sub' : undefined}>
                <a href={`#${entry.id}`}>{entry.text}</a>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <PostBody key={post.key} postKey={post.key} html={data.html} />
      {post.tags.length > 0 ? (
        <p className="post-tags">
          <span>{ui.blogs.tags}:</span>{' '}
          {post.tags.map((tag) => (
            <Link key={tag} className="post-tag" to={localize(encodePath(pathOf('tag', tag)))}>
              {tag}
            </Link>
          ))}
        </p>
      ) : null}
    </article>
  );
}
