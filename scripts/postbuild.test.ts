import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { CLOUDFRONT_CSP_MAX_CHARS, inlineScripts, removeResourceRouteData, scriptHash, writeCspHashes } from './postbuild';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function build(pages: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'postbuild-'));
  dirs.push(dir);
  for (const [name, html] of Object.entries(pages)) {
    const file = path.join(dir, 'client', name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, html);
  }
  return dir;
}

describe('inlineScripts', () => {
  it('takes executable inline scripts, byte for byte, and skips external scripts and data blocks', () => {
    const html = [
      '<script>a()</script>',
      '<script type="module">import "/x.js";\n</script>',
      '<SCRIPT type=text/javascript>b()</SCRIPT >',
      '<script src="/assets/x.js"></script>',
      "<script async src='/y.js'></script>",
      '<script type="application/json">{"data":1}</script>',
      '<script type="application/ld+json">{}</script>',
      '<script id="_R_">c()</script>',
      '<script>\r\nd()\r</script>',
    ].join('');
    expect(inlineScripts(html)).toEqual(['a()', 'import "/x.js";\n', 'b()', 'c()', '\nd()\n']);
  });

  it('hashes as the browser does (sha256 of the UTF-8 text, base64)', () => {
    expect(scriptHash('alert(1)')).toBe(`sha256-${createHash('sha256').update('alert(1)').digest('base64')}`);
    // The CSP spec's own example value for "alert('Hello, world.');".
    expect(scriptHash("alert('Hello, world.');")).toBe('sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng=');
  });
});

describe('writeCspHashes', () => {
  it('writes sorted, unique hashes of every page (nested too) next to client/', () => {
    const dir = build({
      'index.html': '<script>same()</script><script>one()</script>',
      'projects/3/index.html': '<script>same()</script><script>three()</script>',
      '__spa-fallback.html': '<script>same()</script>',
      'assets/not-html.js': '<script>ignored()</script>',
    });
    const result = writeCspHashes(dir);
    const expected = ['same()', 'one()', 'three()'].map(scriptHash).sort();
    expect(result.hashes).toEqual(expected);
    expect(result.files).toBe(3);
    expect(JSON.parse(readFileSync(path.join(dir, 'csp-hashes.json'), 'utf8'))).toEqual({ scriptHashes: expected });
  });

  it('fails with a clear message when the CSP would exceed CloudFront’s limit', () => {
    const pages: Record<string, string> = {};
    for (let i = 0; i < 40; i++) pages[`p${i}/index.html`] = `<script>page(${i})</script>`;
    const dir = build(pages);
    expect(() => writeCspHashes(dir)).toThrow(new RegExp(`over CloudFront's limit of ${CLOUDFRONT_CSP_MAX_CHARS}.*40 distinct inline scripts`));
  });

  it('fails when there is no HTML at all', () => {
    const dir = build({ 'assets/x.js': '' });
    expect(() => writeCspHashes(dir)).toThrow(/No HTML file/);
  });
});

describe('removeResourceRouteData', () => {
  it('removes the single-fetch copies of robots.txt and sitemap.xml, and keeps page payloads', () => {
    const dir = build({
      'robots.txt': 'User-agent: *',
      'robots.txt.data': '[]',
      'sitemap.xml': '<urlset/>',
      'sitemap.xml.data': '[]',
      'home.data': '[]',
      'home/index.html': '<p>home</p>',
      'orphan.txt.data': '[]',
    });
    const client = path.join(dir, 'client');
    expect(removeResourceRouteData(client).sort()).toEqual(['robots.txt.data', 'sitemap.xml.data']);
    expect(existsSync(path.join(client, 'robots.txt'))).toBe(true);
    expect(existsSync(path.join(client, 'robots.txt.data'))).toBe(false);
    expect(existsSync(path.join(client, 'home.data'))).toBe(true);
    expect(existsSync(path.join(client, 'orphan.txt.data'))).toBe(true);
  });
});
