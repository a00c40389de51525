/**
 * The owner's site, not the template's: a copy of the whole project (its tracked and new files, the
 * project's node_modules linked) made the owner's own as web/content/README.md says, then
 * `npm run test:unit` run in it. The unit tests test the site, so they pass with anyone's content:
 *   - a post in every language, each with a tag in the language's own script;
 *   - a left-to-right language (French) and a right-to-left one (Hebrew), added by the README's steps;
 *   - a sixth project and a fourth article, in every language;
 *   - the personal texts (name, addresses, role line, tagline, headline, intros, titles) replaced.
 * `npm run test:owner-copy`; CI runs it as a part of its own (`.ci/run owner-copy`), beside `npm test`.
 * `--keep` leaves the copy in place (its path is printed) to look at after a failure.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addLine, copyLanguageFolder, documentedSteps } from '../tools/locale-copy';
import { REPO } from '../tools/project-copy';
import { plainEnv } from '../tools/run-tsx';

/** The languages the copy adds: one written left to right, one right to left (Hebrew's reCAPTCHA code is Google's `iw`). */
const ADDED = {
  fr: "fr: { name: 'Français', ogLocale: 'fr_FR', intl: 'fr-FR', captcha: 'fr', fallback: { loading: 'Chargement de la page…' } },",
  he: "he: { name: 'עברית', ogLocale: 'he_IL', intl: 'he', captcha: 'iw', fallback: { loading: 'טוען את הדף…' } },",
} as const;

/** Per language: its post (slug, title, tag in its own script) and the texts that replace the template's. */
const OWN = {
  en: {
    slug: 'first-light',
    title: 'First light',
    tag: 'field-notes',
    role: 'Systems engineer',
    headline: 'Quiet software for loud problems.',
  },
  es: {
    slug: 'primera-luz',
    title: 'Primera luz',
    tag: 'cuaderno-de-campo',
    role: 'Ingeniera de sistemas',
    headline: 'Software tranquilo para problemas ruidosos.',
  },
  fr: {
    slug: 'premiere-lumiere',
    title: 'Première lumière',
    tag: 'carnet-été',
    role: 'Ingénieure systèmes',
    headline: 'Du logiciel calme pour des problèmes bruyants.',
  },
  he: { slug: 'or-rishon', title: 'אור ראשון', tag: 'רשימות-שדה', role: 'מהנדסת מערכות', headline: 'תוכנה שקטה לבעיות רועשות.' },
} as const;
type Code = keyof typeof OWN;

const OWNER_NAME = 'Noa Brightwater';

/** The project's files as git sees them: tracked, and new ones not ignored (an owner's uncommitted edits count). */
function projectFiles(): string[] {
  // safe.directory on the command line (git honours it there): CI's container checks out as another user.
  const listed = execFileSync('git', ['-c', `safe.directory=${REPO}`, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  return [...new Set(listed.split('\0').filter(Boolean))].filter((file) => existsSync(path.join(REPO, file)));
}

function edit(file: string, change: (text: string) => string): void {
  const before = readFileSync(file, 'utf8');
  const after = change(before);
  if (after === before)
    throw new Error(
      `${path.relative(process.cwd(), file)}: the copy's edit changed nothing; the file no longer has the shape this script expects.`,
    );
  writeFileSync(file, after);
}

/** Replaces every single-quoted value of `key` (key: '…') in `text`, numbering them from 1. */
function replaceValues(text: string, key: string, value: (n: number) => string): string {
  let n = 0;
  return text.replace(
    new RegExp(`(\\b${key}:\\s*)'(?:[^'\\\\]|\\\\.)*'`, 'g'),
    (_, head: string) => `${head}'${value(++n).replaceAll("'", "\\'")}'`,
  );
}

/** Inserts `item` (source text of one object) as the last element of the file's exported array. */
function appendToArray(text: string, item: string): string {
  const end = text.lastIndexOf('\n];');
  if (end < 0) throw new Error('no exported array ending in `];`');
  return `${text.slice(0, end)}\n${item}${text.slice(end)}`;
}

/** Makes the copy's web/content someone else's, by the README's steps where it has them. */
export function makeOwnersContent(copy: string): void {
  const content = path.join(copy, 'web/content');
  const { from } = documentedSteps();
  for (const [code, line] of Object.entries(ADDED)) {
    copyLanguageFolder(copy, from, code);
    addLine(copy, line);
  }
  for (const code of Object.keys(OWN) as Code[]) {
    const own = OWN[code];
    const folder = code === 'en' ? content : path.join(content, code);
    // The personal texts: the name everywhere it is written, the addresses, role, tagline, headline, intros, titles.
    for (const file of ['site.ts', 'pages.ts', 'projects.ts', 'blogs.ts', 'about.ts', 'privacy-policy.ts', 'fun-facts.ts']) {
      const full = path.join(folder, file);
      const text = readFileSync(full, 'utf8').replaceAll('Alex Example', OWNER_NAME).replaceAll('alex-example', 'noa-brightwater');
      writeFileSync(full, text.replaceAll('portfolio.example.com', 'noa.example.org'));
    }
    if (code === 'en')
      edit(path.join(folder, 'site.ts'), (t) => t.replace(/(tagline:\s*)'[^']*'/, `$1'${OWNER_NAME} keeps busy systems calm.'`));
    else edit(path.join(folder, 'site.ts'), (t) => replaceValues(t, 'tagline', () => `${own.headline} (${code})`));
    edit(path.join(folder, 'site.ts'), (t) => replaceValues(t, 'role', () => own.role));
    edit(path.join(folder, 'pages.ts'), (t) =>
      replaceValues(
        replaceValues(t, 'headline', () => own.headline),
        'intro',
        (n) => `${own.title} ${n}.`,
      ),
    );
    edit(path.join(folder, 'projects.ts'), (t) => replaceValues(t, 'title', (n) => `${own.title}: project ${n}`));
    edit(path.join(folder, 'projects.ts'), (t) =>
      appendToArray(
        t,
        `  {\n    id: 6,\n    url: '',\n    webm: '',\n    poster: '',\n    title: '${own.title}: project 6',\n    tech: 'Rust, SQLite',\n    problem: '${own.headline}',\n    solution: '${own.headline}',\n    site: 'https://six.noa.example.org',\n    github: 'https://github.com/noa-brightwater/six',\n    description: '${own.headline}',\n  },`,
      ),
    );
    edit(path.join(folder, 'blogs.ts'), (t) => replaceValues(t, 'title', (n) => `${own.title}: article ${n}`));
    edit(path.join(folder, 'blogs.ts'), (t) =>
      appendToArray(
        t,
        `  {\n    id: 4,\n    title: '${own.title}: article 4',\n    description: '${own.headline}',\n    published: '2025-11-02',\n    minutes: 3,\n    url: 'https://medium.com/@noa-brightwater/article-four',\n  },`,
      ),
    );
    // A post in this language, tagged in its own script (a copied es/posts/ would be left out as a copy).
    mkdirSync(path.join(folder, 'posts'), { recursive: true });
    writeFileSync(
      path.join(folder, 'posts', `${own.slug}.md`),
      `---\ntitle: ${own.title}\ndescription: ${own.headline}\npublished: 2025-12-01\ntags: [${own.tag}]\n---\n\n${own.headline}\n`,
    );
  }
}

/** Copies the project to a fresh temporary folder, sharing its node_modules. */
export function copyWholeProject(): string {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'owner-copy-'));
  for (const file of projectFiles()) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(path.join(REPO, file), path.join(copy, file));
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  return copy;
}

function run(command: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve) => {
    // A plain shell's environment in a copy with temporary files of its own (a test runner's variables are not an owner's).
    const child = spawn(command, args, { cwd, env: plainEnv(), stdio: 'inherit' });
    child.on('close', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });
}

async function main(): Promise<void> {
  const keep = process.argv.includes('--keep');
  const started = performance.now();
  const copy = copyWholeProject();
  console.info(
    `Owner's copy in ${copy}: posts in ${Object.keys(OWN).join(', ')}; French and Hebrew added; a sixth project, a fourth article; the texts replaced.`,
  );
  let code = 1;
  try {
    makeOwnersContent(copy);
    code = await run('npm', ['run', 'test:unit'], copy);
  } finally {
    const seconds = Math.round((performance.now() - started) / 1000);
    console.info(
      code === 0
        ? `Owner's copy: npm run test:unit passed (${seconds} s).`
        : `Owner's copy: npm run test:unit failed (${seconds} s); the copy: ${copy}`,
    );
    if (code === 0 && !keep) rmSync(copy, { recursive: true, force: true });
  }
  process.exitCode = code;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
