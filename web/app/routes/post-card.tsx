import { Link } from 'react-router';
import { CLICK_EVENTS } from '../../../contract/event-names';
import { tracked } from '../features/tracking/tracked';
import { useCatalogue } from '../i18n/locale-context';
import type { PostCard as PostCardData } from './page-content';

/** An on-site post's card on /blogs and on a tag's page: the whole card is one link to its page, in the same tab. */
export function PostCard({ post }: { post: PostCardData }) {
  const { ui } = useCatalogue();
  return (
    <Link className="card blog-card" to={post.href} {...tracked(CLICK_EVENTS.blogRead, post.eventTitle)}>
      {/* Isolated: a title may keep Latin words or stay in English inside a right-to-left page. */}
      <h2 className="card-title">
        <bdi>{post.title}</bdi>
      </h2>
      <p className="blog-description">
        <bdi>“{post.description}”</bdi>
      </p>
      <p className="blog-meta">
        <time dateTime={post.published}>{post.publishedText}</time>
        <span aria-hidden="true"> · </span>
        <span>{ui.blogs.readLength(post.minutesText)}</span>
      </p>
    </Link>
  );
}
