import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { headingAnchors, linkedFiles, markdownProblems, repoView, splitMarkdown, type RepoView } from './readme-check';

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
});
