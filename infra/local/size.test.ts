/**
 * infra/local stays small: at most 800 lines of code in its non-test .ts files. A line of code is a
 * line that holds part of a token (comments, JSDoc and blank lines do not count; every line of a
 * multi-line string or template does), as TypeScript's parser reads the file. test-support.ts is
 * the tests' own fixture code, so it does not count, and a test checks that only tests import it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// 700 until the pull-request previews' stand-in (preview-cdn.ts, about 80 lines) joined the CDN's; 800
// until the code was formatted (Prettier, 140 columns): the same code then counted 830 lines, not 793.
const BUDGET = 840;
const DIR = import.meta.dirname;

function linesOfCode(name: string, text: string): number {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const lines = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(file);
    if (children.length > 0) return children.forEach(visit);
    if (node.kind === ts.SyntaxKind.EndOfFileToken) return;
    const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
    const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
    for (let line = first; line <= last; line++) lines.add(line);
  };
  visit(file);
  return lines.size;
}

const TEST_SUPPORT = 'test-support.ts';

describe('infra/local size', () => {
  it('leaves out test-support.ts only because nothing but tests imports it', () => {
    const importers = readdirSync(DIR).filter(
      (name) =>
        name.endsWith('.ts') && !name.endsWith('.test.ts') && /from '\.\/test-support'/.test(readFileSync(path.join(DIR, name), 'utf8')),
    );
    expect(importers).toEqual([]);
  });

  it('counts code lines, not comments or blank lines', () => {
    const text = '/** Doc\n * more */\nconst a = 1; // note\n\n/* block\n comment */\nconst b = `x\ny`;\n';
    expect(linesOfCode('x.ts', text)).toBe(3);
  });

  it(`has at most ${BUDGET} lines of code outside its tests`, () => {
    const files = readdirSync(DIR).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== TEST_SUPPORT);
    const counts = Object.fromEntries(files.map((name) => [name, linesOfCode(name, readFileSync(path.join(DIR, name), 'utf8'))]));
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    expect(total, JSON.stringify(counts, null, 1)).toBeLessThanOrEqual(BUDGET);
  });
});
