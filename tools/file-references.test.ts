import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deadReferences, deadReferencesIn } from './file-references';
import { scratchDir } from './scratch';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('deadReferencesIn', () => {
  const files = new Set(['infra/lib/stack.ts', 'web/app/root.tsx', 'functions/contact/index.ts', 'docs/deploy.md']);
  const exists = (relative: string) => files.has(relative);
  const dead = (text: string) => deadReferencesIn('x.ts', text, exists).map((found) => found.reference);

  it('names a path that is not there, with its line', () => {
    expect(deadReferencesIn('a.md', 'intro\nsee infra/lib/gone.ts for why', exists)).toEqual([
      { file: 'a.md', line: 2, reference: 'infra/lib/gone.ts' },
    ]);
  });

  it('resolves a path as an import does: as written, with an extension, or as a folder index', () => {
    expect(dead('// infra/lib/stack.ts, (web/app/root), `functions/contact`, [deploy](docs/deploy.md)')).toEqual([]);
    expect(dead("import x from 'infra/lib/stacks';")).toEqual(['infra/lib/stacks']);
  });

  it('leaves URLs, globs, templates and what a build writes alone', () => {
    expect(dead('https://developers.google.com/recaptcha/docs/verify')).toEqual([]);
    expect(dead("'scripts/posts-*.test.ts' and `web/content/${locale}` and web/build/client")).toEqual([]);
    expect(dead('the owner writes web/content/posts/hello.md')).toEqual([]);
  });
});

describe('the repository', () => {
  it('names no file in a comment, doc or script that is not there', () => {
    expect(deadReferences(ROOT)).toEqual([]);
  });
});

describe('a copy of the project without git (an owner who downloaded it)', () => {
  it('reads the tree itself, leaving out what a run writes', () => {
    const copy = scratchDir('file-references-');
    mkdirSync(path.join(copy, 'docs'));
    mkdirSync(path.join(copy, 'node_modules/pkg'), { recursive: true });
    writeFileSync(path.join(copy, 'docs/a.md'), 'see docs/gone.md and docs/a.md\n');
    writeFileSync(path.join(copy, 'node_modules/pkg/readme.md'), 'see docs/also-gone.md\n');
    expect(deadReferences(copy)).toEqual([{ file: 'docs/a.md', line: 1, reference: 'docs/gone.md' }]);
  });
});
