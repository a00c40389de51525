/** Shapes of the owner's content. Everything an owner edits lives in this folder (web/content). */

export interface Project {
  /** Numeric id, also the URL segment: /projects/{id}. */
  id: number;
  /** Path of a short demo video under web/public (the mp4), or '' for none. */
  url: string;
  /** Optional WebM version of the same video (smaller in browsers that play it), or ''. */
  webm: string;
  /** Poster image shown before the video loads ('' when there is no video). */
  poster: string;
  title: string;
  /** Comma-separated list of technologies. */
  tech: string;
  /** The need the project answered ("Need"). */
  problem: string;
  solution: string;
  /** Live website address ('' for none). */
  site: string;
  /** Source repository address, or '' for none. */
  github: string;
  description: string;
}

export interface BlogArticle {
  id: number;
  title: string;
  description: string;
  /** Publication date, ISO yyyy-mm-dd (each page writes it in its own language). */
  published: string;
  /** Reading length in minutes (shown as "4 min read" in English). */
  minutes: number;
  url: string;
}

export interface SiteProfile {
  /** The owner's name, shown in the layout, titles and the footer. */
  name: string;
  /** Role line under the headshot. */
  role: string;
  /** External professional profile (LinkedIn or similar). */
  profileUrl: string;
  /** Text of the profile link. */
  profileLabel: string;
  /**
   * Public address of the site without a trailing slash, used for canonical links, OpenGraph and the
   * sitemap. The build variable VITE_SITE_URL overrides it.
   */
  siteUrl: string;
  /** Headshot image under web/public (square). */
  headshot: string;
  /** Technology badges in the side panel. */
  badges: string[];
  /** External page listing articles written for clients ("Client blogs"). */
  clientBlogsUrl: string;
  /**
   * Optional: your résumé as a PDF under web/public, e.g. '/resume.pdf'. When set, the side panel and
   * /about show a "Résumé" link to it; leave it out for no link.
   */
  resume?: string;
}

/**
 * What only the pages' heads and structured data say of the owner (each language's site.ts, `siteHead`):
 * written into each page when it is built, never sent to the browser.
 */
export interface SiteHead {
  /** Short sentence for meta descriptions and link previews. */
  tagline: string;
}

export interface AboutContent {
  /** Paragraphs of the intro text. */
  intro: string[];
  /** Comma-separated lists. */
  technologies: string;
  tools: string;
  practices: string;
  education: EducationEntry[];
}

export interface EducationEntry {
  title: string;
  school: string;
  years: string;
  detail: string;
}

/** What the deploy configuration sets that the privacy policy states; filled in when the page is built. */
export interface PolicyFacts {
  /** Days the message archive keeps a contact message (`messageRetentionDays` in cdk.json, 365 by default). */
  messageRetentionDays: number;
  /** Days CloudWatch keeps the functions' logs, page views among them (`logRetentionDays` in cdk.json, 30 by default). */
  logRetentionDays: number;
}

/** A paragraph of the policy: plain text, or text written around the configured facts. */
export type PolicyText = string | ((facts: PolicyFacts) => string);

export interface PolicySection<Text = PolicyText> {
  heading: string;
  paragraphs: Text[];
  /** Optional bullet list after the paragraphs. */
  list?: string[];
}

export interface PrivacyPolicy<Text = PolicyText> {
  /** ISO yyyy-mm-dd (the page writes it in its own language: "September 27, 2024"). */
  lastUpdated: string;
  /**
   * ISO yyyy-mm-dd of the latest revision, when there was one since lastUpdated: the page shows it beside
   * lastUpdated, so a visitor sees when the policy last changed in every language.
   */
  revised?: string;
  sections: PolicySection<Text>[];
}

/** The policy as the page shows it: every paragraph written out with this build's facts. */
export type WrittenPrivacyPolicy = PrivacyPolicy<string>;

/**
 * The strings of the search dialog and of the /search page (its version without JavaScript). They travel
 * with the language's search index, not with every page. Plain strings only (they are written into a
 * module at build time): `{count}` in `results.many` is replaced by the number.
 */
export interface SearchCopy {
  /** The /search page's title, its heading and its description for search engines. */
  title: string;
  description: string;
  /** The /search page's line above the lists: every page of the site, by kind. */
  intro: string;
  /** The dialog's name and its field's label. */
  label: string;
  placeholder: string;
  close: string;
  /** How the dialog is used, under the field (arrow keys, Enter, Escape). */
  help: string;
  loading: string;
  failed: string;
  results: { none: string; one: string; many: string };
  /** Each result's kind, and each list's heading on the /search page. */
  kinds: { page: string; project: string; post: string; article: string };
}

/** Owner-written copy of the pages: intros, the home headline and each page's search description. */
export interface PageCopy {
  home: { headline: string; intro: readonly string[]; cta: string; description: string };
  projects: { intro: string; description: string };
  blogs: { intro: string; description: string };
  contact: { intro: string; description: string };
  about: { description: string };
  privacy: { description: string };
}

/**
 * Every interface string of the site in one language (menu, buttons, banner, form, messages,
 * accessible names). Each locale's ui.ts must give every key, and no other: a missing or extra key
 * is a type error in that locale's file.
 */
export interface UiMessages {
  /** Names of the menu entries, by the entry's (English) key, which also names its path and click event. */
  menu: { Projects: string; About: string; Contact: string; Blogs: string };
  skipLink: string;
  mainNav: string;
  menuButton: string;
  sidePanel: string;
  headshotLabel: (name: string) => string;
  headshotHint: string;
  headshotLoading: string;
  headshotNeedsScripts: string;
  badges: string;
  /** The search control's text (side panel and phone bar): opens the search dialog, or the /search page without scripts. */
  search: string;
  opensInNewTab: string;
  rightsReserved: string;
  privacyPolicyLink: string;
  /** Name of the language switcher's group. */
  language: string;
  resume: string;
  theme: { legend: string; light: string; dark: string; system: string };
  funFact: { title: string; close: string; gotIt: string };
  scrollToTop: string;
  backToTop: string;
  cookie: {
    label: string;
    short: string;
    long: string;
    accept: string;
    /** What the +/- toggle shows and hides; its accessible name is the visible + or - followed by this. */
    more: string;
  };
  greeting: { morning: string; afternoon: string; evening: string };
  home: { iAm: (name: string) => string };
  projects: {
    title: string;
    need: string;
    solution: string;
    tech: string;
    readMore: string;
    moreToCome: string;
    videoLabel: (title: string) => string;
    playLabel: (videoLabel: string) => string;
  };
  project: {
    allProjects: string;
    technologies: string;
    description: string;
    website: string;
    github: string;
    contact: string;
    contactRest: string;
    notFoundTitle: string;
    notFoundDescription: string;
  };
  blogs: {
    title: string;
    heading: string;
    clientBlogs: string;
    readLength: (minutes: string) => string;
    /** An on-site post's page: its table of contents, its update date, its tags and the way back. */
    onThisPage: string;
    updated: (date: string) => string;
    tags: string;
    allArticles: string;
    /** The heading and title of a tag's page (/blogs/tags/{tag}). */
    tagged: (tag: string) => string;
    /** The link to the language's Atom feed on /blogs. */
    feed: string;
  };
  contact: {
    title: string;
    heading: string;
    fullName: string;
    email: string;
    message: string;
    send: string;
    sending: string;
    invalidName: string;
    invalidEmail: string;
    invalidMessage: string;
    missingCaptcha: string;
    sendFailed: string;
    sent: string;
    captchaLoading: string;
    captchaFailed: string;
    captchaNeedsScripts: string;
  };
  about: {
    title: string;
    heading: string;
    letsChat: string;
    technologies: string;
    tools: string;
    practices: string;
    education: string;
  };
  error: { title: string; message: string; back: string };
  notFound: { title: string; description: string; heading: string; message: string; goHome: string };
  failure: { heading: string; message: string; goHome: string };
  privacy: { title: string; lastUpdated: (date: string) => string; revised: (date: string) => string };
}

/**
 * The interface strings only the pages' heads and link previews use (each locale's ui.ts, `headUi`):
 * written into each page when it is built, never sent to the browser.
 */
export interface HeadUiMessages {
  home: { previewKicker: string };
  project: { previewKicker: string; metaDescription: (solution: string, tech: string) => string };
  error: { description: string };
}

/** Everything one language of the site shows: the interface strings and the owner's content. */
export interface Catalogue {
  ui: UiMessages;
  headUi: HeadUiMessages;
  site: SiteProfile;
  siteHead: SiteHead;
  pages: PageCopy;
  projects: readonly Project[];
  blogs: readonly BlogArticle[];
  about: AboutContent;
  funFacts: readonly string[];
  privacyPolicy: PrivacyPolicy;
  search: SearchCopy;
}

/**
 * One language of the site: its code (a key of LOCALES in locales.ts) and everything it shows. Each
 * language's index module exports it as the `handle` of its layout route (see web/app/routes.ts),
 * so a page loads the strings of its own language only.
 */
export interface LocaleBundle {
  locale: string;
  catalogue: ShellCatalogue;
}

/**
 * What every page of a language needs (the layout route's handle). The long texts of one page each
 * (the owner's copy of each page, about, blogs, privacy policy, the projects) reach only their page, as
 * its route's build-time loader data (web/app/routes/page-content.ts); the fun facts travel with the
 * fun-fact modal's chunk (web/app/layout/fun-facts.ts), and the search strings with each language's search
 * index (scripts/search-index.ts) and the /search page's data. The tagline (`siteHead`) and `headUi` are built into the pages' heads.
 */
export type ShellCatalogue = Omit<Catalogue, PageOnlyContent | 'funFacts' | 'search' | 'siteHead' | 'headUi'>;
export type PageOnlyContent = 'about' | 'blogs' | 'privacyPolicy' | 'projects' | 'pages';

/**
 * A project as its card on /projects has it in its loader data: without what only its own page shows,
 * and without its need and solution, which the card shows from its HTML (web/app/components/PageText.tsx).
 */
export type ProjectCard = Omit<Project, 'description' | 'site' | 'github' | 'problem' | 'solution'>;

export interface LocaleHandle {
  localeBundle: LocaleBundle;
}
