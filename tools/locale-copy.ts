/**
 * A copy of the project in a temporary folder, where a test adds a language by following
 * web/content/README.md's steps word for word and runs `npm start`'s build step. Shared by
 * scripts/add-locale.test.ts (the steps and the raw HTML) and e2e/rtl.test.ts (a right-to-left
 * language in the browsers). It reads the project's files by path and imports none of them.
 */
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUILD_INPUTS, FIXTURE_BUILDS, hashInputs, LOCK_FILE, makeCopy, REPO, sharedFolder } from './project-copy';

export { makeCopy, REPO } from './project-copy';

/** `npm start`'s build step (scripts/quiet-build.ts), run in the copy; its log stays in the copy too. */
export function quietBuild(copy: string, extraEnv: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: copy, TMP: copy, TEMP: copy };
  // The test runner's own settings are not a newcomer's: the build must see a plain shell's environment.
  for (const name of Object.keys(env)) if (name === 'NODE_ENV' || name.startsWith('VITEST') || name.startsWith('VITE_')) delete env[name];
  Object.assign(env, extraEnv);
  const tsx = path.join(REPO, 'node_modules/tsx/dist/cli.mjs');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, 'scripts/quiet-build.ts'], { cwd: copy, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

export interface DocumentedSteps {
  /** The folder the README says to copy (es). */
  from: string;
  /** The example language (fr) and its line for locales.ts. */
  to: string;
  line: string;
  /** The right-to-left example the README gives (ar) and its line: the same steps, another code. */
  rtl: { to: string; line: string } | null;
}

/** The README's steps, read from its text: which folder to copy, the `locale` to set, the lines to add. */
export function documentedSteps(readme = readFileSync(path.join(REPO, 'web/content/README.md'), 'utf8')): DocumentedSteps {
  const folders = /copy the folder `(\w[\w-]*)\/` to `(\w[\w-]*)\/`/.exec(readme);
  const setLocale = /in `(\w[\w-]*)\/index\.ts`, set `locale: '(\w[\w-]*)'`/.exec(readme);
  const lines = [...readme.matchAll(/```ts\n\s*((\w[\w-]*): \{.*\},)\n\s*```/g)];
  if (!folders) throw new Error('The README no longer says which folder to copy.');
  if (!setLocale) throw new Error("The README no longer says which locale to set in the copy's index.ts.");
  if (lines.length === 0) throw new Error("The README no longer shows the language's line for locales.ts.");
  const [, from, to] = folders;
  if (setLocale[1] !== to || setLocale[2] !== to || lines[0]![2] !== to) {
    throw new Error(`The README's steps name different languages: ${to}, ${setLocale[1]}, ${setLocale[2]}, ${lines[0]![2]}.`);
  }
  const rtl = /right-to-left[\s\S]*?```ts\n\s*((\w[\w-]*): \{.*\},)\n\s*```/.exec(readme);
  return { from: from!, to: to!, line: lines[0]![1]!, rtl: rtl ? { to: rtl[2]!, line: rtl[1]! } : null };
}

/** Adds a line at the end of LOCALES in the copy's locales.ts, as the README says. */
export function addLine(copy: string, line: string): void {
  const file = path.join(copy, 'web/content/locales.ts');
  const source = readFileSync(file, 'utf8');
  const end = source.indexOf('} as const satisfies Record<string, LocaleInfo>;');
  if (end < 0) throw new Error('locales.ts no longer ends LOCALES the way the README steps expect.');
  writeFileSync(file, `${source.slice(0, end)}  ${line}\n${source.slice(end)}`);
}

/** Steps 1 and 2: copies the folder `from` to `to` and sets `locale: 'to'` in the copy's index.ts. */
export function copyLanguageFolder(copy: string, from: string, to: string): void {
  cpSync(path.join(copy, 'web/content', from), path.join(copy, 'web/content', to), { recursive: true });
  const index = path.join(copy, 'web/content', to, 'index.ts');
  writeFileSync(index, readFileSync(index, 'utf8').replace(`locale: '${from}'`, `locale: '${to}'`));
}

/** Arabic texts (interface, page copy, profile) that e2e/rtl.test.ts and the screenshots lay over the copied ones. */
const ARABIC_FIXTURES = path.join(REPO, 'e2e/fixtures/ar');

/**
 * Makes `copy` the project with the README's right-to-left example added by its steps (copy the
 * folder, set the locale, add the line), then, with `translated`, lays Arabic interface strings,
 * page texts and profile over the copied ones (the rest stays in the copied language, as it would
 * half-way through a translation). Returns the language's code. The caller builds.
 */
export function addRightToLeftExample(copy: string, { translated }: { translated: boolean }): string {
  makeCopy(copy);
  const { from, rtl } = documentedSteps();
  if (!rtl) throw new Error("web/content/README.md no longer shows a right-to-left language's line.");
  copyLanguageFolder(copy, from, rtl.to);
  addLine(copy, rtl.line);
  if (translated) {
    if (rtl.to !== 'ar') throw new Error(`The README's right-to-left example is ${rtl.to}; the translated texts in e2e/fixtures/ar are Arabic.`);
    for (const file of ['ui.ts', 'pages.ts', 'site.ts', 'search.ts']) {
      const source = readFileSync(path.join(ARABIC_FIXTURES, file), 'utf8').replaceAll("'../../../web/content/", "'../");
      writeFileSync(path.join(copy, 'web/content', rtl.to, file), source);
    }
  }
  return rtl.to;
}

/**
 * The README's right-to-left example, translated and built once for every browser suite that needs it
 * (e2e/rtl.test.ts in Chromium, e2e/engines/rtl-flows.ts in each engine, run in separate test projects,
 * and scripts/screenshots.ts), as a shared build (tools/project-copy.ts `sharedFolder`): keyed by a hash
 * of what it is built from, made by one process while the others wait, reused while nothing changed.
 * Returns the language's code and the copy's folder (its site in web/build/client).
 */
export async function rightToLeftBuild(): Promise<{ code: string; dir: string }> {
  const code = documentedSteps().rtl?.to ?? '';
  const key = `rtl-${hashInputs([...BUILD_INPUTS, LOCK_FILE, 'e2e/fixtures/ar', 'tools/locale-copy.ts', 'tools/project-copy.ts'])}`;
  const built = await sharedFolder(FIXTURE_BUILDS, key, async (dir) => {
    addRightToLeftExample(dir, { translated: true });
    const { code: status, stdout, stderr } = await quietBuild(dir);
    return { code: status, output: `${stdout}${stderr}` };
  });
  if (built.code !== 0) throw new Error(`The copy with ${code} did not build:\n${built.output}`);
  return { code, dir: built.dir };
}
