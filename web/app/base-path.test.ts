// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { withoutBase } from './base-path';

describe('withoutBase (what a loader reads of its request path)', () => {
  it("takes a preview's base off, so /pr-12/abc1234/es/… is a Spanish page", () => {
    expect(withoutBase('/pr-12/abc1234/es/blogs/tags/%D9%85', '/pr-12/abc1234')).toBe('/es/blogs/tags/%D9%85');
    expect(withoutBase('/pr-12/abc1234', '/pr-12/abc1234')).toBe('/');
    expect(withoutBase('/pr-12/abc1234/home.data', '/pr-12/abc1234')).toBe('/home.data');
  });

  it('leaves a path outside the base, or any path on the live site, as it is', () => {
    expect(withoutBase('/pr-12/abc12345/es/home', '/pr-12/abc1234')).toBe('/pr-12/abc12345/es/home');
    expect(withoutBase('/es/home', '')).toBe('/es/home');
  });
});
