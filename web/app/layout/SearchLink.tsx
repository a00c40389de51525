import { Link } from 'react-router';
import { useLocalizePath, useUi } from '../i18n/locale-context';

/**
 * The search control (side panel, phone bar): a link to the /search page, which lists every page by
 * kind and is what a visitor without JavaScript gets. Once the page has hydrated, the search module
 * (search/SearchHost.tsx) finds it by its data-search attribute and opens the dialog instead. Kept to
 * a bare link: it is in every page's first load.
 */
export function SearchLink() {
  const ui = useUi();
  return (
    <Link to={useLocalizePath()('/search')} className="search-link" data-search="">
      {ui.search}
    </Link>
  );
}
