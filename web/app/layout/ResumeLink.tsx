import { LineIcon } from '../components/LineIcon';
import { useUi } from '../i18n/locale-context';
import { withBase } from '../base-path';
/**
 * The "Résumé" link, shown only when the owner supplies a résumé PDF: callers pass the content
 * field `site.resume`, which is optional.
 */
export function ResumeLink({ href, className }: { href: string | undefined; className?: string }) {
  const ui = useUi();
  if (!href) return null;
  return (
    <a className={className} href={withBase(href)} type="application/pdf">
      <LineIcon d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zm0 0v5h5M9 13h6M9 17h6" size={18} />
      {ui.resume} <span className="resume-format">(PDF)</span>
    </a>
  );
}
