import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Which way imports run. web, functions and infra may import contract/ (what they agree on) and
 * web/content/ (the owner's content); none reaches into another's insides; contract/ imports only
 * itself (what it derives from the content is given the content by its callers); nothing imports
 * e2e/ or scripts/ but their own files (scripts may use infra, web and contract; e2e may use
 * infra/local, contract and web/content). tools/ is the test tooling (the browser finder) that e2e/
 * and scripts/ share: it imports none of the project (but the deploy stack's policy statement type),
 * and only they import it. docs/architecture.md draws it.
 */
export const IMPORT_ZONES = [
  {
    target: ['./functions', './infra'],
    from: './web/app',
    message: 'functions/ and infra/ never import the site (web/app); share through contract/.',
  },
  { target: './web', from: ['./functions', './infra'], message: 'The site never imports functions/ or infra/; share through contract/.' },
  { target: './functions', from: './infra', message: 'functions/ never imports infra/; share through contract/.' },
  // The stack names handler files through contract/api-routes; only the local stand-in (infra/local), which
  // plays Lambda on this machine, calls the handler factories directly.
  {
    target: ['./infra/bin', './infra/cloudfront', './infra/config', './infra/lib', './infra/scripts', './infra/shared'],
    from: './functions',
    message: 'infra/ never imports functions/ (it names handler files through contract/api-routes); only infra/local runs them.',
  },
  // Inside functions/: the handler folders build on the shared pieces (archive/, mail/, shared/), never the
  // other way round, so no two folders import each other.
  {
    target: ['./functions/archive', './functions/mail', './functions/shared'],
    from: ['./functions/contact', './functions/events', './functions/redelivery', './functions/mail-events'],
    message: 'functions/archive, mail and shared are what the handlers share: they never import a handler folder.',
  },
  // Inside web/app: the pages (routes/) and the shell (layout/) build on the languages' plumbing (i18n/),
  // never the other way round.
  {
    target: './web/app/i18n',
    from: ['./web/app/layout', './web/app/routes'],
    message: 'web/app/i18n sits below layout/ and routes/: it never imports them.',
  },
  {
    target: './web/app/search/words.ts',
    from: './web/app/search/engine.ts',
    message: 'The search engine builds on words.ts, not the other way round.',
  },
  {
    target: './functions/mail',
    from: './functions/archive',
    message: 'functions/mail builds the mail; the archive imports it, not the other way round.',
  },
  {
    target: './contract',
    from: ['./web', './functions', './infra', './e2e', './scripts'],
    message: 'contract/ imports only itself: its callers pass it the content it needs.',
  },
  {
    target: ['./web', './functions', './infra', './contract', './scripts'],
    from: './e2e',
    message: 'Nothing imports e2e/ but its own files.',
  },
  {
    target: ['./web', './functions', './infra', './contract', './e2e'],
    from: './scripts',
    message: 'Nothing imports scripts/ but its own files.',
  },
  { target: './e2e', from: './infra', except: ['./local'], message: 'e2e/ may import infra/local, contract/ and web/content/ only.' },
  { target: './e2e', from: './web', except: ['./content'], message: 'e2e/ may import infra/local, contract/ and web/content/ only.' },
  { target: './e2e', from: './functions', message: 'e2e/ may import infra/local, contract/ and web/content/ only.' },
  {
    target: ['./web', './functions', './infra', './contract'],
    from: './tools',
    message: 'Only tests, e2e/ and scripts/ import tools/ (test tooling).',
  },
  {
    target: './tools',
    from: ['./web', './functions', './contract', './e2e', './scripts'],
    message: 'tools/ imports none of the project: e2e/ and scripts/ both use it.',
  },
  // One exception: the fake IAM judges the statements of the deploy's fence, so it takes their type
  // (PolicyStatementJson, a type only) from there rather than repeat it.
  {
    target: './tools',
    from: './infra',
    except: ['./lib/deploy-fence.ts'],
    message: 'tools/ imports none of the project (only the policy statement type of infra/lib/deploy-fence.ts).',
  },
];

/**
 * The owner's commands (infra/scripts/) end the process and build AWS clients only in their kit
 * (kit/command.ts, kit/aws.ts), so every command exits with the same codes and every client retries
 * the same way. Tests may build clients for their mocks.
 */
export const COMMAND_KIT_RULES = {
  files: ['infra/scripts/**/*.ts'],
  ignores: ['infra/scripts/kit/**', '**/*.test.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: "CallExpression[callee.object.name='process'][callee.property.name='exit']",
        message: 'A command returns its exit code; only kit/command.ts (runCommand) ends the process.',
      },
      {
        selector: 'NewExpression[callee.name=/Client$/]',
        message: 'Build AWS clients with awsClient() from kit/aws.ts: one retry policy for every command.',
      },
    ],
  },
};

/** The longest a function of the project's source may be, in lines (tests are exempt: a suite's body is its list). */
export const MAX_FUNCTION_LINES = 120;

// The node tests share worker processes: a client stub must be taken off when its file ends.
const TEST_RESTRICTED_IMPORTS = [
  {
    name: 'aws-sdk-client-mock',
    message: 'Use mockAwsClient from tools/aws-client-mock.ts: it restores the client class when the file ends.',
  },
];

/** Test files anywhere may also use the test tooling in tools/ (fakes of Google and SES, the browser finder). */
export const TEST_IMPORT_ZONES = IMPORT_ZONES.filter((zone) => zone.from !== './tools');

export default tseslint.config(
  // .local: npm start's state (the archive, the build log, its copies of the last good build).
  { ignores: ['node_modules', 'web/build', '.local', '.react-router', 'cdk.out', 'coverage', '.bench'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: IMPORT_ZONES }] },
  },
  {
    // The helpers the infra tests share (a fast CDK app, fixture sites and builds) make their directories
    // with tools/scratch.ts, so they go when the test file ends; the benchmarks that borrow a fixture build
    // remove it themselves.
    files: ['infra/lib/testing.ts', 'infra/local/test-support.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: TEST_IMPORT_ZONES }] },
  },
  {
    files: ['**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: TEST_IMPORT_ZONES }],
      'no-restricted-imports': ['error', { paths: TEST_RESTRICTED_IMPORTS }],
    },
  },
  {
    // Rendered alone a component has no language (the site throws, and so do the tests).
    files: ['web/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...TEST_RESTRICTED_IMPORTS,
            {
              name: '@testing-library/react',
              importNames: ['render', 'renderHook'],
              message: 'Import render and renderHook from web/test/render.tsx: they render in the default language, as under its layout.',
            },
          ],
        },
      ],
    },
  },
  COMMAND_KIT_RULES,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['**/*.test.{ts,tsx}', 'web/test/**'],
    rules: { 'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES, IIFEs: true }] },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
    },
  },
  {
    // The CloudFront Function runs on cloudfront-js-2.0: plain script, no modules, no Node globals.
    files: ['infra/cloudfront/**/*.js'],
    languageOptions: { sourceType: 'script', ecmaVersion: 2020, globals: {} },
    rules: {
      '@typescript-eslint/no-unused-vars': 'off',
      'no-unused-vars': ['error', { varsIgnorePattern: '^handler$' }],
    },
  },
);
