import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type RefObject,
} from 'react';
import { Link } from 'react-router';
import { SEARCH_RESULT_EVENT } from '../../../contract/search-event';
import type { SearchCopy } from '../../content/types';
import { LineIcon } from '../components/LineIcon';
import { trackClick } from '../features/tracking/track-click';
import { useLocale } from '../i18n/locale-context';
import type { LanguageSearch, SearchHit } from './engine';
import { excerptParts } from './words';
import { loadedSearch, loadLanguageSearch } from './index-loader';
import { searchCopyOf } from './search-copy';
import './search.css';

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; search: LanguageSearch };

/** The language's search (started by the control before the dialog mounts); a failure can be retried by reopening. */
function useLanguageIndex(locale: string): Loaded {
  const [loaded, setLoaded] = useState<Loaded>(() => {
    const search = loadedSearch(locale);
    return search ? { state: 'ready', search } : { state: 'loading' };
  });
  useEffect(() => {
    let live = true;
    loadLanguageSearch(locale).then(
      (search) => live && setLoaded((now) => (now.state === 'ready' && now.search === search ? now : { state: 'ready', search })),
      (error: unknown) => {
        console.error('Could not load the search index', error);
        if (live) setLoaded({ state: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [locale]);
  return loaded;
}

function countText(copy: SearchCopy, count: number): string {
  if (count === 0) return copy.results.none;
  return count === 1 ? copy.results.one : copy.results.many.replace('{count}', String(count));
}

function Excerpt({ hit }: { hit: SearchHit }) {
  return (
    <span className="search-excerpt">{excerptParts(hit).map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : part.text))}</span>
  );
}

/** Arrow keys: from the field into the results and between them, and from the first back to the field. */
function moveWithArrows(event: ReactKeyboardEvent, list: HTMLElement | null, input: HTMLInputElement | null): void {
  if ((event.key !== 'ArrowDown' && event.key !== 'ArrowUp') || !list) return;
  const links = Array.from(list.querySelectorAll<HTMLElement>('a'));
  if (links.length === 0) return;
  event.preventDefault();
  const at = links.indexOf(document.activeElement as HTMLElement);
  const next = event.key === 'ArrowDown' ? Math.min(at + 1, links.length - 1) : at - 1;
  (next < 0 ? input : links[next])?.focus();
}

interface SearchResultsProps {
  hits: readonly SearchHit[];
  copy: SearchCopy;
  listRef: RefObject<HTMLUListElement | null>;
  inputRef: RefObject<HTMLInputElement | null>;
  onChoose: () => void;
}

/**
 * The results as links (title, kind, an excerpt with the matched words marked) that open their page by
 * a client-side navigation. Memoized: a key's urgent render (the field showing it) skips the list, which
 * changes only in the deferred render that follows with the new results.
 */
const SearchResults = memo(function SearchResults({ hits, copy, listRef, inputRef, onChoose }: SearchResultsProps) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- arrow keys between the result links
    <ul ref={listRef} className="search-results" onKeyDown={(event) => moveWithArrows(event, listRef.current, inputRef.current)}>
      {hits.map((hit) => (
        <li key={hit.id}>
          <Link to={hit.id} className="search-result" onClick={onChoose}>
            <span className="search-result-title">
              <bdi>{hit.title}</bdi>
            </span>{' '}
            <span className="search-kind">{copy.kinds[hit.kind]}</span> <Excerpt hit={hit} />
          </Link>
        </li>
      ))}
    </ul>
  );
});

interface SearchDialogProps {
  onClose: () => void;
  /** Where focus goes back when the dialog is closed without choosing a result. */
  returnTo: HTMLElement;
  /** What the visitor typed while the dialog was on its way (search/type-ahead.ts). */
  initialQuery?: string;
}

/**
 * The search dialog: a native modal <dialog> (the browser keeps focus inside it, makes the page behind
 * inert and closes it on Escape), labelled by its heading. A search field, the number of results in a
 * live region (read out as it changes), and the results as links (title, kind, an excerpt with the
 * matched words marked) that open their page by a client-side navigation. Escape, the Close button and
 * a click on the backdrop close it, and focus goes back where it was.
 */
export function SearchDialog({ onClose, returnTo, initialQuery = '' }: SearchDialogProps) {
  const locale = useLocale();
  const copy = searchCopyOf(locale);
  const loaded = useLanguageIndex(locale);
  const [query, setQuery] = useState(initialQuery);
  const titleId = useId();
  const helpId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const chosen = useRef(false);
  // The field shows each key at once; the results follow as a deferred render React can interrupt, so a
  // burst of keys on a slow phone never makes one long task.
  const deferredQuery = useDeferredValue(query);
  const hits = useMemo(() => (loaded.state === 'ready' ? loaded.search(deferredQuery) : []), [loaded, deferredQuery]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    inputRef.current?.focus();
    // The page behind must not scroll while the dialog is open.
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      if (dialog.open) dialog.close();
      // A chosen result's page takes focus itself (the layout's ScrollReset); otherwise back where it was.
      if (!chosen.current && returnTo.isConnected) returnTo.focus();
    };
  }, [returnTo]);

  const choose = useCallback(() => {
    // Counted by its own name only: the query never leaves the browser.
    trackClick(SEARCH_RESULT_EVENT);
    chosen.current = true;
    onClose();
  }, [onClose]);

  const status =
    loaded.state === 'failed'
      ? copy.failed
      : loaded.state === 'loading'
        ? copy.loading
        : deferredQuery.trim()
          ? countText(copy, hits.length)
          : '';
  return (
    // A click on the backdrop reaches the <dialog> itself (its content fills it): that closes it. Keyboard
    // users have Escape (the dialog's own close request) and the Close button.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialogRef}
      className="search-dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === dialogRef.current) onClose();
      }}
      // Escape closes from anywhere in it: WebKit lets a search field take Escape (to clear it) without
      // the dialog's own close request following.
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onClose();
      }}
    >
      <div className="search-inner">
        <button type="button" className="modal-close" aria-label={copy.close} onClick={onClose}>
          <LineIcon d="M6 6l12 12M18 6L6 18" size={18} strokeWidth={2.2} />
        </button>
        <h2 id={titleId} className="search-title">
          <label htmlFor={`${titleId}-field`}>{copy.label}</label>
        </h2>
        <input
          ref={inputRef}
          id={`${titleId}-field`}
          className="search-field"
          type="search"
          dir="auto"
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          placeholder={copy.placeholder}
          aria-describedby={helpId}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => moveWithArrows(event, listRef.current, inputRef.current)}
        />
        <p id={helpId} className="search-help">
          {copy.help}
        </p>
        <p className="search-status" role="status">
          {status}
        </p>
        <SearchResults hits={hits} copy={copy} listRef={listRef} inputRef={inputRef} onChoose={choose} />
      </div>
    </dialog>
  );
}
