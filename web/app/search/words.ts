/*
 * How the search splits and folds words, and the excerpts of its results: shared by the engine (which
 * indexes and queries with them) and the dialog (which marks the matched words), without MiniSearch, so
 * the dialog's own chunk can arrive and show before the engine and the index do. It imports nothing of
 * the engine: the engine builds on it.
 */

/**
 * Lower case and without accents: "Diseño" and "diseno" are one term, and so are "café" and "cafe".
 * NFD splits a letter from its combining marks, which are then dropped; letters of scripts without
 * such marks (Arabic, Hebrew, CJK) pass unchanged, apart from Arabic's optional vowel signs
 * (harakat, also combining marks), which readers and writers leave out as often as not.
 */
export function foldTerm(term: string): string {
  return term
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * A word: a run of letters, digits and the marks on them, in any script (a hyphen, an apostrophe or a
 * dot splits words). The marks belong to the word: Arabic vowel signs, or an accent written apart.
 */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

export function tokenize(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** A piece of an excerpt: `mark` pieces are the matched words. */
export interface ExcerptPart {
  text: string;
  mark: boolean;
}

/** Characters shown before the first matched word, so the excerpt starts near the match. */
const LEAD = 40;

/**
 * The excerpt of a hit: its text from a little before the first matched word, cut to `length`
 * characters at word boundaries, split into plain and marked parts (a word is marked when its folded
 * form is one of the hit's matched terms).
 */
export function excerptParts(hit: { excerpt: string; terms: readonly string[] }, length = 160): ExcerptPart[] {
  const matched = new Set(hit.terms);
  const words = [...hit.excerpt.matchAll(WORD)];
  const first = words.find((word) => matched.has(foldTerm(word[0])));
  const start = first && first.index > LEAD ? hit.excerpt.lastIndexOf(' ', first.index - LEAD) + 1 : 0;
  let end = Math.min(hit.excerpt.length, start + length);
  if (end < hit.excerpt.length) end = Math.max(hit.excerpt.lastIndexOf(' ', end), start + 1);
  const parts: ExcerptPart[] = [];
  let at = start;
  for (const word of words) {
    if (word.index < start || word.index + word[0].length > end || !matched.has(foldTerm(word[0]))) continue;
    if (word.index > at) parts.push({ text: hit.excerpt.slice(at, word.index), mark: false });
    parts.push({ text: word[0], mark: true });
    at = word.index + word[0].length;
  }
  if (at < end) parts.push({ text: hit.excerpt.slice(at, end), mark: false });
  if (start > 0) parts.unshift({ text: '… ', mark: false });
  if (end < hit.excerpt.length) parts.push({ text: ' …', mark: false });
  return parts;
}
