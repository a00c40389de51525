/**
 * The import-direction rule of eslint.config.js bites: lint source text as if it sat in a given
 * file, with the project's own configuration, and expect an error for every wrong direction and
 * none for the allowed ones.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { MAX_FUNCTION_LINES } from './eslint.config.js';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The rule's messages for one import statement placed in `file` (repository-relative). */
async function restrictedImports(file: string, specifier: string): Promise<string[]> {
  const code = `import * as imported from '${specifier}';\nexport const used = imported;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'import-x/no-restricted-paths').map((message) => message.message);
}

describe('import direction (eslint import-x/no-restricted-paths)', () => {
  it.each([
    ['functions/contact/example.ts', '../../web/app/config/env'],
    ['infra/lib/example.ts', '../../web/app/root'],
    ['web/app/example.ts', '../../functions/contact/flow'],
    ['web/app/example.ts', '../../infra/shared/build-output'],
    ['functions/events/example.ts', '../../infra/shared/build-output'],
    ['contract/example.ts', '../web/app/config/env'],
    ['contract/example.ts', '../web/content/projects'],
    ['contract/example.ts', '../functions/shared/http'],
    ['infra/lib/example.ts', '../../e2e/support/site'],
    ['web/app/example.ts', '../../scripts/postbuild'],
    ['e2e/example.ts', '../infra/shared/build-output'],
    ['infra/local/example.ts', '../../tools/chromium'],
    ['web/app/example.ts', '../../tools/chromium'],
    ['infra/local/example.ts', '../../tools/fake-siteverify'],
    ['tools/example.ts', '../infra/local/stack'],
    ['tools/example.ts', '../e2e/support/site'],
    ['tools/example.ts', '../infra/lib/monitoring'],
    ['functions/archive/example.ts', '../contact/flow'],
    ['functions/mail/example.ts', '../archive/store'],
    ['functions/shared/example.ts', '../redelivery/handler'],
    ['web/app/i18n/example.ts', '../layout/AppShell'],
    ['web/app/i18n/example.ts', '../routes/page-content'],
    ['web/app/search/words.ts', './engine'],
  ])('refuses, in %s, an import of %s', async (file, specifier) => {
    const messages = await restrictedImports(file, specifier);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/Unexpected path/);
  });

  it.each([
    ['web/app/example.ts', '../../contract/contact-rules'],
    ['functions/contact/example.ts', '../../contract/metrics'],
    ['infra/lib/example.ts', '../../contract/api-routes'],
    ['infra/lib/example.ts', '../../web/content/projects'],
    ['scripts/example.ts', '../infra/shared/build-output'],
    ['e2e/example.ts', '../infra/local/stack'],
    ['e2e/example.ts', '../web/content/projects'],
    ['e2e/support/example.ts', '../../tools/chromium'],
    ['scripts/example.ts', '../tools/chromium'],
    ['infra/local/example.test.ts', '../../tools/fake-siteverify'],
    ['functions/contact/example.test.ts', '../../tools/flaky-ses'],
    ['tools/example.ts', '../infra/lib/deploy-fence'],
    ['functions/archive/example.ts', '../mail/email'],
    ['functions/contact/example.ts', '../archive/delivery'],
    ['web/app/layout/example.ts', '../i18n/locale-context'],
    ['web/app/routes/example.ts', '../layout/structured-data'],
  ])('allows, in %s, an import of %s', async (file, specifier) => {
    expect(await restrictedImports(file, specifier)).toEqual([]);
  });
});

describe("the owner's commands go through their kit (no-restricted-syntax in infra/scripts)", () => {
  const CODE = "import { S3Client } from '@aws-sdk/client-s3';\nexport const s3 = new S3Client({});\nprocess.exit(1);\n";
  async function kitMessages(file: string): Promise<string[]> {
    const [result] = await eslint.lintText(CODE, { filePath: path.join(ROOT, file) });
    return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-syntax').map((message) => message.message);
  }

  it('refuses process.exit and a client built by hand in a command', async () => {
    for (const file of [
      'infra/scripts/deploy/run.ts',
      'infra/scripts/messages/cli.ts',
      'infra/scripts/setup/steps.ts',
      'infra/scripts/github-setup/run.ts',
      'infra/scripts/previews/run.ts',
      'infra/scripts/example.ts',
    ]) {
      const messages = await kitMessages(file);
      expect(messages).toHaveLength(2);
      expect(messages[0]).toMatch(/awsClient\(\) from kit\/aws\.ts/);
      expect(messages[1]).toMatch(/only kit\/command\.ts/);
    }
  });

  it('allows them in the kit and in tests only', async () => {
    for (const file of ['infra/scripts/kit/command.ts', 'infra/scripts/deploy/run.test.ts']) {
      expect(await kitMessages(file)).toEqual([]);
    }
  });
});

describe("web tests render in a language (no-restricted-imports of Testing Library's render)", () => {
  async function importMessages(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
  }
  const DIRECT =
    "import { render, renderHook, screen } from '@testing-library/react';\nexport const used = [render, renderHook, screen];\n";

  it('refuses render and renderHook from Testing Library itself in a web test, and still the AWS client mock', async () => {
    const messages = await importMessages('web/app/example.test.tsx', DIRECT);
    expect(messages).toHaveLength(2);
    for (const message of messages) expect(message).toMatch(/web\/test\/render\.tsx/);
    expect(
      await importMessages(
        'web/app/example.test.tsx',
        "import { mockClient } from 'aws-sdk-client-mock';\nexport const used = mockClient;\n",
      ),
    ).toHaveLength(1);
  });

  it('allows the rest of Testing Library, web/test/render itself, and tests elsewhere', async () => {
    expect(
      await importMessages(
        'web/app/example.test.tsx',
        "import { screen, within } from '@testing-library/react';\nexport const used = [screen, within];\n",
      ),
    ).toEqual([]);
    expect(await importMessages('web/test/render.tsx', DIRECT)).toEqual([]);
    expect(await importMessages('e2e/example.test.ts', DIRECT)).toEqual([]);
  });
});

describe('no function of the source over MAX_FUNCTION_LINES lines (max-lines-per-function)', () => {
  /** A function named `name` of `lines` lines in all, with a nested arrow of the same length less 4. */
  const longFunction = (name: string, lines: number) =>
    `export function ${name}(): number {\n  let n = 0;\n  const inner = () => {\n${'    n += 1;\n'.repeat(lines - 7)}  };\n  inner();\n  return n;\n}\n`;
  const longClass = (name: string, lines: number) =>
    `export class ${name} {\n  n = 0;\n  constructor() {\n${'    this.n += 1;\n'.repeat(lines - 2)}  }\n}\n`;
  async function tooLong(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return (result?.messages ?? []).filter((message) => message.ruleId === 'max-lines-per-function').map((message) => message.message);
  }

  it('refuses a function, its inner function and a constructor one line over the limit, and allows the limit', async () => {
    expect(await tooLong('tools/example.ts', longFunction('build', MAX_FUNCTION_LINES))).toEqual([]);
    const over = await tooLong('tools/example.ts', longFunction('build', MAX_FUNCTION_LINES + 1));
    expect(over).toHaveLength(1);
    expect(over[0]).toMatch(new RegExp(`Function 'build' has too many lines \\(${MAX_FUNCTION_LINES + 1}\\)`));
    expect(await tooLong('e2e/engines/example.ts', longFunction('flows', MAX_FUNCTION_LINES + 10))).toHaveLength(2);
    expect(await tooLong('infra/lib/example.ts', longClass('Stackish', MAX_FUNCTION_LINES + 1))).toEqual([
      expect.stringMatching(/^Constructor has too many lines/),
    ]);
    expect(await tooLong('web/app/example.tsx', longFunction('Component', MAX_FUNCTION_LINES + 1))).toHaveLength(1);
  });

  it('exempts tests, and no function of the source, whatever its file or name', async () => {
    expect(await tooLong('tools/example.test.ts', longFunction('suite', MAX_FUNCTION_LINES * 2))).toEqual([]);
    expect(await tooLong('functions/contact/flow.ts', longFunction('createContactHandler', MAX_FUNCTION_LINES * 2))).toHaveLength(2);
    expect(await tooLong('infra/lib/monitoring.ts', longClass('Monitoring', MAX_FUNCTION_LINES * 2))).toHaveLength(1);
  });
});
