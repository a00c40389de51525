/**
 * Keeps what the visitor types between asking for the search dialog and its arrival (its code comes
 * over the network when asked for: on a slow phone, some hundreds of milliseconds). A hidden field takes
 * focus within the visitor's own click or key press, so the keys land in it, and a phone opens its
 * keyboard, which it does only for a focus the visitor's gesture gives; the dialog then starts with that
 * text and takes focus from it.
 */
export interface TypeAhead {
  /** What was typed so far. */
  text: () => string;
  /** Removes the field (once the dialog has focus, or when opening is given up). */
  release: () => void;
}

export function typeAhead(label: string, onEscape: () => void): TypeAhead {
  const field = document.createElement('input');
  field.type = 'search';
  field.autocomplete = 'off';
  field.className = 'visually-hidden';
  field.setAttribute('aria-label', label);
  // 16 px: iOS zooms the page into a focused field whose text is smaller.
  field.style.fontSize = '16px';
  // The visitor changed their mind before the dialog came: it does not open.
  field.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') onEscape();
  });
  document.body.append(field);
  field.focus({ preventScroll: true });
  return { text: () => field.value, release: () => field.remove() };
}
