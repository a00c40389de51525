/**
 * A decorative line icon (24×24 grid, drawn with the text colour), hidden from assistive technology:
 * the control it sits in carries the name.
 */
export function LineIcon({ d, size, strokeWidth = 2 }: { d: string; size: number; strokeWidth?: number }) {
  return (
    <svg aria-hidden="true" focusable="false" width={size} height={size} viewBox="0 0 24 24">
      <path d={d} fill="none" stroke="currentColor" strokeWidth={strokeWidth} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The up arrow of both scroll-to-top buttons: here, in the shell, so neither button's chunk needs the other's. */
export function ArrowUp() {
  return <LineIcon d="M12 5l-7 7m7-7l7 7M12 5v14" size={20} strokeWidth={2.2} />;
}
