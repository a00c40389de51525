/**
 * Click-event names, shared by the browser tracker and the events Lambda: upper-case letters,
 * digits and '_', at most 100 characters (the events API refuses anything else with a 400).
 */
export const EVENT_NAME_MAX = 100;
export const EVENT_NAME_PATTERN = /^[A-Z0-9_]{1,100}$/;

export function isValidEventName(name: unknown): name is string {
  return typeof name === 'string' && EVENT_NAME_PATTERN.test(name);
}

/**
 * Builds an event name from a prefix and free text such as a project title:
 * 'PROJECT_VIEW' + 'Hotel Booking Manager' → 'PROJECT_VIEW_HOTEL_BOOKING_MANAGER'.
 * Accents are folded (Café → CAFE), every other run of characters becomes one '_'.
 */
export function eventName(prefix: string, text?: string): string {
  const slug = (text ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const name = slug ? `${prefix}_${slug}` : prefix;
  return name.slice(0, EVENT_NAME_MAX).replace(/_+$/, '');
}

/**
 * The click events the site sends: a fixed name, or a prefix that eventName completes with a menu
 * entry or a project or article title. The site and the events function's catalog both use these.
 */
export const CLICK_EVENTS = {
  /** + menu entry */
  sidebarNav: 'SIDEBAR_NAV',
  sidebarLinkedIn: 'SIDEBAR_LINKEDIN_CLICK',
  homeExploreProjects: 'HOME_EXPLORE_PROJECTS_CLICK',
  /** + project title */
  projectView: 'PROJECT_VIEW',
  projectWebsite: 'PROJECTS_WEBSITE',
  projectGithub: 'PROJECTS_GITHUB',
  projectContact: 'PROJECTS_CONTACT',
  /** + article title */
  blogRead: 'BLOG_READ',
  clientBlogs: 'BLOGS_CLIENT_BLOGS',
} as const;
