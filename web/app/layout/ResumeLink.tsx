/**
 * The "Résumé" link, shown only when the owner supplies a résumé PDF: callers pass the content
 * field `site.resume`, which is optional.
 */
export function ResumeLink({ href, className }: { href: string | undefined; className?: string }) {
  if (!href) return null;
  return (
    <a className={className} href={href} type="application/pdf">
      <svg aria-hidden="true" focusable="false" width="18" height="18" viewBox="0 0 24 24">
        <path
          d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zm0 0v5h5M9 13h6M9 17h6"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      Résumé <span className="resume-format">(PDF)</span>
    </a>
  );
}
