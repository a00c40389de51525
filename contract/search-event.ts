/**
 * The click event of a result chosen in the search dialog: one name for every result, never the query
 * or the page. In a module of its own (not CLICK_EVENTS, which every page's first load carries), as only
 * the search dialog's chunk sends it; the events function's catalogue (event-catalog.ts) knows it.
 */
export const SEARCH_RESULT_EVENT = 'SEARCH_RESULT_OPEN';
