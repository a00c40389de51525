import { type MouseEvent, useEffect, useRef, useState } from 'react';
import type { ProjectCard } from '../../content/types';
import { useUi } from '../i18n/locale-context';
import { withBase } from '../base-path';

/**
 * A project's demo video, behind its poster until the visitor asks for it.
 *
 * The page first shows a plain link to the video file with the poster as an image: a browser's
 * built-in player costs far more to lay out than an image (five of them took most of /projects'
 * main-thread time on a throttled phone), and the link plays the video even before the scripts
 * arrive or without them. After hydration, a click swaps in the player in place (same 16:9 frame,
 * no layout shift), playing, muted, with focus moved to it. Posters below the fold load lazily;
 * the page's largest one (`priority`) is fetched at once, at high priority.
 */
/**
 * The preload for a project's poster when it is the page's largest element, or null when the
 * project shows no poster: the same condition the component renders by.
 */
export function posterPreload(project: ProjectCard) {
  return project.url && project.poster
    ? { rel: 'preload', as: 'image', href: withBase(project.poster), fetchPriority: 'high' as const }
    : null;
}

export function ProjectVideo({ project, priority = false }: { project: ProjectCard; priority?: boolean }) {
  const [playing, setPlaying] = useState(false);
  const player = useRef<HTMLVideoElement>(null);
  const ui = useUi();

  useEffect(() => {
    if (playing) player.current?.focus();
  }, [playing]);

  if (!project.url) return null;
  const label = ui.projects.videoLabel(project.title);

  const play = (event: MouseEvent<HTMLAnchorElement>) => {
    // A modified click (new tab, download) keeps the link's own behaviour.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setPlaying(true);
  };

  return (
    <div className="video-frame">
      {playing ? (
        <video
          ref={player}
          controls
          autoPlay
          muted
          playsInline
          poster={withBase(project.poster) || undefined}
          width={640}
          height={360}
          aria-label={label}
          // Focusable in every browser, so focus can move here from the link it replaces.
          tabIndex={0}
        >
          {project.webm ? <source src={withBase(project.webm)} type="video/webm" /> : null}
          <source src={withBase(project.url)} type="video/mp4" />
        </video>
      ) : (
        <a className="video-poster" href={withBase(project.url)} aria-label={ui.projects.playLabel(label)} onClick={play}>
          {project.poster ? (
            <img
              src={withBase(project.poster)}
              alt=""
              width={640}
              height={360}
              decoding="async"
              loading={priority ? 'eager' : 'lazy'}
              fetchPriority={priority ? 'high' : 'auto'}
            />
          ) : null}
          <span className="video-play" aria-hidden="true" />
        </a>
      )}
    </div>
  );
}
