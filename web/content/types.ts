/** Shapes of the owner's content. Everything an owner edits lives in this folder. */

export interface Project {
  /** Numeric id, also the URL segment: /projects/{id}. */
  id: number;
  /** Path of a short demo video under web/public, or '' for none. */
  url: string;
  /** Poster image shown before the video loads ('' when there is no video). */
  poster: string;
  title: string;
  /** Comma-separated list of technologies. */
  tech: string;
  /** The need the project answered ("Need"). */
  problem: string;
  solution: string;
  /** Live website address. */
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
