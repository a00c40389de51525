/**
 * Copies of the project with content the shipped site lacks, built once per run and shared:
 * - `fixtureSiteBuild`: the fixture posts and a right-to-left language, for every test of either;
 * - `readmeExampleBuild`: web/content/README.md's examples followed word for word (a language, the
 *   right-to-left line, a first post), for the tests of the README's steps;
 * - and the steps themselves, for a test that makes a copy of its own (a build that must fail).
 * It reads the project's files by path and imports none of them.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildProject } from './run-tsx';
import { BUILD_INPUTS, FIXTURE_BUILDS, hashInputs, LOCK_FILE, makeCopy, POST_FIXTURE, REPO, sharedFolder } from './project-copy';

export { makeCopy, REPO } from './project-copy';

/** How the shared copies below are made and built: an edit to these makes new ones. */
const COPY_TOOLS = ['tools/locale-copy.ts', 'tools/project-copy.ts', 'tools/run-tsx.ts'];

/** `npm start`'s build step (scripts/quiet-build.ts), run in the copy; its log stays in the copy too. */
export async function quietBuild(
  copy: string,
  extraEnv: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { status, stdout, stderr } = await buildProject(copy, { quiet: true, env: extraEnv });
  return { code: status ?? 1, stdout, stderr };
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
    if (rtl.to !== 'ar')
      throw new Error(`The README's right-to-left example is ${rtl.to}; the translated texts in e2e/fixtures/ar are Arabic.`);
    for (const file of ['ui.ts', 'pages.ts', 'site.ts', 'search.ts']) {
      const source = readFileSync(path.join(ARABIC_FIXTURES, file), 'utf8').replaceAll("'../../../web/content/", "'../");
      writeFileSync(path.join(copy, 'web/content', rtl.to, file), source);
    }
  }
  return rtl.to;
}

/** The page the fixture build adds to the page table: a row, its route module and its summary, nothing else. */
export const FIXTURE_PAGE = {
  pattern: '/fixture-page',
  module: 'routes/fixture-page.tsx',
  title: 'Fixture page',
  marker: 'FIXTUREPAGEMARKER',
} as const;

/** Adds FIXTURE_PAGE to the copy as a new page is added: a row of SITE_PAGES, its route module, its summary. */
export function addFixturePage(copy: string): void {
  const { pattern, module, title, marker } = FIXTURE_PAGE;
  const insert = (file: string, before: string, text: string) => {
    const source = readFileSync(path.join(copy, file), 'utf8');
    if (!source.includes(before)) throw new Error(`${file} no longer has ${before}: the fixture page goes before it.`);
    writeFileSync(path.join(copy, file), source.replace(before, `${text}\n${before}`));
  };
  insert('contract/site-routes.ts', "  { pattern: '*'", `  { pattern: '${pattern}', kind: 'fixed', module: '${module}' },`);
  insert(
    'web/app/routes/page-summaries.server.ts',
    "  '*':",
    `  '${pattern}': () => ({ title: '${title}', description: 'A page added by the tests.', search: () => ({ text: '${marker}' }) }),`,
  );
  writeFileSync(
    path.join(copy, 'web/app', module),
    `import { useLoaderData } from 'react-router';
import { summaryMeta, type PageMetaArgs } from '../layout/seo';
import { headOfPage } from './page-content';

export async function loader({ request }: { request: Request }) {
  return { page: await headOfPage(request, '${pattern}') };
}

export function meta(args?: PageMetaArgs<Awaited<ReturnType<typeof loader>>>) {
  return summaryMeta(args);
}

export default function FixturePage() {
  return <h1>{useLoaderData<typeof loader>().page.title}</h1>;
}
`,
  );
}

/**
 * The site with what the shipped content lacks, built once for every test that needs it: the fixture
 * posts (web/test/fixtures/posts: every feature of the Markdown pipeline, a translation, a post in one
 * language, a draft), the README's right-to-left example with the Arabic texts of e2e/fixtures/ar
 * (added before the posts, so it has none: the posts keep their two languages) and a page added to the
 * page table (FIXTURE_PAGE). Read by scripts/page-table-build.test.ts (the page),
 * scripts/posts-build.test.ts, e2e/posts.test.ts and e2e/engines/post-flows.ts (the posts),
 * e2e/rtl.test.ts and e2e/engines/rtl-flows.ts (the right-to-left language), and scripts/screenshots.ts,
 * in separate test projects and processes: a shared build (tools/project-copy.ts `sharedFolder`), keyed
 * by a hash of what it is built from, made by one process while the others wait, reused while nothing
 * changed. Callers only read it. Returns the copy's folder (its site in web/build/client) and the
 * right-to-left language's code; throws with the build's output if it fails.
 */
export async function fixtureSiteBuild(env: Readonly<Record<string, string>> = {}): Promise<{ dir: string; rtl: string }> {
  const rtl = documentedSteps().rtl?.to ?? '';
  // Build variables (a preview's PREVIEW_PATH) make a build of their own, kept beside the plain one.
  const variables = Object.entries(env).sort(([a], [b]) => a.localeCompare(b));
  const suffix = variables.length === 0 ? '' : `-${createHash('sha256').update(JSON.stringify(variables)).digest('hex').slice(0, 12)}`;
  const key = `fixtures-${hashInputs([...BUILD_INPUTS, LOCK_FILE, 'e2e/fixtures/ar', path.relative(REPO, POST_FIXTURE), ...COPY_TOOLS])}${suffix}`;
  const built = await sharedFolder(FIXTURE_BUILDS, key, async (dir) => {
    addRightToLeftExample(dir, { translated: true });
    cpSync(POST_FIXTURE, path.join(dir, 'web/content'), { recursive: true });
    addFixturePage(dir);
    const { status, output } = await buildProject(dir, { env: { ...env } });
    return { code: status ?? 1, output };
  });
  if (built.code !== 0) throw new Error(`The copy with the fixture posts and ${rtl} did not build:\n${built.output}`);
  return { dir: built.dir, rtl };
}

export interface PostSteps {
  /** The folder of web/content the README says to create (posts). */
  folder: string;
  /** The file it names, relative to web/content, and the post's slug (its file name and address). */
  file: string;
  slug: string;
  /** The post the README shows, as the owner's file holds it (unindented). */
  text: string;
}

/** The README's steps for a first post, from its Posts section: the folder, the file, its content. */
export function documentedPostSteps(
  readme = readFileSync(path.join(REPO, 'web/content/README.md'), 'utf8'),
): PostSteps & { address: string } {
  const section = /## Posts\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
  const folder = /create the folder `([\w-]+)\/` here/.exec(section);
  const file = /add a file named by the post's address, e\.g\. `([\w-]+\/([\w-]+)\.md)` for `\/blogs\/([\w-]+)`/.exec(section);
  const content = /```md\n([\s\S]*?)\n\s*```/.exec(section);
  if (!folder) throw new Error('web/content/README.md no longer names the folder for posts.');
  if (!file) throw new Error("web/content/README.md no longer names a post's file and its address.");
  if (!content) throw new Error('web/content/README.md no longer shows a post.');
  // The example is indented as a list item's code block: the owner's file is not.
  const indent = /^(\s*)/.exec(content[1]!)![1]!.length;
  const text = content[1]!
    .split('\n')
    .map((line) => line.slice(indent))
    .join('\n');
  return { folder: folder[1]!, file: file[1]!, slug: file[2]!, address: file[3]!, text: `${text}\n` };
}

export interface ReadmeExample {
  /** The copy (its site in web/build/client), or '' when the build failed. */
  dir: string;
  /** The build's exit code, and what it printed (kept in the copy, so a reuse reads the same). */
  code: number;
  stdout: string;
  stderr: string;
  languages: DocumentedSteps;
  post: PostSteps;
}

/** Where a made example keeps what its build printed. */
const PRINTED = { stdout: '.build-stdout.txt', stderr: '.build-stderr.txt' } as const;

/**
 * web/content/README.md followed word for word in one copy of the project, then built by `npm start`'s
 * build step (which runs `npm run build`): a third language and the right-to-left example added by the
 * language steps (the copied texts left as they are, so the build warns about both), and a first post by
 * the post steps. One build for scripts/add-locale.test.ts and scripts/posts-readme.test.ts, each of
 * which checks its part, made once per change of what it reads and shared (tools/project-copy.ts
 * `sharedFolder`). Callers only read it.
 */
export async function readmeExampleBuild(): Promise<ReadmeExample> {
  const languages = documentedSteps();
  const post = documentedPostSteps();
  if (!languages.rtl) throw new Error("web/content/README.md no longer shows a right-to-left language's line.");
  const rtl = languages.rtl;
  const key = `readme-${hashInputs([...BUILD_INPUTS, LOCK_FILE, ...COPY_TOOLS])}`;
  const built = await sharedFolder(FIXTURE_BUILDS, key, async (dir) => {
    makeCopy(dir);
    copyLanguageFolder(dir, languages.from, languages.to);
    addLine(dir, languages.line);
    copyLanguageFolder(dir, languages.from, rtl.to);
    addLine(dir, rtl.line);
    mkdirSync(path.join(dir, 'web/content', post.folder), { recursive: true });
    writeFileSync(path.join(dir, 'web/content', post.file), post.text);
    const { code, stdout, stderr } = await quietBuild(dir);
    writeFileSync(path.join(dir, PRINTED.stdout), stdout);
    writeFileSync(path.join(dir, PRINTED.stderr), stderr);
    return { code, output: `${stdout}${stderr}` };
  });
  if (built.code !== 0) return { dir: '', code: built.code, stdout: '', stderr: built.output, languages, post };
  const printed = (file: string) => readFileSync(path.join(built.dir, file), 'utf8');
  return { dir: built.dir, code: 0, stdout: printed(PRINTED.stdout), stderr: printed(PRINTED.stderr), languages, post };
}
