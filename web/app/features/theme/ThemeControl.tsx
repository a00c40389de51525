import { useId } from 'react';
import type { ThemePreference } from '../../../../contract/theme-script';
import { useHydrated } from '../../components/use-hydrated';
import { setThemePreference, useThemePreference } from './theme-store';
import './ThemeControl.css';
import { LineIcon } from '../../components/LineIcon';
import { useUi } from '../../i18n/locale-context';

const OPTIONS: { value: ThemePreference; icon: string }[] = [
  {
    value: 'light',
    icon: 'M12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0-15v2m0 16v2M4.2 4.2l1.4 1.4m12.8 12.8 1.4 1.4M2 12h2m16 0h2M4.2 19.8l1.4-1.4M18.4 5.6l1.4-1.4',
  },
  { value: 'dark', icon: 'M20.5 14.1A8.5 8.5 0 1 1 9.9 3.5a7 7 0 0 0 10.6 10.6z' },
  { value: 'system', icon: 'M3 4.5h18v12H3zM8.5 20.5h7M12 16.5v4' },
];

/**
 * Light / Dark / System, as a group of radio buttons (one choice, arrow keys move between them).
 * "System" forgets the stored choice and follows the device again. Until the page has hydrated the
 * buttons are disabled: the prerendered HTML cannot know the stored choice nor act on a click.
 */
export function ThemeControl() {
  const name = useId();
  const preference = useThemePreference();
  const hydrated = useHydrated();
  const ui = useUi();
  return (
    <fieldset className="theme-control" disabled={!hydrated}>
      <legend className="theme-legend">{ui.theme.legend}</legend>
      <div className="theme-options">
        {OPTIONS.map((option) => (
          <label key={option.value} className="theme-option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={preference === option.value}
              onChange={() => setThemePreference(option.value)}
            />
            <LineIcon d={option.icon} size={16} />
            <span>{ui.theme[option.value]}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
