import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { site } from '../../content/site';
import { ThemeControl } from '../features/theme/ThemeControl';
import { MenuLinks } from './MenuLinks';

/**
 * The mobile top bar (hidden on wide screens by CSS): the owner's name and a menu button that
 * opens the menu. Choosing an entry, pressing Escape or navigating anywhere closes it.
 */
export function MobileBar() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();

  // A navigation from anywhere (the name link, browser back) closes the menu too.
  const [lastPath, setLastPath] = useState(pathname);
  if (lastPath !== pathname) {
    setLastPath(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header className="mobile-bar">
      <div className="mobile-bar-row">
        <Link to="/home" className="brand">
          {site.name}
        </Link>
        <button
          ref={buttonRef}
          type="button"
          className="menu-button"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((value) => !value)}
        >
          <span className="menu-icon" aria-hidden="true" data-open={open} />
          <span>{open ? 'Close menu' : 'Menu'}</span>
        </button>
      </div>
      <nav id={menuId} className="mobile-menu" aria-label="Main" hidden={!open}>
        <MenuLinks onChoose={() => setOpen(false)} />
        <ThemeControl />
      </nav>
    </header>
  );
}
