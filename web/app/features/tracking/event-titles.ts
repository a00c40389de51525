import type { EventTitles } from '../../config/event-titles';

// Inlined by the build (web/app/config/event-titles.ts): the default language's titles.
declare const __EVENT_TITLES__: EventTitles;

/** The title a project's events are named by (the default language's), whatever the page's language. */
export function projectEventTitle(id: number): string {
  const title = __EVENT_TITLES__.projects[id];
  if (title === undefined) throw new Error(`No project ${id} in the default language's content.`);
  return title;
}

export function blogEventTitle(id: number): string {
  const title = __EVENT_TITLES__.blogs[id];
  if (title === undefined) throw new Error(`No article ${id} in the default language's content.`);
  return title;
}
