/**
 * Every click-event name the site can send, derived from the owner's content (its callers pass
 * web/content/projects.ts and web/content/blogs.ts), so the events function knows them without a list
 * to keep in step by hand. Each known name gets its own metric dimension; any other well-formed name is
 * still answered 204 but counted as OTHER_EVENT: CloudWatch bills per distinct dimension value, and a
 * stranger must not be able to mint metrics.
 */
import { MENU_ENTRIES } from './menu';
import { CLICK_EVENTS, eventName } from './event-names';
import { SEARCH_RESULT_EVENT } from './search-event';

/** The dimension value for well-formed names the site never sends. */
export const OTHER_EVENT = 'OTHER_EVENT';

/**
 * The environment variable that carries the on-site posts' titles (a JSON array of strings) to the events
 * function: the posts are Markdown files the bundled Lambda cannot read, so the stack reads them at synth.
 */
export const POST_TITLES_VARIABLE = 'POST_EVENT_TITLES';

/**
 * How many bytes of the function's environment the titles may take. Lambda allows 4 KB for all of a
 * function's environment variables together (the Lambda quotas page, function configuration quotas,
 * https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html); the rest is left to the
 * runtime's and Powertools' variables.
 */
export const POST_TITLES_MAX_BYTES = 3_500;

/** The events function's environment for these titles; past the budget, synth stops with the reason. */
export function postTitlesEnvironment(titles: readonly string[]): Record<string, string> {
  const value = JSON.stringify(titles);
  const bytes = new TextEncoder().encode(value).length;
  if (bytes > POST_TITLES_MAX_BYTES) {
    throw new Error(
      `The posts' titles take ${bytes} bytes, over the ${POST_TITLES_MAX_BYTES} the events function's environment can hold (Lambda: 4 KB for all variables); bundle them into the function instead.`,
    );
  }
  return { [POST_TITLES_VARIABLE]: value };
}

/** The posts' titles from the function's environment; missing or malformed (never set by the stack) is none. */
export function postTitlesFromEnvironment(env: Record<string, string | undefined>): string[] {
  try {
    const value: unknown = JSON.parse(env[POST_TITLES_VARIABLE] ?? '[]');
    return Array.isArray(value) ? value.filter((title): title is string => typeof title === 'string') : [];
  } catch {
    return [];
  }
}

/** What the names are made of: the projects' and the external articles' titles. */
export interface EventContent {
  projects: readonly { title: string }[];
  blogs: readonly { title: string }[];
}

/** `postTitles`: the default language's post titles (infra/lib/post-titles.ts), whose cards send BLOG_READ too. */
export function siteEventNames({ projects, blogs }: EventContent, postTitles: readonly string[] = []): ReadonlySet<string> {
  return new Set([
    ...MENU_ENTRIES.map((entry) => eventName(CLICK_EVENTS.sidebarNav, entry)),
    eventName(CLICK_EVENTS.sidebarLinkedIn),
    eventName(CLICK_EVENTS.homeExploreProjects),
    ...projects.flatMap((project) =>
      [CLICK_EVENTS.projectView, CLICK_EVENTS.projectWebsite, CLICK_EVENTS.projectGithub, CLICK_EVENTS.projectContact].map((prefix) =>
        eventName(prefix, project.title),
      ),
    ),
    ...blogs.map((blog) => eventName(CLICK_EVENTS.blogRead, blog.title)),
    ...postTitles.map((title) => eventName(CLICK_EVENTS.blogRead, title)),
    eventName(CLICK_EVENTS.clientBlogs),
    SEARCH_RESULT_EVENT,
  ]);
}
