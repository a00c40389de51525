/**
 * Build-time only (vite.config.ts, vitest.config.ts): the default language's project and article
 * titles, inlined as __EVENT_TITLES__. Analytics page events and click events are named from them
 * on every language's pages, so a project's counts never split by language, and a page in another
 * language carries these few titles rather than the default language's content modules.
 */
import { blogs } from '../../content/blogs';
import { projects } from '../../content/projects';

export interface EventTitles {
  projects: Record<number, string>;
  blogs: Record<number, string>;
}

export function eventTitles(): EventTitles {
  return {
    projects: Object.fromEntries(projects.map((p) => [p.id, p.title])),
    blogs: Object.fromEntries(blogs.map((b) => [b.id, b.title])),
  };
}

export function defineEventTitles(): Record<string, string> {
  return { __EVENT_TITLES__: JSON.stringify(eventTitles()) };
}
