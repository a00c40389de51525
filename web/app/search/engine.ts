import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import { foldTerm, tokenize } from './words';

export { excerptParts, foldTerm, tokenize, type ExcerptPart } from './words';

/*
 * The search engine's settings, shared by the build (which indexes) and the dialog (which loads the
 * index and queries it): the two must fold and split words the same way, or a query misses what the
 * index holds. MiniSearch was chosen for this site in docs/architecture.md ("Search").
 */

export type SearchKind = 'page' | 'project' | 'post' | 'article';

/** One searchable page (or an external article, found on /blogs). */
export interface SearchDocument {
  /** The page's path in its language (/es/projects/3), with a fragment for an article's card on /blogs. */
  id: string;
  kind: SearchKind;
  title: string;
  /** A project's technologies, a post's tags, the about page's lists: matched, and weighed above the text. */
  tags?: string;
  text: string;
}

/** What a result needs to be shown, kept in the index beside the terms. */
export interface StoredFields {
  kind: SearchKind;
  title: string;
  /**
   * The start of the page's tags and text, for the excerpt: a technology that matched shows there (the
   * whole text would make the index several times larger).
   */
  excerpt: string;
}

/** Characters of each page's tags and text kept for its excerpt. */
export const EXCERPT_SOURCE_CHARS = 600;

const FIELDS = ['title', 'tags', 'text'];

export const INDEX_OPTIONS: Options<SearchDocument> = {
  fields: FIELDS,
  storeFields: ['kind', 'title', 'excerpt'],
  tokenize,
  processTerm: (term) => foldTerm(term) || null,
  extractField: (document, field) => {
    if (field === 'excerpt') return (document.tags ? `${document.tags} · ${document.text}` : document.text).slice(0, EXCERPT_SOURCE_CHARS);
    return (document as unknown as Record<string, string | undefined>)[field] ?? '';
  },
};

/**
 * Every word must match (AND), the last as a prefix of a word (the visitor is still typing it) and
 * each one with a typo or two: one edit from 4 letters on, two from 8 (MiniSearch counts `fuzzy`
 * below 1 as a fraction of the term's length).
 */
export const QUERY_OPTIONS: SearchOptions = {
  combineWith: 'AND',
  boost: { title: 3, tags: 2 },
  prefix: (_term, index, terms) => index === terms.length - 1,
  fuzzy: (term) => (term.length < 4 ? false : term.length < 8 ? 1 : 2),
  maxFuzzy: 2,
};

/** The index of one language's documents, as the JSON string the dialog loads. */
export function buildIndex(documents: readonly SearchDocument[]): string {
  const index = new MiniSearch<SearchDocument>(INDEX_OPTIONS);
  index.addAll(documents);
  return JSON.stringify(index);
}

export function loadIndex(json: string): MiniSearch<SearchDocument> {
  return MiniSearch.loadJSON<SearchDocument>(json, INDEX_OPTIONS);
}

export interface SearchHit extends StoredFields {
  id: string;
  /** The words of the page that matched the query (folded), for marking them in the excerpt. */
  terms: string[];
}

/** At most this many results: a dialog's worth, best first. */
export const MAX_RESULTS = 20;

/** A language's index, loaded: what the dialog asks for its results. */
export type LanguageSearch = (query: string) => SearchHit[];

/** Loads an index (the JSON `buildIndex` made) once, for every query after. */
export function languageSearch(json: string): LanguageSearch {
  const index = loadIndex(json);
  return (query) => searchIn(index, query);
}

export function searchIn(index: MiniSearch<SearchDocument>, query: string): SearchHit[] {
  if (tokenize(query).length === 0) return [];
  return index
    .search(query, QUERY_OPTIONS)
    .slice(0, MAX_RESULTS)
    .map((result) => ({
      id: result.id as string,
      kind: result.kind as SearchKind,
      title: result.title as string,
      excerpt: result.excerpt as string,
      terms: result.terms,
    }));
}
