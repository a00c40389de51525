import type { Project } from '../../content/types';

/**
 * A project's demo video: muted, loaded only when played (preload none) behind a poster, in a
 * 16:9 frame whose size is known before anything loads (no layout shift).
 */
export function ProjectVideo({ project }: { project: Project }) {
  if (!project.url) return null;
  return (
    <div className="video-frame">
      <video
        controls
        muted
        playsInline
        preload="none"
        poster={project.poster || undefined}
        width={640}
        height={360}
        aria-label={`Demo video of ${project.title}`}
      >
        {project.webm ? <source src={project.webm} type="video/webm" /> : null}
        <source src={project.url} type="video/mp4" />
      </video>
    </div>
  );
}
