import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { loadEnv } from 'vite';
import { defineConfig } from 'vitest/config';
import { defineWebEnv } from './web/app/config/env-schema.ts';
import { bootScript } from './web/boot/generate.ts';
import LongestFirstSequencer from './tools/test-sequencer.ts';

/**
 * The projects share one pool of workers (WebKit aside, below), at least two: Vitest's default (one fewer than the cores)
 * is a single worker on a 2-core machine, and most of a browser test's time is spent waiting on the
 * browser and the local stack, not on the worker's own core.
 */
const WORKERS = Math.max(2, availableParallelism());

// One runner for every test. The React Router Vite plugin is left out on purpose: tests import
// components directly; the prerendered build is exercised by the browser tests.
export default defineConfig({
  plugins: [react()],
  // The same checked build variables the site gets (see vite.config.ts).
  define: { ...defineWebEnv(loadEnv('test', process.cwd(), 'VITE_')), __BOOT_SCRIPT__: JSON.stringify(bootScript()) },
  test: {
    maxWorkers: WORKERS,
    sequence: { sequencer: LongestFirstSequencer },
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
          // Chromium: every browser suite, and the visitor flows the other engines run too. Its files run
          // beside each other and beside the other projects: each has a Chromium of its own, and what they
          // read back from the shared stack (mails, siteverify calls) they find by a marker of their own.
          include: ['e2e/**/*.test.ts'],
          exclude: ['e2e/engines/firefox.test.ts', 'e2e/engines/webkit.test.ts', 'e2e/vitals.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // The page-view tests count every page view the stack keeps, so they get a stack of their own
          // (each project's global setup starts one): another file's page views would land in the count.
          name: 'page-views',
          environment: 'node',
          include: ['e2e/vitals.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      // The visitor flows in Firefox ESR and WebKitGTK, each engine a project with its own stack. Firefox
      // runs in the pool with the rest. WebKit runs last and alone: beside another browser on two cores,
      // MiniBrowser is starved and WebKitWebDriver stops answering (a measured run took 513 s instead of
      // about 100, with three flows retried).
      ...(['firefox', 'webkit'] as const).map((engine) => ({
        extends: true as const,
        test: {
          name: engine,
          environment: 'node',
          include: [`e2e/engines/${engine}.test.ts`],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // WebKitWebDriver now and then stops answering while MiniBrowser is busy (a command then fails
          // after a minute, e2e/engines/webdriver.ts): a WebKit flow gets one more try; twice is a failure.
          ...(engine === 'webkit' ? { retry: 1, maxWorkers: 1, sequence: { groupOrder: 1 } } : {}),
        },
      })),
    ],
  },
});
