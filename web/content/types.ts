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
  /** Publication date as text, e.g. "March 3, 2024". */
  published: string;
  /** Reading length as text, e.g. "4 min read". */
  length: string;
  url: string;
}

export interface SiteProfile {
  /** The owner's name, shown in the layout, titles and the footer. */
  name: string;
  /** Role line under the headshot. */
  role: string;
  /** Short sentence for meta descriptions and link previews. */
  tagline: string;
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

export interface PolicySection {
  heading: string;
  paragraphs: string[];
  /** Optional bullet list after the paragraphs. */
  list?: string[];
}

export interface PrivacyPolicy {
  lastUpdated: string;
  sections: PolicySection[];
}
