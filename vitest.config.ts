import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { loadEnv } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { defineWebEnv } from './web/app/config/env-schema.ts';
import { bootScript } from './web/boot/generate.ts';
import LongestFirstSequencer from './tools/test-sequencer.ts';

/**
 * The projects share one pool of workers, at least two: Vitest's default (one fewer than the cores) is a
 * single worker on a 2-core machine. They run in two groups, one after the other: the Chromium and Firefox
 * suites with the tests that start programs, then WebKit beside the unit tests (`web`, `node`). Beside
 * another browser on two cores WebKitWebDriver stops answering while MiniBrowser waits for the CPU (a
 * measured run took 513 s instead of about 100, with three flows retried); beside the unit tests it keeps
 * its pace, and the unit tests fill the other core.
 */
const WORKERS = Math.max(2, availableParallelism());

/**
 * Tests that start real programs rather than calling code: `npm start` and `npm run dev`, the setup and
 * deploy commands as a person runs them (in a terminal too), site builds of their own, Lambda bundling, the
 * AWS CLI. Seconds each, so they are a project of their own and `npm run test:unit` stays quick.
 */
const PROGRAM_TESTS = [
  'functions/shared/bundle.test.ts',
  'infra/bin/*.test.ts',
  'infra/lib/content-deploy.test.ts',
  'infra/lib/lambda-bundling.test.ts',
  'infra/lib/preview-workflow.test.ts',
  'infra/lib/production-workflows.test.ts',
  'infra/local/dev.test.ts',
  'infra/local/flood.test.ts',
  'infra/scripts/deploy/run.test.ts',
  'infra/scripts/setup/cli*.test.ts',
  'infra/scripts/setup/terminal.test.ts',
  'scripts/add-locale.test.ts',
  'scripts/owner-copy.test.ts',
  'scripts/page-table-build.test.ts',
  'scripts/posts-*.test.ts',
  'scripts/quiet-build.test.ts',
  'scripts/start.test.ts',
  'scripts/test.test.ts',
  'tools/project-copy.test.ts',
  'tools/run-tsx.test.ts',
];

/**
 * Tests that read the production build in web/build (`npm run build:test`): run with the Chromium
 * suites, which serve that build, so `npm run test:unit` needs no build of its own.
 */
const BUILD_TESTS = ['infra/scripts/smoke/checks.test.ts', 'scripts/bench/entry-chunk.test.ts'];

/** The site's test files, each with its text. */
const WEB_TEST_FILES = readdirSync('web', { recursive: true, encoding: 'utf8' })
  .map((name) => `web/${name.split('\\').join('/')}`)
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
/** The site's tests that need no DOM (their first line says `@vitest-environment node`) run with the `node` project. */
const WEB_TESTS_WITHOUT_DOM = WEB_TEST_FILES.filter(({ text }) => text.startsWith('// @vitest-environment node')).map(({ file }) => file);
/** The site's tests that replace modules with `vi.mock`: each gets a process of its own (the `web-mocks` project). */
const WEB_TESTS_WITH_MODULE_MOCKS = WEB_TEST_FILES.filter(({ text }) => text.includes('vi.mock(')).map(({ file }) => file);

/** A project of the site's component tests (jsdom, Testing Library). */
function webProject(name: string, files: { include?: string[]; exclude?: string[]; isolate: boolean }) {
  return {
    extends: true as const,
    test: {
      name,
      sequence: { groupOrder: 1 },
      environment: 'jsdom',
      include: files.include ?? ['web/**/*.test.{ts,tsx}'],
      exclude: [...configDefaults.exclude, ...WEB_TESTS_WITHOUT_DOM, ...(files.exclude ?? [])],
      isolate: files.isolate,
      setupFiles: ['web/test/setup.ts'],
      // A test that types a whole form with user-event takes seconds on two busy cores (the form's
      // test of eight names took 5.3 s at a load of 12): Vitest's default of 5 s is not a limit it
      // should hit there.
      testTimeout: 15_000,
    },
  };
}

// One runner for every test. The React Router Vite plugin is left out on purpose: tests import
// components directly; the prerendered build is exercised by the browser tests.
export default defineConfig({
  plugins: [react()],
  // The same checked build variables the site gets (see vite.config.ts).
  define: { ...defineWebEnv(loadEnv('test', process.cwd(), 'VITE_')), __BOOT_SCRIPT__: JSON.stringify(bootScript()) },
  test: {
    maxWorkers: WORKERS,
    // Each project adds its own setup files after this one (tools/scratch.ts: a test file's temporary
    // directories go when it ends).
    setupFiles: ['tools/scratch-setup.ts'],
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      // The site's component tests, sharing their worker's modules (React, Testing Library, jsdom's
      // environment) from file to file: with a process per file the component tests took 47.6 CPU s,
      // against 33.0 with this split (scripts/bench/files-cpu.ts).
      webProject('web', { exclude: WEB_TESTS_WITH_MODULE_MOCKS, isolate: false }),
      // Files that replace modules with vi.mock: those modules would stay replaced for the next file of
      // a shared worker, so each runs in a process of its own.
      webProject('web-mocks', { include: WEB_TESTS_WITH_MODULE_MOCKS, isolate: true }),
      {
        extends: true,
        test: {
          name: 'node',
          sequence: { groupOrder: 1 },
          environment: 'node',
          include: [
            '*.test.ts',
            'contract/**/*.test.ts',
            'functions/**/*.test.ts',
            'infra/**/*.test.ts',
            'scripts/**/*.test.ts',
            'tools/**/*.test.ts',
            ...WEB_TESTS_WITHOUT_DOM,
          ],
          exclude: [...configDefaults.exclude, ...PROGRAM_TESTS, ...BUILD_TESTS],
          // Files share their worker's modules (aws-cdk-lib, the SDK clients): loading them once per worker
          // rather than once per file halves the unit tests' time. What a file changes in the process it
          // puts back (tools/aws-client-mock.ts; Vitest restores stubbed globals and environment variables).
          isolate: false,
          unstubEnvs: true,
          unstubGlobals: true,
          testTimeout: 30_000,
          // The CDK tests synthesize the whole app in beforeAll: seconds alone, more beside other test runs.
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'programs',
          environment: 'node',
          include: PROGRAM_TESTS,
          testTimeout: 30_000,
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
          include: ['e2e/**/*.test.ts', ...BUILD_TESTS],
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
      // The visitor flows in Firefox ESR and WebKitGTK, each engine a project with its own stack. WebKit
      // runs in the second group, with no other browser (WORKERS above).
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
          // after 15 s, e2e/engines/webdriver.ts): a WebKit flow gets one more try; twice is a failure.
          ...(engine === 'webkit' ? { retry: 1, sequence: { groupOrder: 1 } } : {}),
        },
      })),
    ],
  },
});
