import type { SearchCopy } from './types';

/** The search dialog's and the /search page's strings. */
export const search: SearchCopy = {
  title: 'Search',
  description: 'Every page, project and post of this site, by kind.',
  intro: 'Every page of the site, by kind. With JavaScript on, the Search button finds them by any word they contain.',
  label: 'Search the site',
  placeholder: 'A word, a technology, a title…',
  close: 'Close',
  help: 'Arrow keys move through the results, Enter opens one, Escape closes.',
  loading: 'Loading…',
  failed: 'Search could not load. Check the connection and try again.',
  results: { none: 'No results', one: '1 result', many: '{count} results' },
  kinds: { page: 'Page', project: 'Project', post: 'Post', article: 'Article' },
};
