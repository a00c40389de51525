// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { escapeXml } from './xml';

describe('escapeXml', () => {
  it('turns the five characters XML reads into references, and leaves every other letter as it is', () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;Tom &#38; Jerry&#39;s&#60;/a&#62;');
    expect(escapeXml('הערות ملاحظات é')).toBe('הערות ملاحظات é');
  });
});
