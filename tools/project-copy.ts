/**
 * A copy of the project that builds on its own (the configs, the site, the contract it imports, the
 * post-build scripts; node_modules linked), for tests that build content the shipped site does not have
 * (scripts/posts-build.test.ts, e2e/posts.test.ts). Imports nothing of the project.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What `npm run build` (and `npm start`'s build step) reads. */
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
  'web/content',
  'web/public',
  'scripts/quiet-build.ts',
  'scripts/postbuild.ts',
  'scripts/post-images.ts',
  'scripts/og-images.ts',
  'scripts/og-rtl.ts',
  'scripts/woff.ts',
];

/** The fixture posts (every feature of the Markdown pipeline), laid out as web/content holds posts. */
export const POST_FIXTURE = path.join(REPO, 'web/test/fixtures/posts');

export interface ProjectCopy {
  dir: string;
  /** `npm run build` in the copy, with a plain shell's environment (no test runner's variables). */
  build(): Promise<{ code: number; output: string }>;
  remove(): void;
}

/** Copies what the build reads into `copy` (an empty folder), sharing the project's node_modules. */
export function makeCopy(copy: string): void {
  for (const input of BUILD_INPUTS) {
    mkdirSync(path.dirname(path.join(copy, input)), { recursive: true });
    cpSync(path.join(REPO, input), path.join(copy, input), { recursive: true, filter: (source) => !source.includes(`${path.sep}build${path.sep}`) });
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
}

/** Copies the project to a temporary folder, then `extraContent` (a folder) over its web/content. */
export function copyProject(prefix: string, extraContent?: string): ProjectCopy {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  makeCopy(dir);
  if (extraContent) cpSync(extraContent, path.join(dir, 'web/content'), { recursive: true });
  return {
    dir,
    build: () => {
      const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: dir };
      for (const name of Object.keys(env)) if (name === 'NODE_ENV' || name.startsWith('VITEST') || name.startsWith('VITE_')) delete env[name];
      return new Promise((resolve, reject) => {
        const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code: code ?? 1, output }));
      });
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
