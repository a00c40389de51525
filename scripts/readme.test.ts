import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  headingAnchors,
  howScriptIsRun,
  linkedFiles,
  markdownProblems,
  repoView,
  scriptsShown,
  splitMarkdown,
  type RepoView,
} from './readme-check';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repo = repoView(ROOT);
/** The README is the front door: what a newcomer reads in five minutes, everything else one link away. */
const README_MAX_LINES = 200;
const DOCS = readdirSync(path.join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const MARKDOWN = ['README.md', ...DOCS, 'web/content/README.md'];

describe('README and docs', () => {
  it.each(MARKDOWN)('%s shows only scripts, tools, paths and links that exist', (file) => {
    expect(markdownProblems(file, repo)).toEqual([]);
  });

  it(`README.md is at most ${README_MAX_LINES} lines`, () => {
    const lines = repo.read('README.md').replace(/\n$/, '').split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('README.md links every document in docs/', () => {
    expect(DOCS.length).toBeGreaterThan(0);
    const linked = linkedFiles('README.md', repo);
    expect(DOCS.filter((doc) => !linked.has(doc))).toEqual([]);
  });

  it('every npm script README.md shows is run by CI or by a test', () => {
    const shown = [...scriptsShown('README.md', repo)];
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.filter((script) => !howScriptIsRun(script, repo))).toEqual([]);
  });

  it('README.md shows how to install, run and test', () => {
    const code = splitMarkdown(repo.read('README.md')).code.join('\n');
    for (const command of ['npm install', 'npm start', 'npm test']) expect(code).toContain(command);
  });
});

describe('the checker', () => {
  const files: Record<string, string> = {
    'README.md': [
      '# Title',
      '## Run it',
      '```sh',
      'npm install && npm start',
      'npm run test: not a script name but sample output',
      'npm run nope -- --flag',
      'npx tsx scripts/missing.ts',
      'npx not-a-tool',
      '```',
      'See `web/build/client` and `web/build` (generated), `npm run bench:api`,, `infra/local/` and `infra/gone.ts`, http://127.0.0.1:8080/x/y.',
      '[ok](docs/a.md#the-post-apievents-route) [bad anchor](docs/a.md#nowhere) [missing](docs/b.md)',
      '<img alt="x" src="docs/shot.png"> [web](https://example.com/a/b) [self](#run-it)',
      '`[not a link](docs/c.md)`',
    ].join('\n'),
    'docs/a.md': '# A\n\n## The `POST /api/events` route\n\n[back](../README.md#title)\n',
  };
  const fake: RepoView = {
    scripts: new Set(['start', 'test', 'bench:api']),
    scriptCommands: {},
    list: () => [],
    exists: (p) => p in files || ['infra', 'infra/local', 'scripts', 'docs', 'node_modules/.bin/tsx'].includes(p),
    read: (p) => files[p] ?? '',
    topLevel: new Set(['infra', 'scripts', 'docs', 'web']),
    generated: ['web/build/'],
  };

  it('names each stale script, tool, path and link, and nothing else', () => {
    expect(markdownProblems('README.md', fake).sort()).toEqual(
      [
        'README.md: `npm run nope` is not a script in package.json',
        'README.md: `npx not-a-tool` is not an installed tool',
        'README.md: scripts/missing.ts does not exist',
        'README.md: infra/gone.ts does not exist',
        'README.md: docs/c.md does not exist',
        'README.md: the link docs/a.md#nowhere names no heading of docs/a.md',
        'README.md: the link docs/b.md leads nowhere',
        'README.md: the link docs/shot.png leads nowhere',
      ].sort(),
    );
    expect(markdownProblems('docs/a.md', fake)).toEqual([]);
  });

  it('makes GitHub anchors from headings', () => {
    expect([...headingAnchors('# A\n## 8. Check it: `npm run smoke`\n## Run it\n## Run it\n```\n# not one\n```\n')]).toEqual([
      'a',
      '8-check-it-npm-run-smoke',
      'run-it',
      'run-it-1',
    ]);
  });

  it('finds how a script is run: CI and what it calls, Vitest, a test beside its entry', () => {
    const project: Record<string, string> = {
      '.ci/run': 'npm ci\nnpm test\n',
      'tools/a.ts': "import { go } from './a-core';\n",
      'tools/a-core.test.ts': "import { go } from './a-core';\n",
      'tools/b.ts': "import { go } from './b-core';\nimport { a } from './other';\n",
      'tools/b-other.test.ts': "import { x } from './other';\n",
      'tools/c.ts': '',
      'tools/c.test.ts': "spawn(tsx, [join(dir, 'c.ts')])\n",
    };
    const commands: Record<string, string> = {
      test: 'npm run lint && vitest run',
      lint: 'eslint .',
      unit: 'vitest run --project node',
      a: 'tsx tools/a.ts',
      b: 'tsx tools/b.ts',
      c: 'npm run lint && tsx tools/c.ts',
      testing: 'tsx tools/missing.ts',
    };
    const view: RepoView = {
      scripts: new Set(Object.keys(commands)),
      scriptCommands: commands,
      list: (dir) =>
        Object.keys(project)
          .filter((f) => path.posix.dirname(f) === dir)
          .map((f) => path.posix.basename(f)),
      exists: (p) => p in project,
      read: (p) => project[p] ?? '',
      topLevel: new Set(['tools']),
      generated: [],
    };
    expect(Object.fromEntries(Object.keys(commands).map((name) => [name, howScriptIsRun(name, view)]))).toEqual({
      test: 'CI (.ci/run)',
      lint: 'CI (.ci/run)',
      unit: 'Vitest itself',
      a: 'tools/a-core.test.ts',
      b: undefined,
      c: 'tools/c.test.ts',
      testing: undefined,
    });
  });
});
