import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CLICK_EVENTS } from '../../../contract/event-names';
import { tracked } from '../features/tracking/tracked';
import { useCatalogue } from '../i18n/locale-context';
import type { PostCard as PostCardData } from './page-content';

/** An on-site post's card on /blogs and on a tag's page: the whole card is one link to its page, in the same tab. */
export function PostCard({ post }: { post: PostCardData }) {
  return (
    <Link className="card blog-card" to={post.href} {...tracked(CLICK_EVENTS.blogRead, post.eventTitle)}>
      <CardText card={post} />
    </Link>
  );
}

/** What a post's card and an external article's card (/blogs) show; `children` end its line of facts. */
export function CardText({
  card,
  children,
}: {
  card: Pick<PostCardData, 'title' | 'description' | 'published' | 'publishedText' | 'minutesText'>;
  children?: ReactNode;
}) {
  const { ui } = useCatalogue();
  return (
    <>
      {/* Isolated: a title may keep Latin words or stay in English inside a right-to-left page, and an
          external article often keeps its original language. */}
      <h2 className="card-title">
        <bdi>{card.title}</bdi>
      </h2>
      <p className="blog-description">
        <bdi>“{card.description}”</bdi>
      </p>
      <p className="blog-meta">
        <time dateTime={card.published}>{card.publishedText}</time>
        <span aria-hidden="true"> · </span>
        <span>{ui.blogs.readLength(card.minutesText)}</span>
        {children}
      </p>
    </>
  );
}
