import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { npmStep, runSteps } from './test';
import { scratchDir } from '../tools/scratch';

/** A folder with a package.json whose scripts are `scripts`: npm steps run there for real. */
function project(scripts: Record<string, string>): string {
  const dir = scratchDir('test-steps-');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'steps', private: true, scripts }));
  return dir;
}

describe("npm test's steps, side by side", () => {
  it('runs them all at once and reports each as it ends', async () => {
    const dir = project({ a: 'node -e "setTimeout(() => {}, 1500)"', b: 'node -e "setTimeout(() => {}, 1500)"' });
    const lines: string[] = [];
    const started = Date.now();
    expect(await runSteps([npmStep('a', dir), npmStep('b', dir)], (text) => lines.push(text))).toBe(true);
    // One after another they would take 3 s and more.
    expect(Date.now() - started).toBeLessThan(2900);
    expect(lines.sort().map((line) => line.replace(/\(.*\)/, '(…)'))).toEqual(['✓ npm run a (…)\n', '✓ npm run b (…)\n']);
  });

  it('at the first failure prints its output whole, stops the others and fails', async () => {
    const dir = project({
      broken: "node -e \"console.log('first line'); console.error('src/a.ts(3,1): error TS2304'); process.exit(2)\"",
      slow: 'node -e "setTimeout(() => console.log(\'slow finished\'), 20000)"',
    });
    const lines: string[] = [];
    const started = Date.now();
    expect(await runSteps([npmStep('slow', dir), npmStep('broken', dir)], (text) => lines.push(text))).toBe(false);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^✗ npm run broken failed \(exit 2, [\d.]+ s\):\n/);
    expect(lines[0]).toContain('first line');
    expect(lines[0]).toContain('src/a.ts(3,1): error TS2304');
    expect(lines.join('')).not.toContain('slow');
  });
});
