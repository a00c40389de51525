import { afterEach, describe, expect, it } from 'vitest';
import { THEME_ATTRIBUTE, THEME_SCRIPT, THEME_STORAGE_KEY } from '../../../../contract/theme-script';

/** Runs the head script as the browser would, against this test environment's document. */
function runScript() {
  new Function(THEME_SCRIPT)();
}

describe('THEME_SCRIPT', () => {
  afterEach(() => {
    localStorage.clear();
    document.documentElement.removeAttribute(THEME_ATTRIBUTE);
  });

  it.each(['light', 'dark'])('applies a stored %s choice to <html>', (theme) => {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
    runScript();
    expect(document.documentElement.getAttribute(THEME_ATTRIBUTE)).toBe(theme);
  });

  it('leaves the system choice in charge when nothing or something unknown is stored', () => {
    runScript();
    expect(document.documentElement.hasAttribute(THEME_ATTRIBUTE)).toBe(false);
    localStorage.setItem(THEME_STORAGE_KEY, '"><script>');
    runScript();
    expect(document.documentElement.hasAttribute(THEME_ATTRIBUTE)).toBe(false);
  });

  it('never throws when storage is unavailable', () => {
    const original = Object.getOwnPropertyDescriptor(window, 'localStorage');
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        throw new Error('SecurityError');
      },
    });
    try {
      expect(runScript).not.toThrow();
    } finally {
      if (original) Object.defineProperty(window, 'localStorage', original);
    }
  });

  it('stays tiny: it runs before the first paint on every page', () => {
    expect(THEME_SCRIPT.length).toBeLessThan(200);
  });
});
