// @vitest-environment node
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue as spanish } from '../../content/es';
import { pages } from '../../content/pages';
import { site } from '../../content/site';
import { ui } from '../../content/ui';
import { siteUrl } from '../layout/site-url';
import { pagesOfEveryLocale, prerenderPaths } from '../prerender-paths';
import { loader as ogPng } from '../routes/og-png';
import { shorten } from './card';
import { previewOfPage } from './page-preview.server';
import { renderPreview } from './render.server';
import { fontFiles, missingGlyphs, placeLine, runsOf, wrap } from './rtl.server';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const HOST = siteUrl ? new URL(siteUrl).host : '';

describe("a page's preview, from the page's own data", () => {
  it('takes the image path, page title, description and host', async () => {
    expect(await previewOfPage('/blogs')).toEqual({
      image: '/og/blogs.png',
      kicker: '',
      title: ui.menu.Blogs,
      description: pages.blogs.description,
      host: HOST,
      name: site.name,
      role: site.role,
    });
    expect((await previewOfPage('/projects/4')).kicker).toBe('Project');
  });

  it('draws a page in its own language', async () => {
    const preview = await previewOfPage('/es/home');
    expect(preview).toMatchObject({
      image: '/og/es-home.png',
      title: spanish.pages.home.headline,
      kicker: 'Portafolio',
      role: spanish.site.role,
    });
    expect((await previewOfPage('/es/projects/4')).kicker).toBe('Proyecto');
  });

  it('leads the home preview with the home headline', async () => {
    expect((await previewOfPage('/home')).title).toBe(pages.home.headline);
  });

  it('is left to right on a left-to-right page', async () => {
    expect(await previewOfPage('/blogs')).not.toHaveProperty('dir');
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
    const png = await renderPreview({
      image: '/og/x.png',
      kicker: 'Project',
      title: 'T',
      description: 'D',
      host: 'h',
      name: 'A B',
      role: 'R',
    });
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
  });

  it('is prerendered once per page, and the route draws the image a page names (none for any other name)', async () => {
    const images = prerenderPaths().filter((p) => p.startsWith('/og/'));
    expect(images).toHaveLength(pagesOfEveryLocale().length);
    expect(new Set(images).size).toBe(images.length);
    const response = await ogPng({ params: { image: 'blogs.png' } });
    expect(response.headers.get('Content-Type')).toBe('image/png');
    expect(pngSize(Buffer.from(await response.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
    expect((await ogPng({ params: { image: 'nothing-here.png' } })).status).toBe(404);
  });
});

describe('a right-to-left page', () => {
  const arabic = 'أبني تطبيقات ويب سريعة وسهلة الوصول، والخدمات السحابية التي تشغّلها.';
  const hebrew = 'מנהל הזמנות למלונות עם לוח זמינות בזמן אמת ״צ׳יפס״';
  const persianUrdu = 'پروژه‌های چگونه ژرف گیک ےںہ';

  it('draws a 1200×630 mirrored card', async () => {
    const preview = {
      image: '/og/ar-about.png',
      kicker: '',
      title: arabic,
      description: hebrew,
      host: 'me.example.org',
      name: 'Alex Example',
      role: 'مطوّر full stack · React وAWS',
      dir: 'rtl' as const,
    };
    const png = await renderPreview(preview);
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
