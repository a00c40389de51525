import { act, render, screen } from '../../../test/render';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { THEME_ATTRIBUTE, THEME_STORAGE_KEY } from '../../../../contract/theme-script';
import { ThemeControl } from './ThemeControl';

const root = document.documentElement;

afterEach(() => root.removeAttribute(THEME_ATTRIBUTE));

describe('ThemeControl', () => {
  it('offers Light, Dark and System in a group named Theme, System chosen by default', () => {
    render(<ThemeControl />);
    expect(screen.getByRole('group', { name: 'Theme' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Light' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Dark' })).not.toBeChecked();
  });

  it('shows the choice the head script applied before hydration', () => {
    root.setAttribute(THEME_ATTRIBUTE, 'dark');
    render(<ThemeControl />);
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
  });

  it('applies and stores a choice, and System forgets it', async () => {
    const user = userEvent.setup();
    render(<ThemeControl />);
    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(root.getAttribute(THEME_ATTRIBUTE)).toBe('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();

    await user.click(screen.getByRole('radio', { name: 'Light' }));
    expect(root.getAttribute(THEME_ATTRIBUTE)).toBe('light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');

    await user.click(screen.getByRole('radio', { name: 'System' }));
    expect(root.hasAttribute(THEME_ATTRIBUTE)).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  it('keeps two controls on one page in step (side panel and phone menu)', async () => {
    const user = userEvent.setup();
    render(
      <>
        <div data-testid="a">
          <ThemeControl />
        </div>
        <div data-testid="b">
          <ThemeControl />
        </div>
      </>,
    );
    const [first, second] = screen.getAllByRole('radio', { name: 'Dark' });
    await user.click(first!);
    expect(second).toBeChecked();
  });

  it('follows a choice made in another tab', () => {
    render(<ThemeControl />);
    act(() => {
      localStorage.setItem(THEME_STORAGE_KEY, 'light');
      window.dispatchEvent(new StorageEvent('storage', { key: THEME_STORAGE_KEY }));
    });
    expect(root.getAttribute(THEME_ATTRIBUTE)).toBe('light');
    expect(screen.getByRole('radio', { name: 'Light' })).toBeChecked();
  });
});
