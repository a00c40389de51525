import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deployedSiteUrl } from './deployed-url';

const dir = mkdtempSync(path.join(os.tmpdir(), 'outputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (content: unknown) => {
  const f = path.join(dir, `${Math.random()}.json`);
  writeFileSync(f, JSON.stringify(content));
  return f;
};

describe('deployedSiteUrl', () => {
  it("takes the stack's own SiteUrl, else the only one in the file", () => {
    const both = file({ Portfolio: { SiteUrl: 'https://a.cloudfront.net' }, 'Portfolio-preview': { SiteUrl: 'https://b.cloudfront.net' } });
    expect(deployedSiteUrl(both, 'Portfolio')).toBe('https://a.cloudfront.net');
    expect(deployedSiteUrl(file({ PortfolioCert: {}, 'Portfolio-preview': { SiteUrl: 'https://b.dev' } }), 'Portfolio')).toBe('https://b.dev');
  });

  it('names the file when it cannot tell', () => {
    expect(() => deployedSiteUrl(file({ X: { SiteUrl: 'https://1' }, Y: { SiteUrl: 'https://2' } }), 'Z')).toThrow(/several SiteUrl outputs/);
    expect(() => deployedSiteUrl(file({}), 'Z')).toThrow(/no SiteUrl outputs/);
    expect(() => deployedSiteUrl(path.join(dir, 'missing.json'), 'Z')).toThrow(/cannot read the deploy outputs/);
  });
});
