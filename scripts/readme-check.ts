/**
 * What keeps the README and docs/ from going stale, used by scripts/readme.test.ts: every npm script,
 * npx tool and repository path their code shows exists, and every relative link (anchors included)
 * leads somewhere. Pure functions over a view of the repository, so the checker itself is testable.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface RepoView {
  /** Names of package.json's scripts. */
  scripts: ReadonlySet<string>;
  /** package.json's scripts: name → command. */
  scriptCommands: Readonly<Record<string, string>>;
  /** Names of the files in a directory relative to the root (empty when there is none). */
  list(relDir: string): string[];
  /** Whether a path relative to the repository root exists (file or directory). */
  exists(relPath: string): boolean;
  /** Text of a file relative to the root. */
  read(relPath: string): string;
  /** Top-level entries a path in code may start with (generated and ignored ones left out). */
  topLevel: ReadonlySet<string>;
  /** Prefixes of generated paths (build output, caches): named in docs, absent from a fresh checkout. */
  generated: readonly string[];
}

/** The repository on disk. Generated paths are the plain (wildcard-free) entries of .gitignore. */
export function repoView(root: string): RepoView {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const generated = readFileSync(path.join(root, '.gitignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#') && !/[*?[!]/.test(line))
    .map((line) => line.replace(/^\//, '').replace(/\/?$/, '/'));
  const topLevel = new Set(
    readdirSync(root).filter((name) => name !== '.git' && !generated.some((prefix) => `${name}/`.startsWith(prefix))),
  );
  return {
    scripts: new Set(Object.keys(pkg.scripts ?? {})),
    scriptCommands: pkg.scripts ?? {},
    list: (relDir) => (existsSync(path.join(root, relDir)) ? readdirSync(path.join(root, relDir)) : []),
    exists: (relPath) => existsSync(path.join(root, relPath)),
    read: (relPath) => readFileSync(path.join(root, relPath), 'utf8'),
    topLevel,
    generated,
  };
}

const FENCE = /^(`{3,}|~{3,})([^\n]*)\n([\s\S]*?)^\1[ \t]*$/gm;
const INLINE_CODE = /`([^`\n]+)`/g;

/** The code a Markdown text shows: fenced blocks and inline spans, and the prose with both removed. */
export function splitMarkdown(markdown: string): { code: string[]; prose: string } {
  const code: string[] = [];
  const withoutBlocks = markdown.replace(FENCE, (_all, _fence: string, _info: string, body: string) => {
    code.push(body);
    return '\n'.repeat(body.split('\n').length + 1);
  });
  const prose = withoutBlocks.replace(INLINE_CODE, (_all, body: string) => {
    code.push(body);
    return ' ';
  });
  return { code, prose };
}

/** GitHub's anchor for each heading of a Markdown text (repeated headings get -1, -2, …). */
export function headingAnchors(markdown: string): Set<string> {
  const withoutBlocks = markdown.replace(FENCE, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of withoutBlocks.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const slug = (match[1] ?? '')
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Relative link targets of the prose: Markdown links and HTML src/href attributes. */
export function relativeLinks(prose: string): string[] {
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? ''),
    ...[...prose.matchAll(/\b(?:src|href)\s*=\s*"([^"]+)"/g)].map((m) => m[1] ?? ''),
  ];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** The npm scripts, npx tools and repository paths a piece of code names. */
export function namedInCode(code: string, repo: Pick<RepoView, 'topLevel'>) {
  const scripts = new Set<string>();
  for (const m of code.matchAll(/\bnpm run ([\w-]+(?::[\w-]+)*)/g)) scripts.add(m[1] ?? '');
  for (const m of code.matchAll(/\bnpm (start|test)\b/g)) scripts.add(m[1] ?? '');
  const tools = new Set<string>();
  for (const m of code.matchAll(/\bnpx ([a-z0-9@][\w@/.-]*)/g)) tools.add(m[1] ?? '');
  const paths = new Set<string>();
  const tokens = code.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*/gi, ' ').split(/[\s`'"(),;=<>{}[\]|]+/);
  for (const raw of tokens) {
    const token = raw.replace(/[.,:…]+$/, '');
    if (!token.includes('/') || /^[/-]/.test(token) || /[*$…]/.test(token)) continue;
    if (!repo.topLevel.has(token.split('/')[0] ?? '')) continue;
    paths.add(token);
  }
  return { scripts, tools, paths };
}

/** Every stale command, path or link in one Markdown file (path relative to the root); empty when none. */
export function markdownProblems(file: string, repo: RepoView): string[] {
  const markdown = repo.read(file);
  const { code, prose } = splitMarkdown(markdown);
  const problems: string[] = [];
  for (const piece of code) {
    const named = namedInCode(piece, repo);
    for (const script of named.scripts) {
      if (!repo.scripts.has(script)) problems.push(`${file}: \`npm run ${script}\` is not a script in package.json`);
    }
    for (const tool of named.tools) {
      if (!repo.exists(`node_modules/.bin/${tool}`)) problems.push(`${file}: \`npx ${tool}\` is not an installed tool`);
    }
    for (const p of named.paths) {
      const bare = p.replace(/\/$/, '');
      if (!repo.generated.some((prefix) => `${bare}/`.startsWith(prefix)) && !repo.exists(bare)) {
        problems.push(`${file}: ${p} does not exist`);
      }
    }
  }
  const dir = path.posix.dirname(file);
  for (const link of relativeLinks(prose)) {
    const [target, anchor] = link.split('#', 2);
    const resolved = target ? path.posix.normalize(path.posix.join(dir, decodeURI(target))) : file;
    if (resolved.startsWith('..') || !repo.exists(resolved.replace(/\/$/, ''))) {
      problems.push(`${file}: the link ${link} leads nowhere`);
      continue;
    }
    if (anchor && resolved.endsWith('.md') && !headingAnchors(repo.read(resolved)).has(anchor)) {
      problems.push(`${file}: the link ${link} names no heading of ${resolved}`);
    }
  }
  return [...new Set(problems)];
}

/** Files a Markdown text links to, resolved relative to the root. */
export function linkedFiles(file: string, repo: RepoView): Set<string> {
  const dir = path.posix.dirname(file);
  return new Set(
    relativeLinks(splitMarkdown(repo.read(file)).prose)
      .map((link) => link.split('#')[0] ?? '')
      .filter(Boolean)
      .map((target) => path.posix.normalize(path.posix.join(dir, decodeURI(target)))),
  );
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How CI or a test runs an npm script, or undefined when nothing does: CI names it (or reaches it
 * through other scripts' `npm run`), it is a Vitest run itself, or a test beside its entry file runs
 * that file (or, for a thin entry, the one module it delegates to).
 */
export function howScriptIsRun(name: string, repo: RepoView, ciFile = '.ci/run'): string | undefined {
  const ci = repo.exists(ciFile) ? repo.read(ciFile) : '';
  const reached = new Set<string>();
  const queue = [...repo.scripts].filter((script) => new RegExp(`\\bnpm (?:run )?${escapeRegExp(script)}(?![\\w:-])`).test(ci));
  while (queue.length) {
    const script = queue.pop()!;
    if (reached.has(script)) continue;
    reached.add(script);
    for (const m of (repo.scriptCommands[script] ?? '').matchAll(/\bnpm run ([\w-]+(?::[\w-]+)*)/g)) queue.push(m[1] ?? '');
  }
  if (reached.has(name)) return `CI (${ciFile})`;
  const command = repo.scriptCommands[name] ?? '';
  if (/^vitest\b/.test(command)) return 'Vitest itself';
  const entry = /\btsx (\S+\.ts)\b/.exec(command)?.[1];
  if (!entry || !repo.exists(entry)) return undefined;
  const dir = path.posix.dirname(entry);
  const base = path.posix.basename(entry, '.ts');
  const tests = repo.list(dir).filter((file) => file.endsWith('.test.ts'));
  const testNaming = (marks: string[]) => tests.find((file) => marks.some((mark) => repo.read(`${dir}/${file}`).includes(mark)));
  // A thin entry (one relative import) counts as run when its one delegate is tested.
  const delegates = [...repo.read(entry).matchAll(/from '(\.\/[^']+)'/g)].map((m) => m[1] ?? '');
  const test = testNaming([`${base}.ts'`, `'./${base}'`]) ?? (delegates.length === 1 ? testNaming([`'${delegates[0]}'`]) : undefined);
  return test ? `${dir}/${test}` : undefined;
}

/** The npm scripts a Markdown file shows in its code. */
export function scriptsShown(file: string, repo: RepoView): Set<string> {
  const shown = new Set<string>();
  for (const piece of splitMarkdown(repo.read(file)).code) {
    for (const script of namedInCode(piece, repo).scripts) shown.add(script);
  }
  return shown;
}
