import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useClientValue, useHydrated } from '../components/use-hydrated';
import { ThemeControl } from '../features/theme/ThemeControl';
import { MenuLinks } from './MenuLinks';
import { LanguageSwitcher } from './LanguageSwitcher';
import { useCatalogue, useLocalizePath } from '../i18n/locale-context';

const noSubscription = () => () => {};
/**
 * Whether the browser has the popover API. The prerendered HTML assumes it (the browser opens the
 * menu by itself, scripts or not); a browser without it (or jsdom) gets, once hydrated, a menu
 * driven by React state and the `hidden` attribute.
 */
function useNativePopover(): boolean {
  return useClientValue(
    noSubscription,
    () => typeof HTMLElement !== 'undefined' && Object.prototype.hasOwnProperty.call(HTMLElement.prototype, 'popover'),
    true,
  );
}

function isShowing(menu: HTMLElement): boolean {
  return menu.matches(':popover-open');
}

/** Shows or hides the menu's popover, if the browser has one and it is not already so. */
function setShowing(menu: HTMLElement | null, open: boolean): void {
  if (!menu || typeof menu.showPopover !== 'function') return;
  if (open && !isShowing(menu)) menu.showPopover();
  else if (!open && isShowing(menu)) menu.hidePopover();
}

/**
 * The mobile top bar (hidden on wide screens by CSS): the owner's name and a menu button.
 *
 * The menu is a native popover opened by the button's `popovertarget`: it works in the prerendered
 * page before the scripts arrive and with JavaScript turned off (a menu link then loads the page,
 * which starts with the menu closed). Once hydrated, React mirrors the popover's state into
 * `aria-expanded` and the label, keeps a menu opened before hydration open, and closes it when
 * an entry is chosen, on Escape (focus back on the button) or on any navigation. Clicking outside
 * closes it too (the popover's light dismiss).
 */
export function MobileBar() {
  const native = useNativePopover();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const { site, ui } = useCatalogue();
  const localize = useLocalizePath();

  // A menu the visitor opened before hydration stays open, and the button says so.
  useEffect(() => {
    if (menuRef.current && native && isShowing(menuRef.current)) setOpen(true);
  }, [native]);

  const close = useCallback(() => {
    setShowing(menuRef.current, false);
    setOpen(false);
  }, []);

  // A navigation from anywhere (the name link, browser back) closes the menu too; not the first render.
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    close();
  }, [pathname, close]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      buttonRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, close]);

  return (
    <header className="mobile-bar">
      <div className="mobile-bar-row">
        <Link to={localize('/home')} className="brand">
          <bdi>{site.name}</bdi>
        </Link>
        {/* The search control: the /search page (every page by kind), or the search dialog once the page has hydrated (search/SearchHost.tsx). */}
        <Link to={localize('/search')} className="search-link">
          {ui.search}
        </Link>
        <button
          ref={buttonRef}
          type="button"
          className="menu-button"
          popoverTarget={native ? menuId : undefined}
          // Left out of the prerendered HTML, where the browser derives it from the popover itself.
          aria-expanded={hydrated ? open : undefined}
          aria-controls={menuId}
          // With a native popover the browser toggles it and onToggle below follows.
          onClick={native ? undefined : () => setOpen((value) => !value)}
        >
          <span className="menu-icon" aria-hidden="true" data-open={open} />
          {/* One label in both states (aria-expanded and the cross say which): a longer "close" label
              widened the button and pushed the owner's name onto two lines while the menu was open. */}
          <span>{ui.menuButton}</span>
        </button>
      </div>
      <nav
        ref={menuRef}
        id={menuId}
        className="mobile-menu"
        aria-label={ui.mainNav}
        popover={native ? 'auto' : undefined}
        hidden={native ? undefined : !open}
        onToggle={(event) => setOpen(event.newState === 'open')}
      >
        <MenuLinks onChoose={close} />
        <ThemeControl />
        <LanguageSwitcher />
      </nav>
    </header>
  );
}
