import { useCallback, useEffect, useState } from 'react';
import { onDemand } from '../components/on-demand';
import { useHref } from 'react-router';
import { useLocale, useLocalizePath, useUi } from '../i18n/locale-context';
import { loadLanguageSearch } from './index-loader';
import { typeAhead, type TypeAhead } from './type-ahead';

const searchDialog = onDemand('search dialog', () => import('./SearchDialog').then((module) => module.SearchDialog));

/** Where the visitor is typing: there `/` is a character, not the shortcut. */
function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/** The link to the /search page the event happened in, if any (`href`: that page's address, with the router's base). */
function searchLinkOf(target: EventTarget | null, href: string): HTMLElement | null {
  const link = target instanceof Element ? target.closest<HTMLElement>('a[href]') : null;
  return link?.getAttribute('href') === href ? link : null;
}

/**
 * The search control's behaviour, loaded once the page has hydrated (never in the first load). Until
 * then, and without JavaScript, the layout's search links (side panel, phone bar) are plain links to the
 * /search page. From then: a click on a link to that page opens the dialog instead (a click with a modifier key still opens the page,
 * in a new tab if asked), `/` and Ctrl+K (Cmd+K) open it from anywhere, and pointing at or focusing
 * a search link fetches the dialog's code and the language's index ahead of the click.
 */
export function SearchHost() {
  const locale = useLocale();
  const label = useUi().search;
  const href = useHref(useLocalizePath()('/search'));
  // The element focus returns to on close, and what was typed before the dialog came (null: closed).
  const [shown, setShown] = useState<{ returnTo: HTMLElement; typed: string; ahead: TypeAhead } | null>(null);
  const close = useCallback(() => setShown(null), []);
  // The dialog (a child: its effects run first) has taken focus from the type-ahead field by now.
  useEffect(() => {
    shown?.ahead.release();
  }, [shown]);

  useEffect(() => {
    // A dialog whose chunk arrives after the page's language or the layout changed is not opened.
    let live = true;
    // The type-ahead field of a dialog asked for and not here yet.
    let waiting: TypeAhead | null = null;
    const preload = () => {
      searchDialog.preload();
      loadLanguageSearch(locale).catch(() => {});
    };
    const open = (from: HTMLElement) => {
      // Mounted once its chunk is here (at once when pointed at first): no empty Suspense fallback, which
      // would hold the dialog back (see `load`). A failed chunk is the dialog's own to report. Its request
      // goes out first: the field it shows is what the visitor waits for before typing.
      // Only the latest request opens the dialog; Escape before it comes gives it up.
      waiting?.release();
      const ahead = typeAhead(label, () => {
        waiting = null;
        ahead.release();
        from.focus();
      });
      waiting = ahead;
      const show = () => {
        if (!live || waiting !== ahead) return ahead.release();
        waiting = null;
        setShown({ returnTo: from, typed: ahead.text(), ahead });
      };
      searchDialog.load().then(show, show);
      loadLanguageSearch(locale).catch(() => {});
    };
    const onClick = (event: MouseEvent) => {
      const link = searchLinkOf(event.target, href);
      if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      // Before the router's own handler (a capturing listener on the document runs first): no navigation.
      event.preventDefault();
      open(link);
    };
    const onKey = (event: KeyboardEvent) => {
      const shortcut = (event.key === 'k' || event.key === 'K') && (event.ctrlKey || event.metaKey) && !event.altKey;
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event.target);
      if (!shortcut && !slash) return;
      if (document.querySelector('[aria-modal="true"], dialog[open]')) return; // a dialog (this one or another) is open
      event.preventDefault();
      open(document.activeElement instanceof HTMLElement ? document.activeElement : document.body);
    };
    const onPoint = (event: Event) => {
      if (searchLinkOf(event.target, href)) preload();
    };
    // From now on these links open a dialog: say so to assistive technologies (and to the browser tests).
    const links = [...document.querySelectorAll<HTMLElement>('a[href]')].filter((link) => link.getAttribute('href') === href);
    for (const link of links) link.setAttribute('aria-haspopup', 'dialog');
    document.addEventListener('click', onClick, true);
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerover', onPoint);
    document.addEventListener('focusin', onPoint);
    return () => {
      live = false;
      waiting?.release();
      for (const link of links) link.removeAttribute('aria-haspopup');
      document.removeEventListener('click', onClick, true);
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerover', onPoint);
      document.removeEventListener('focusin', onPoint);
    };
  }, [locale, href, label]);

  return shown ? <searchDialog.Render onClose={close} returnTo={shown.returnTo} initialQuery={shown.typed} /> : null;
}
