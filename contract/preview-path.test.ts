import { describe, expect, it } from 'vitest';
import { basePathOf, PREVIEW_PATH_PATTERN, previewPath } from './preview-path';

describe("a preview's path", () => {
  it('is pr-N/<7 hex> for a pull request and a commit, and nothing else', () => {
    expect(previewPath(12, 'abc1234def')).toBe('pr-12/abc1234');
    expect(PREVIEW_PATH_PATTERN.test(previewPath(9_999_999, '0123456'))).toBe(true);
    expect(() => previewPath(10_000_000, '0123456')).toThrow(/pull request number/);
    expect(() => previewPath(1.5, '0123456')).toThrow(/pull request number/);
    expect(() => previewPath(3, 'abc12')).toThrow(/commit SHA/);
  });

  it("gives the build's base path: none for the live site, /pr-N/<sha> for a preview", () => {
    expect(basePathOf(undefined)).toBe('');
    expect(basePathOf('  ')).toBe('');
    expect(basePathOf('pr-12/abc1234')).toBe('/pr-12/abc1234');
    expect(basePathOf(' pr-12/abc1234\n')).toBe('/pr-12/abc1234');
  });

  it.each(['/pr-12/abc1234', 'pr-12/abc1234/', 'pr-12/ABC1234', 'pr-0/abc1234', 'pr-12/abc1234/x', 'pr-12/../abc1234', 'live', 'pr-12'])(
    'stops the build on %j, naming the variable and the form it takes',
    (value) => {
      expect(() => basePathOf(value)).toThrow(/^PREVIEW_PATH must be pr-N\/<7 hex digits of the commit> \(e\.g\. pr-12\/abc1234\), got "/);
    },
  );
});
