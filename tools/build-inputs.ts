/**
 * What the build reads: the list the build tests copy into a project of their own (project-copy.ts)
 * and `npm start` fingerprints to skip a build whose inputs have not changed (scripts/quiet-build.ts).
 * Imports nothing of the project.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** What `npm run build` (and `npm start`'s build step) reads, relative to the checkout, besides node_modules. */
export const BUILD_INPUTS = [
  'package.json',
  'react-router.config.ts',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.web.json',
  'tsconfig.web-test.json',
  'tsconfig.node.json',
  'tsconfig.e2e.json',
  'contract',
  'infra/shared',
  'web/app',
  'web/boot',
  'web/content',
  'web/public',
  'scripts/build.ts',
  'scripts/quiet-build.ts',
  'scripts/last-good-build.ts',
  'tools/build-inputs.ts',
  'scripts/post-files.ts',
  'scripts/postbuild.ts',
  'scripts/search-index.ts',
];

/** What a build's result depends on besides BUILD_INPUTS: the dependencies' versions. */
export const LOCK_FILE = 'package-lock.json';

/** sha256 over every file of `inputs` (relative to `root`, a folder's `build/` left out), in a stable order, with their paths. */
export function hashFiles(inputs: readonly string[], root: string): string {
  const hash = createHash('sha256').update(process.version);
  const add = (relative: string) => {
    const full = path.join(root, relative);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const entry of readdirSync(full).sort()) if (entry !== 'build') add(path.join(relative, entry));
      return;
    }
    hash.update(`\0${relative}\0`).update(readFileSync(full));
  };
  for (const input of inputs) add(input);
  return hash.digest('hex').slice(0, 16);
}
