/**
 * How this project starts Chromium (design §4): Debian's build, never a downloaded one, with
 * flags that keep it quiet and offline. Shared by the browser tests and `npm run bench`.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || process.env.CHROME_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
