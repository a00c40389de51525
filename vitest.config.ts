import react from '@vitejs/plugin-react';
import { loadEnv } from 'vite';
import { defineConfig } from 'vitest/config';
import { defineWebEnv } from './web/app/config/env-schema.ts';
import { bootScript } from './web/boot/generate.ts';

// One runner for every test. The React Router Vite plugin is left out on purpose: tests import
// components directly; the prerendered build is exercised by the browser tests.
export default defineConfig({
  plugins: [react()],
  // The same checked build variables the site gets (see vite.config.ts).
  define: { ...defineWebEnv(loadEnv('test', process.cwd(), 'VITE_')), __BOOT_SCRIPT__: JSON.stringify(bootScript()) },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/**/*.test.{ts,tsx}'],
          setupFiles: ['web/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['*.test.ts', 'contract/**/*.test.ts', 'functions/**/*.test.ts', 'infra/**/*.test.ts', 'scripts/**/*.test.ts', 'tools/**/*.test.ts'],
          testTimeout: 30_000,
          // The CDK tests synthesize the whole app in beforeAll: seconds alone, more beside other test runs.
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          environment: 'node',
          // Chromium: every browser suite, and the visitor flows the other engines run too.
          include: ['e2e/**/*.test.ts'],
          exclude: ['e2e/engines/firefox.test.ts', 'e2e/engines/webkit.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      // The visitor flows in Firefox ESR and WebKitGTK. Each runs after the Chromium suites, one engine at
      // a time: a browser per core is all two cores hold without the flows' timings suffering.
      ...(['firefox', 'webkit'] as const).map((engine, index) => ({
        extends: true as const,
        test: {
          name: engine,
          environment: 'node',
          include: [`e2e/engines/${engine}.test.ts`],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: index + 1 },
          // WebKitWebDriver now and then stops answering while MiniBrowser is busy (a command then fails
          // after a minute, e2e/engines/webdriver.ts): a WebKit flow gets one more try; twice is a failure.
          ...(engine === 'webkit' ? { retry: 1 } : {}),
        },
      })),
    ],
  },
});
