import { ui as es } from '../../web/content/es/ui';
import { search } from '../../web/content/search';
import { tablePagePaths } from '../../contract/page-paths';
import { DEFAULT_LOCALE, LOCALE_CODES } from '../../web/content/locales';
import { projects } from '../../web/content/projects';

/** Facts about the site (its pages, texts and settings) that several test files check. */

/**
 * Every page of the default language that has its own page, from the site's page table
 * (contract/site-routes.ts): the fixed pages, each project's (ids 1 to 5) and the error page.
 */
export const KNOWN_ROUTES: readonly string[] = tablePagePaths('visited', projects);

/** A path no route matches: the 404 page, with HTTP status 404. */
export const UNKNOWN_ROUTE = '/no-such-page';

export const MENU_ENTRIES = ['Projects', 'About', 'Contact', 'Blogs'] as const;

export const TEXT = {
  greetings: ['Good Morning', 'Good Afternoon', 'Good Evening'],
  moreToCome: 'More to come!',
  blogsHeading: 'Insights & Inspiration',
  contactHeading: 'Contact Me',
  letsChat: "Let's Chat!",
  errorHeading: '404 - Not Found',
  errorMessage: 'The page you are looking for doesn"t exist or an error occurred.',
  backToProjects: 'Go Back to Projects',
  notFoundHeading: 'Oops! Page not found.',
  goHome: 'Go home',
  contactMeFor: 'me for more information!',
  privacyUpdated: 'September 27, 2024',
  cookieShort: 'We use cookies.',
  cookieLong: 'We use cookies to enhance your experience and improve website functionality and content.',
  sending: 'Sending...',
  sent: 'Your message was sent!',
  sendFailed: 'Sorry, something went wrong. Please try again later.',
  invalidName: 'Please enter a valid full name.',
  invalidEmail: 'Please enter a valid email address.',
  invalidMessage: 'Please enter a valid message.',
  missingCaptcha: 'Please check the reCAPTCHA box.',
  gotIt: 'Got it!',
} as const;

export const CONSENT_KEY = 'cookieConsent';
export const SCROLL_THRESHOLD_PX = 300;

/** Collapses runs of whitespace, as a visitor reads text. */
export function normalize(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** A default-language path in a locale: /projects/3 → /es/projects/3 (the site's own rule). */
export function localized(locale: string, path: string): string {
  return locale === DEFAULT_LOCALE ? path : `/${locale}${path}`;
}

/** The languages other than the default one (their pages live under /<locale>/). */
export const OTHER_LOCALES = LOCALE_CODES.filter((code) => code !== DEFAULT_LOCALE);

/** Every page of every language: the known routes, then each other language's copy of them. */
export const ROUTES_OF_EVERY_LOCALE: readonly { locale: string; route: string }[] = LOCALE_CODES.flatMap((locale) =>
  KNOWN_ROUTES.map((route) => ({ locale, route: localized(locale, route) })),
);

export interface VisitorRoute {
  path: string;
  status: 200 | 404;
  /** Text a visitor reads in the page's main content. */
  text: string | RegExp;
  /** Its title, when not the one in its HTML: the 404 page is the app shell until the scripts render it. */
  title?: string;
}

/**
 * Every page the visitor flows open in each browser engine, with its status and a text of its own.
 * Another locale's pages are appended here (its paths and its texts).
 */
export const VISITOR_ROUTES: readonly VisitorRoute[] = [
  { path: '/home', status: 200, text: /Good (Morning|Afternoon|Evening)/ },
  { path: '/projects', status: 200, text: TEXT.moreToCome },
  ...[1, 2, 3, 4, 5].map((id) => ({ path: `/projects/${id}`, status: 200 as const, text: 'Technologies' })),
  { path: '/blogs', status: 200, text: TEXT.blogsHeading },
  { path: '/contact', status: 200, text: TEXT.contactHeading },
  { path: '/about', status: 200, text: TEXT.letsChat },
  { path: '/error', status: 200, text: TEXT.errorHeading },
  { path: '/privacy-policy', status: 200, text: TEXT.privacyUpdated },
  { path: '/search', status: 200, text: search.intro },
  { path: UNKNOWN_ROUTE, status: 404, text: TEXT.notFoundHeading, title: 'Page not found | Alex Example' },
  // The Spanish site in every engine too: a page of each kind, and its own 404 (the full set runs in Chromium).
  { path: '/es/home', status: 200, text: new RegExp(Object.values(es.greeting).join('|')) },
  { path: '/es/projects/3', status: 200, text: es.project.technologies },
  { path: '/es/contact', status: 200, text: es.contact.heading },
  { path: `/es${UNKNOWN_ROUTE}`, status: 404, text: es.notFound.heading, title: `${es.notFound.title} | Alex Example` },
];
