import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue as spanish } from '../web/content/es';
import { pages } from '../web/content/pages';
import { site } from '../web/content/site';
import { metaContent, pageLanguage, previewOf, renderPreview, shorten, writePreviews } from './og-images';
import { fontFiles, missingGlyphs, placeLine, runsOf, wrap } from './og-rtl';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function page(title: string, image: string, description = 'A page.'): string {
  return (
    '<!DOCTYPE html><html><head>' +
    `<meta property="og:title" content="${title}"/><meta property="og:description" content="${description}"/>` +
    `<meta property="og:url" content="https://me.example.org/x"/><meta property="og:image" content="${image}"/>` +
    '</head><body></body></html>'
  );
}

describe('reading a prerendered page', () => {
  it('decodes the meta values React wrote', () => {
    expect(metaContent('<meta property="og:title" content="A &amp; B &quot;C&quot; &#x27;D&#x27;"/>', 'og:title')).toBe(
      `A & B "C" 'D'`,
    );
    expect(metaContent('<meta name="twitter:card" content="x"/>', 'og:title')).toBeUndefined();
  });

  it('takes the image path, page title, description and host', () => {
    expect(previewOf(page('Blogs | Alex Example', 'https://me.example.org/og/blogs.png', 'Articles.'))).toEqual({
      image: '/og/blogs.png',
      kicker: '',
      title: 'Blogs',
      description: 'Articles.',
      host: 'me.example.org',
      name: 'Alex Example',
      role: site.role,
    });
    expect(previewOf(page('Dining Tracker | Alex Example', '/og/projects-4.png'))?.kicker).toBe('Project');
  });

  it('draws a page in its own language', () => {
    const html = page('Alex Example | x', '/og/es-home.png').replace('<html>', '<html lang="es">');
    expect(pageLanguage(html)).toBe('es');
    const preview = previewOf(html, spanish);
    expect(preview).toMatchObject({ title: spanish.pages.home.headline, kicker: 'Portafolio', role: spanish.site.role });
    expect(previewOf(page('Rastreador | Alex Example', '/og/es-projects-4.png'), spanish)?.kicker).toBe('Proyecto');
  });

  it('leads the home preview with the home headline', () => {
    expect(previewOf(page('Alex Example | Full Stack Developer', '/og/home.png'))?.title).toBe(pages.home.headline);
  });

  it('ignores pages without an image of ours', () => {
    expect(previewOf('<html><head></head></html>')).toBeUndefined();
    expect(previewOf(page('X | Alex Example', 'https://cdn.example.com/other.jpg'))).toBeUndefined();
  });
});

it('shortens long text at a word boundary', () => {
  expect(shorten('short', 10)).toBe('short');
  const long = shorten('one two three four five six seven', 20);
  expect(long.length).toBeLessThanOrEqual(20);
  expect(long).toMatch(/^one two three four…$/);
});

describe('rendering', () => {
  it('draws a 1200×630 PNG', async () => {
    const png = await renderPreview({ image: '/og/x.png', kicker: 'Project', title: 'T', description: 'D', host: 'h', name: 'A B', role: 'R' });
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
  });

  it('writes one image per referenced path, once, and fails on a build without pages', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'og-'));
    await expect(writePreviews(dir)).rejects.toThrow(/No HTML file/);
    mkdirSync(path.join(dir, 'blogs'));
    writeFileSync(path.join(dir, 'blogs', 'index.html'), page('Blogs | Alex Example', '/og/blogs.png'));
    writeFileSync(path.join(dir, 'blogs.html'), page('Blogs | Alex Example', '/og/blogs.png'));
    writeFileSync(path.join(dir, 'error.html'), page('Error | Alex Example', '/og/error.png'));
    expect(await writePreviews(dir)).toEqual(['/og/blogs.png', '/og/error.png']);
    expect(pngSize(readFileSync(path.join(dir, 'og', 'blogs.png')))).toEqual({ width: 1200, height: 630 });
  });
});

describe('a right-to-left page', () => {
  const arabic = 'أبني تطبيقات ويب سريعة وسهلة الوصول، والخدمات السحابية التي تشغّلها.';
  const hebrew = 'מנהל הזמנות למלונות עם לוח זמינות בזמן אמת ״צ׳יפס״';
  const persianUrdu = 'پروژه‌های چگونه ژرف گیک ےںہ';

  it('reads the direction from the page and draws a 1200×630 card', async () => {
    const html = page(`${arabic} | Alex Example`, '/og/ar-about.png').replace('<html>', '<html lang="ar" dir="rtl">');
    const preview = previewOf(html);
    expect(preview?.dir).toBe('rtl');
    expect(previewOf(page('Blogs | Alex Example', '/og/blogs.png'))).not.toHaveProperty('dir');
    const png = await renderPreview({ ...preview!, description: hebrew, role: 'مطوّر full stack · React وAWS' });
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
  });

  it('has a glyph for every letter of Arabic, Hebrew, Persian and Urdu text (and the check sees them missing from Inter)', () => {
    expect(missingGlyphs(`${arabic} ${hebrew} ${persianUrdu} React AWS 2026`)).toEqual([]);
    const interOnly = fontFiles().filter((file) => path.basename(file).startsWith('inter-'));
    const missing = missingGlyphs(`${arabic} ${hebrew}`, interOnly);
    expect(missing).toContain('ب');
    expect(missing).toContain('מ');
    expect(missingGlyphs('React AWS', interOnly)).toEqual([]);
  });

  it('lays a line out from the right: words in reading order leftwards, a Latin stretch in its own order, punctuation where a reader expects it', () => {
    const line = placeLine('مرحبا React Router عالم، AWS.', 1000, 40, 400);
    expect(line.map((run) => run.text)).toEqual(['مرحبا', 'React Router', 'عالم', '،', 'AWS', '.']);
    expect(line[0]!.x).toBe(1000);
    for (let i = 1; i < line.length; i++) expect(line[i]!.x, line[i]!.text).toBeLessThan(line[i - 1]!.x);
    expect(runsOf('مطوّر full stack · React وAWS').runs.map((run) => run.text)).toEqual(['مطوّر', 'full stack · React', 'و', 'AWS']);
  });

  it('wraps long text into lines that fit, the last shortened', () => {
    const lines = wrap(`${arabic} ${arabic} ${arabic}`, 1056, 58, 800, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
  });
});
