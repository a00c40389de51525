import { site } from '../../content/site';
import { absoluteUrl } from './seo';

/**
 * Shown on paper only (the stylesheet hides it on screen): the side panel that carries the owner's
 * name is not printed, so a printed page names the owner, the role and where the page lives.
 */
export function PrintHeader({ path }: { path: string }) {
  return (
    <header className="print-header">
      <p className="print-name">{site.name}</p>
      <p className="print-role">
        {site.role} · {absoluteUrl(path).replace(/^https?:\/\//, '')}
      </p>
    </header>
  );
}
