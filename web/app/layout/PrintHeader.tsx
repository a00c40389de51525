import { useCatalogue } from '../i18n/locale-context';
import { siteUrl } from './site-url';

/**
 * Shown on paper only (the stylesheet hides it on screen): the side panel that carries the owner's
 * name is not printed, so a printed page names the owner, the role and the site. Rendered once
 * beside the side panel. The same text on every page: the SPA fallback page is prerendered for one
 * path and hydrated at another, so nothing here may depend on the path.
 */
export function PrintHeader() {
  const { site } = useCatalogue();
  const host = siteUrl.replace(/^https?:\/\//, '');
  return (
    <div className="print-header">
      <p className="print-name">
        <bdi>{site.name}</bdi>
      </p>
      <p className="print-role">
        {site.role}
        {host ? (
          <>
            {' · '}
            <bdi>{host}</bdi>
          </>
        ) : null}
      </p>
    </div>
  );
}
