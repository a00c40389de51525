import { useHydrated } from './use-hydrated';

/** Spec §2: Good Morning before 12, Good Afternoon before 18, otherwise Good Evening (local hour). */
export function greetingFor(hour: number): 'Good Morning' | 'Good Afternoon' | 'Good Evening' {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RangeError(`Hour must be 0-23, got ${hour}.`);
  if (hour < 12) return 'Good Morning';
  if (hour < 18) return 'Good Afternoon';
  return 'Good Evening';
}

/**
 * The greeting by the visitor's local hour. The prerendered HTML cannot know that hour, so it keeps
 * an empty line of the same height (no layout shift) and the text appears right after hydration.
 */
export function Greeting() {
  const hydrated = useHydrated();
  return (
    <p className="greeting" data-testid="greeting">
      {hydrated ? greetingFor(new Date().getHours()) : '\u00A0'}
    </p>
  );
}
