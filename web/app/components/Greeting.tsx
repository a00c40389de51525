import type { UiMessages } from '../../content/types';
import { useUi } from '../i18n/locale-context';
import { useHydrated } from './use-hydrated';

/** Good Morning before 12, Good Afternoon before 18, otherwise Good Evening (local hour). */
export function greetingKey(hour: number): keyof UiMessages['greeting'] {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RangeError(`Hour must be 0-23, got ${hour}.`);
  if (hour < 12) return 'morning';
  if (hour < 18) return 'afternoon';
  return 'evening';
}

/** The greeting of an hour in a language's words. */
export function greetingFor(hour: number, greetings: UiMessages['greeting']): string {
  return greetings[greetingKey(hour)];
}

/**
 * The greeting by the visitor's local hour. The prerendered HTML cannot know that hour, so it keeps
 * an empty line of the same height (no layout shift) and the text appears right after hydration.
 */
export function Greeting() {
  const hydrated = useHydrated();
  const ui = useUi();
  return (
    <p className="greeting" data-testid="greeting">
      {hydrated ? greetingFor(new Date().getHours(), ui.greeting) : '\u00A0'}
    </p>
  );
}
