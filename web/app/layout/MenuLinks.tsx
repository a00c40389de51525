import { NavLink } from 'react-router';
import { trackClick } from '../features/tracking/track-click';
import { MENU_ENTRIES, menuPath } from '../../../contract/menu';
import { useViewTransitions } from '../components/use-view-transitions';
import { CLICK_EVENTS, eventName } from '../../../contract/event-names';
import { CLICK_EVENT_ATTRIBUTE } from '../../../contract/inline-scripts';
import { useLocalizePath, useUi } from '../i18n/locale-context';

/** The four menu links, real links that work without scripts; each click is counted as SIDEBAR_NAV_{MENU}. */
export function MenuLinks({ onChoose }: { onChoose?: () => void }) {
  const viewTransition = useViewTransitions();
  const ui = useUi();
  const localize = useLocalizePath();
  return (
    <ul className="menu-links">
      {MENU_ENTRIES.map((entry) => (
        <li key={entry}>
          <NavLink
            to={localize(menuPath(entry))}
            viewTransition={viewTransition}
            className="menu-link"
            {...{ [CLICK_EVENT_ATTRIBUTE]: eventName(CLICK_EVENTS.sidebarNav, entry) }}
            onClick={() => {
              trackClick(CLICK_EVENTS.sidebarNav, entry);
              onChoose?.();
            }}
          >
            {ui.menu[entry]}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
