/** The Chrome/Chromium finder: the variable first, then Debian's Chromium, then any installation, else what to install. */
import { describe, expect, it } from 'vitest';
import { findChromium, type ChromiumLookup } from './chromium';

function lookup(overrides: Partial<ChromiumLookup> & { files?: string[] }): ChromiumLookup {
  const files = new Set(overrides.files ?? []);
  return {
    env: {},
    platform: 'linux',
    exists: (file) => files.has(file),
    installations: () => [],
    ...overrides,
  };
}

describe('findChromium', () => {
  it('honours CHROMIUM_PATH, then CHROME_PATH, and names a path that does not exist', () => {
    expect(findChromium(lookup({ env: { CHROMIUM_PATH: '/opt/c/chrome' }, files: ['/opt/c/chrome', '/usr/bin/chromium'] }))).toBe(
      '/opt/c/chrome',
    );
    expect(findChromium(lookup({ env: { CHROME_PATH: '/opt/g/chrome' }, files: ['/opt/g/chrome'] }))).toBe('/opt/g/chrome');
    expect(() => findChromium(lookup({ env: { CHROMIUM_PATH: '/nope' } }))).toThrow('CHROMIUM_PATH is set to /nope, which does not exist');
  });

  it('prefers /usr/bin/chromium on Linux over other installations', () => {
    const l = lookup({ files: ['/usr/bin/chromium', '/usr/bin/google-chrome'], installations: () => ['/usr/bin/google-chrome'] });
    expect(findChromium(l)).toBe('/usr/bin/chromium');
  });

  it("uses chrome-launcher's installations on macOS and Windows", () => {
    const mac = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findChromium(lookup({ platform: 'darwin', files: [mac], installations: () => [mac] }))).toBe(mac);
    const win = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    expect(findChromium(lookup({ platform: 'win32', files: [win], installations: () => [win] }))).toBe(win);
  });

  it('names what to install for the platform when none is found', () => {
    expect(() => findChromium(lookup({}))).toThrow(/No Chrome or Chromium found.*apt-get install chromium.*CHROMIUM_PATH/);
    expect(() => findChromium(lookup({ platform: 'darwin' }))).toThrow(/brew install --cask chromium/);
    expect(() =>
      findChromium(
        lookup({
          platform: 'win32',
          installations: () => {
            throw new Error('unsupported');
          },
        }),
      ),
    ).toThrow(/winget install Google\.Chrome/);
  });
});
