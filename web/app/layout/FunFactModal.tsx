import { useEffect, useId, useRef, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { LineIcon } from '../components/LineIcon';
import { useLocale, useUi } from '../i18n/locale-context';
import { funFactsOf, pickFunFact } from './fun-facts';

const FOCUSABLE = 'a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** Focus trap: Tab from the last control goes to the first, Shift+Tab the other way. */
function trapTab(event: KeyboardEvent, dialog: HTMLElement | null): void {
  if (!dialog) return;
  const items = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE));
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  const outside = !dialog.contains(active);
  if (event.shiftKey && (active === first || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}

interface FunFactModalProps {
  /** A number in [0, 1) drawn when the headshot was clicked: which of the language's facts to show. */
  draw: number;
  onClose: () => void;
  /** Where focus goes back when the modal closes (the headshot button). */
  returnFocusRef: RefObject<HTMLElement | null>;
}

/**
 * The fun-fact modal: role="dialog" with aria-modal, labelled by its heading. It closes by the
 * Close button, the backdrop, "Got it!" and Escape; Tab stays inside while it is open and focus
 * returns to the headshot afterwards.
 */
export function FunFactModal({ draw, onClose, returnFocusRef }: FunFactModalProps) {
  const ui = useUi();
  const fact = pickFunFact(funFactsOf(useLocale()), () => draw);
  const titleId = useId();
  const textId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const returnTo = returnFocusRef.current;
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
      } else if (event.key === 'Tab') {
        trapTab(event, dialogRef.current);
      }
    };
    document.addEventListener('keydown', onKey);
    // The page behind must not scroll while the modal is open.
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      returnTo?.focus();
    };
  }, [onClose, returnFocusRef]);

  return createPortal(
    <div className="modal-layer">
      {/* Clicking the dim backdrop closes; keyboard users have Escape and the two buttons. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions */}
      <div className="modal-backdrop" data-testid="modal-backdrop" onClick={onClose} />
      <div ref={dialogRef} className="modal" role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={textId}>
        <button ref={closeRef} type="button" className="modal-close" aria-label={ui.funFact.close} onClick={onClose}>
          <LineIcon d="M6 6l12 12M18 6L6 18" size={18} strokeWidth={2.2} />
        </button>
        <h2 id={titleId} className="modal-title">
          {ui.funFact.title}
        </h2>
        <p id={textId} className="modal-text">
          {fact}
        </p>
        <button type="button" className="button" onClick={onClose}>
          {ui.funFact.gotIt}
        </button>
      </div>
    </div>,
    document.body,
  );
}
