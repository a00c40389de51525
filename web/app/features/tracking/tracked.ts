import { CLICK_EVENT_ATTRIBUTE } from '../../../../contract/inline-scripts';
import { eventName } from '../../../../contract/event-names';
import { trackClick } from './track-click';

/**
 * The props of a tracked link: its click event's name in the HTML (`data-event`), where the page's
 * boot script finds it for a click before the app has hydrated, and the click handler that sends it
 * once the app has (web/boot/boot.ts says how the two never both send one click).
 */
export function tracked(prefix: string, text?: string): { [CLICK_EVENT_ATTRIBUTE]: string; onClick: () => void } {
  // trackClick gets the arguments it was given (a fixed name has no text), as the call it replaces.
  const onClick = text === undefined ? () => trackClick(prefix) : () => trackClick(prefix, text);
  return { [CLICK_EVENT_ATTRIBUTE]: eventName(prefix, text), onClick };
}

/** The props of a tracked link to another site, opened in a new tab. */
export function trackedExternal(prefix: string, text?: string) {
  return { target: '_blank', rel: 'noopener noreferrer', ...tracked(prefix, text) };
}
