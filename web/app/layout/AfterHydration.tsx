import { ScrollToTopButton } from '../components/ScrollToTopButton';
import { SearchHost } from '../search/SearchHost';

/**
 * What the layout needs only once the page has hydrated, in one chunk fetched right after: the floating
 * scroll-to-top button (hidden until the page is scrolled) and the search control's behaviour (until
 * it arrives, the search links are plain links to the /search page).
 */
export function AfterHydration() {
  return (
    <>
      <ScrollToTopButton />
      <SearchHost />
    </>
  );
}
