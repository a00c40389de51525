/**
 * Google Analytics 4 page events: one per page view, the fixed page names, and each project page's name made
 * from its English title by GA4's rules, with the full title as the `project_title` parameter. The
 * names are computed at build time (the project page's loader), so none of this ships to visitors.
 *
 * GA4's rules, from Google's own pages:
 * - Analytics Help, "[GA4] Event naming rules" (https://support.google.com/analytics/answer/13316687):
 *   event names "must start with a letter. Use only letters, numbers, and underscores. Don't use
 *   spaces"; reserved event names (web: click, error, page_view, scroll, …), the reserved web prefix
 *   `query_id`, and `firebase_`, `ga_`, `google_` (reserved for app event names, and with `_` and `gtag.`
 *   for parameter names).
 * - Analytics Help, "[GA4] Event collection limits" (https://support.google.com/analytics/answer/9267744):
 *   "Analytics doesn't process … an event name with more than 40 characters"; an event parameter
 *   value holds at most 100 characters (`page_title` 300, `page_location` 1,000).
 */

/** The fixed page events, one per page the site always has; a project page sends projectPageEvent(title). */
export const PAGE_EVENTS = {
  home: 'homePage',
  projects: 'projectsPage',
  blogs: 'blogsPage',
  contact: 'contactPage',
  about: 'aboutPage',
  notFound: 'pageNotFoundPage',
} as const;

export const GA4_EVENT_NAME_MAX = 40;
export const GA4_PARAMETER_VALUE_MAX = 100;

/** A name GA4 records: a letter, then letters, digits and '_', 40 characters at most. */
export const GA4_EVENT_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

/** Web event names GA4 reserves ("[GA4] Event naming rules", Web, Reserved event names). */
export const GA4_RESERVED_EVENT_NAMES: readonly string[] = [
  'ad_impression',
  'app_remove',
  'app_store_refund',
  'app_store_subscription_cancel',
  'app_store_subscription_renew',
  'click',
  'error',
  'file_download',
  'first_open',
  'first_visit',
  'form_start',
  'form_submit',
  'in_app_purchase',
  'page_view',
  'scroll',
  'session_start',
  'user_engagement',
  'view_complete',
  'video_progress',
  'video_start',
  'view_search_results',
];

/** Prefixes GA4 reserves (web event names: query_id; app event names and parameter names: the others). */
export const GA4_RESERVED_PREFIXES: readonly string[] = ['query_id', 'firebase_', 'ga_', 'google_'];

/** What a project's name starts with when its title alone would not be a valid or free name. */
const FALLBACK_PREFIX = 'project_';

function isReserved(name: string): boolean {
  const lower = name.toLowerCase();
  return GA4_RESERVED_EVENT_NAMES.includes(lower) || GA4_RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** True for a name GA4 records and does not reserve (compared without case, to be safe). */
export function isValidGa4EventName(name: string): boolean {
  return GA4_EVENT_NAME_PATTERN.test(name) && !isReserved(name);
}

/**
 * A project page's GA4 event name from its English title: accents folded (Café → Cafe), every run of
 * other characters one '_', 40 characters at most. A title that does not start with a letter, or
 * that would give a reserved name or prefix, gets `project_` in front:
 * 'Hotel Booking Manager' → 'Hotel_Booking_Manager', '3D Printer' → 'project_3D_Printer'.
 */
export function projectPageEvent(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const name = /^[A-Za-z]/.test(slug) && !isReserved(slug) ? slug : FALLBACK_PREFIX + slug;
  return name.slice(0, GA4_EVENT_NAME_MAX).replace(/_+$/, '');
}

/**
 * What would make GA4 drop or mix up a page event; empty when nothing. Every project's name must be
 * valid and its own (two titles that differ only in punctuation, or only after the 40th character,
 * would count as one project), and its title must fit a parameter value.
 */
export function pageEventProblems(projects: readonly { id: number; title: string }[]): string[] {
  const problems: string[] = [];
  const owners = new Map<string, string>(Object.values(PAGE_EVENTS).map((name) => [name, `the fixed page event "${name}"`]));
  for (const { id, title } of projects) {
    const name = projectPageEvent(title);
    const owner = `project ${id} ("${title}")`;
    if (!isValidGa4EventName(name)) problems.push(`${owner}: "${name}" is not a valid GA4 event name`);
    const clash = owners.get(name);
    if (clash) problems.push(`${owner} and ${clash} share the GA4 event name "${name}"; change one title`);
    else owners.set(name, owner);
    if (title.length > GA4_PARAMETER_VALUE_MAX) {
      problems.push(`${owner}: the title has ${title.length} characters; GA4 drops a project_title over ${GA4_PARAMETER_VALUE_MAX}`);
    }
  }
  return problems;
}

/** The build-time check (react-router.config.ts): throws one error listing every problem. */
export function checkPageEvents(projects: readonly { id: number; title: string }[]): void {
  const problems = pageEventProblems(projects);
  if (problems.length > 0) {
    throw new Error(`Google Analytics page events (web/content/projects.ts):\n  - ${problems.join('\n  - ')}`);
  }
}
