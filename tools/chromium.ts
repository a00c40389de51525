/**
 * Which Chrome or Chromium this project drives (browser tests, `npm run bench`), on Linux, macOS or
 * Windows: never a downloaded one. In order: CHROMIUM_PATH (or CHROME_PATH), Debian's
 * /usr/bin/chromium, then any installation chrome-launcher finds. Also the flags that keep it
 * quiet and offline.
 */
import { existsSync } from 'node:fs';
import { Launcher } from 'chrome-launcher';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Debian's build, the one CI installs: preferred over other installations where present. */
export const PREFERRED_CHROMIUM = '/usr/bin/chromium';

export interface ChromiumLookup {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  exists: (file: string) => boolean;
  /** Installed Chrome / Chromium executables, best first (chrome-launcher's search). */
  installations: () => string[];
}

const defaultLookup: ChromiumLookup = {
  env: process.env,
  platform: process.platform,
  exists: existsSync,
  installations: () => Launcher.getInstallations(),
};

/** What to install, said for the platform at hand. */
export function installAdvice(platform: NodeJS.Platform): string {
  switch (platform) {
    case 'darwin':
      return 'install Google Chrome (https://www.google.com/chrome/) or `brew install --cask chromium`';
    case 'win32':
      return 'install Google Chrome (https://www.google.com/chrome/) or `winget install Google.Chrome`';
    default:
      return 'install Chromium (Debian/Ubuntu: `sudo apt-get install chromium`; Fedora: `sudo dnf install chromium`) or Google Chrome';
  }
}

/** The browser executable to start; throws, naming what to install or which variable is wrong, when none is found. */
export function findChromium(lookup: ChromiumLookup = defaultLookup): string {
  for (const name of ['CHROMIUM_PATH', 'CHROME_PATH'] as const) {
    const value = lookup.env[name];
    if (!value) continue;
    if (!lookup.exists(value)) throw new Error(`${name} is set to ${value}, which does not exist: fix it or unset it.`);
    return value;
  }
  if (lookup.platform === 'linux' && lookup.exists(PREFERRED_CHROMIUM)) return PREFERRED_CHROMIUM;
  let found: string[] = [];
  try {
    found = lookup.installations();
  } catch {
    // chrome-launcher refuses unsupported platforms: same advice as for none found
  }
  const installed = found.find((file) => lookup.exists(file));
  if (installed) return installed;
  throw new Error(
    `No Chrome or Chromium found for the browser tests: ${installAdvice(lookup.platform)}, ` + 'or set CHROMIUM_PATH to its executable.',
  );
}

let cached: string | undefined;
/** findChromium() once per process. */
export function chromiumPath(): string {
  cached ??= findChromium();
  return cached;
}
