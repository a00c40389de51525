/**
 * Every click-event name the site can send, derived from the owner's content, so the
 * events function knows them without a list to keep in step by hand. Each known name gets its own
 * metric dimension; any other well-formed name is still answered 204 but counted as OTHER_EVENT:
 * CloudWatch bills per distinct dimension value, and a stranger must not be able to mint metrics.
 */
import { blogs } from '../web/content/blogs';
import { projects } from '../web/content/projects';
import { MENU_ENTRIES } from './menu';
import { CLICK_EVENTS, eventName } from './event-names';

/** The dimension value for well-formed names the site never sends. */
export const OTHER_EVENT = 'OTHER_EVENT';

export function siteEventNames(): ReadonlySet<string> {
  return new Set([
    ...MENU_ENTRIES.map((entry) => eventName(CLICK_EVENTS.sidebarNav, entry)),
    eventName(CLICK_EVENTS.sidebarLinkedIn),
    eventName(CLICK_EVENTS.homeExploreProjects),
    ...projects.flatMap((project) =>
      [CLICK_EVENTS.projectView, CLICK_EVENTS.projectWebsite, CLICK_EVENTS.projectGithub, CLICK_EVENTS.projectContact].map(
        (prefix) => eventName(prefix, project.title),
      ),
    ),
    ...blogs.map((blog) => eventName(CLICK_EVENTS.blogRead, blog.title)),
    eventName(CLICK_EVENTS.clientBlogs),
  ]);
}
