/**
 * Finds the places where a comment, a doc or a script names a file of this repository that is not
 * there: a comment that points at a file outlives the file's rename unless something reads it. A reference
 * is a path that starts with one of the repository's top-level folders, at the start of a word (so the
 * path part of a URL is not one), and it resolves the way an import does: as written, or with a
 * script's extension, or as a folder's index.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The folders a reference starts with. */
const TOP_FOLDERS = ['.github', '.ci', 'contract', 'docs', 'e2e', 'functions', 'infra', 'scripts', 'tools', 'web'];

/**
 * Paths a reference may name although no checkout has them: what a build or a run writes, and the
 * owner's content, whose files come and go with the owner (comments give examples of it).
 */
const NOT_CHECKED = ['web/build', 'web/content/', '.local/', 'cdk.out'];

/** The ways an import or a doc names a file without its extension. */
const RESOLUTIONS = ['', '.ts', '.tsx', '.js', '.mjs', '.json', '/index.ts'];

const REFERENCE = new RegExp(
  String.raw`(?<=^|[\s\`'"(\[<:,])(?:${TOP_FOLDERS.map((folder) => folder.replace('.', String.raw`\.`)).join('|')})/[A-Za-z0-9_.@/-]*[A-Za-z0-9_]`,
  'g',
);

/** A character after a path that makes it a pattern (a glob, a template) rather than one file's name. */
const PATTERN_CONTINUES = /^[\w.@/-]*[*{$<]/;

export interface DeadReference {
  file: string;
  line: number;
  reference: string;
}

/** The references in one text that name no file or folder under `root`. */
export function deadReferencesIn(file: string, text: string, exists: (relative: string) => boolean): DeadReference[] {
  const dead: DeadReference[] = [];
  text.split('\n').forEach((content, index) => {
    for (const match of content.matchAll(REFERENCE)) {
      const reference = match[0];
      const after = content.slice((match.index ?? 0) + reference.length);
      if (PATTERN_CONTINUES.test(after)) continue;
      if (NOT_CHECKED.some((prefix) => reference === prefix.replace(/\/$/, '') || reference.startsWith(prefix))) continue;
      if (RESOLUTIONS.some((ending) => exists(reference + ending))) continue;
      dead.push({ file, line: index + 1, reference });
    }
  });
  return dead;
}

/** Folders a copy without git holds that are not the project's own files (what .gitignore leaves out). */
const NOT_SOURCE = new Set(['node_modules', '.git', 'cdk.out', '.local', 'coverage', 'test-results', 'build']);

/** The project's files: git's list where there is one, else the tree without what a run writes (a copy made without git). */
function projectFiles(root: string): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\0')
      .filter(Boolean);
  } catch {
    const walk = (dir: string): string[] =>
      readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
        const relative = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory()) return NOT_SOURCE.has(entry.name) ? [] : walk(relative);
        return entry.isFile() ? [relative] : [];
      });
    return walk('');
  }
}

/**
 * Every dead reference in the repository's text files. Test files are left out: they name files that
 * do not exist on purpose (a missing page, a fixture's made-up module).
 */
export function deadReferences(root: string): DeadReference[] {
  const tracked = projectFiles(root);
  const texts = tracked.filter(
    (file) => /\.(?:[cm]?[jt]sx?|md|ya?ml|json|sh)$|^\.ci\/run$/.test(file) && !/\.test\.tsx?$/.test(file) && file !== 'package-lock.json',
  );
  const exists = (relative: string) => existsSync(path.join(root, relative));
  return texts.flatMap((file) =>
    existsSync(path.join(root, file)) ? deadReferencesIn(file, readFileSync(path.join(root, file), 'utf8'), exists) : [],
  );
}
