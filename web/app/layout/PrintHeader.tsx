import { useLocation } from 'react-router';
import { site } from '../../content/site';
import { absoluteUrl } from './site-url';

/**
 * Shown on paper only (the stylesheet hides it on screen): the side panel that carries the owner's
 * name is not printed, so a printed page names the owner, the role and where the page lives.
 */
export function PrintHeader() {
  const { pathname } = useLocation();
  return (
    <div className="print-header">
      <p className="print-name">{site.name}</p>
      <p className="print-role">
        {site.role} · {absoluteUrl(pathname).replace(/^https?:\/\//, '')}
      </p>
    </div>
  );
}
