import { describe, expect, it } from 'vitest';
import { robotsTxt } from '../routes/robots-txt';
import { sitemapXml } from '../routes/sitemap-xml';
import { indexablePaths, prerenderPaths } from '../prerender-paths';
import { pageMeta, previewImagePath, resolveSiteUrl, siteUrl } from './seo';
import { encodePath } from '../../../contract/site-routes';
import { site } from '../../content/site';
import { english } from '../../test/render';

describe('resolveSiteUrl', () => {
  it('prefers the VITE_SITE_URL override and drops trailing slashes', () => {
    expect(resolveSiteUrl('https://staging.example.org/', 'https://example.com')).toBe('https://staging.example.org');
    expect(resolveSiteUrl('  ', 'https://example.com/')).toBe('https://example.com');
    expect(resolveSiteUrl(undefined, 'https://example.com/base/')).toBe('https://example.com/base');
    expect(resolveSiteUrl(undefined, '')).toBe('');
  });

  it.each(['example.com', 'ftp://example.com', 'https://example.com/?a=1', 'https://example.com/#top'])(
    'rejects %s with a clear message',
    (bad) => {
      expect(() => resolveSiteUrl(bad, '')).toThrow(/Site URL/);
    },
  );
});

describe('pageMeta', () => {
  it('gives a title, description, OpenGraph tags with absolute URLs and a canonical link', () => {
    const tags = pageMeta({ title: 'Blogs', description: 'Articles.', path: '/blogs', bundle: english });
    expect(tags).toContainEqual({ title: `Blogs | ${site.name}` });
    expect(tags).toContainEqual({ name: 'description', content: 'Articles.' });
    expect(tags).toContainEqual({ property: 'og:title', content: `Blogs | ${site.name}` });
    expect(tags).toContainEqual({ property: 'og:description', content: 'Articles.' });
    expect(tags).toContainEqual({ property: 'og:type', content: 'website' });
    expect(tags).toContainEqual({ property: 'og:url', content: `${siteUrl}/blogs` });
    expect(tags).toContainEqual({ property: 'og:image', content: `${siteUrl}/og/blogs.png` });
    expect(tags).toContainEqual({ name: 'twitter:image', content: `${siteUrl}/og/blogs.png` });
    expect(tags).toContainEqual({ property: 'og:image:width', content: '1200' });
    expect(tags).toContainEqual({ property: 'og:image:height', content: '630' });
    expect(tags).toContainEqual({
      property: 'og:image:alt',
      content: expect.stringMatching(new RegExp(`^Blogs: ${site.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, `)),
    });
    expect(tags).toContainEqual({
      name: 'twitter:image:alt',
      content: expect.stringMatching(new RegExp(`^Blogs: ${site.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, `)),
    });
    expect(tags).toContainEqual({ tagName: 'link', rel: 'canonical', href: `${siteUrl}/blogs` });
    expect(tags).not.toContainEqual(expect.objectContaining({ name: 'robots' }));
  });

  it('marks utility pages noindex and gives them no canonical link', () => {
    const tags = pageMeta({ title: 'x', description: 'y', path: '/error', noindex: true, bundle: english });
    expect(tags).toContainEqual({ name: 'robots', content: 'noindex' });
    expect(tags).not.toContainEqual(expect.objectContaining({ rel: 'canonical' }));
  });
});

describe('prerender paths, sitemap and robots', () => {
  it('prerenders every route and every project', () => {
    expect(prerenderPaths()).toEqual(
      expect.arrayContaining([
        '/',
        '/home',
        '/projects',
        '/projects/1',
        '/projects/5',
        '/blogs',
        '/contact',
        '/about',
        '/error',
        '/privacy-policy',
        '/robots.txt',
        '/sitemap.xml',
      ]),
    );
    expect(new Set(prerenderPaths()).size).toBe(prerenderPaths().length);
  });

  it('lists the indexable pages in the sitemap, and not the redirect or /error', () => {
    const xml = sitemapXml();
    for (const path of indexablePaths()) expect(xml).toContain(`<loc>${siteUrl}${path}</loc>`);
    expect(xml).not.toContain('/error<');
    expect(xml).not.toContain(`<loc>${siteUrl}/</loc>`);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });

  it('escapes XML special characters in addresses', () => {
    expect(sitemapXml(['/a&b'])).toContain('/a&#38;b</loc>');
  });

  it('writes a tag of any script percent-encoded, in the sitemap, canonical links and preview images', () => {
    const xml = sitemapXml(
      [],
      ['en', 'es'],
      [],
      [
        { locale: 'en', tag: 'הערות' },
        { locale: 'es', tag: 'café-crème' },
        { locale: 'es', tag: 'ملاحظات' },
      ],
    );
    expect(xml).toContain(`/blogs/tags/${encodeURIComponent('הערות')}</loc>`);
    expect(xml).toContain(`/es/blogs/tags/caf%C3%A9-cr%C3%A8me</loc>`);
    expect(xml).toContain(`/es/blogs/tags/${encodeURIComponent('ملاحظات')}</loc>`);
    expect(xml).not.toMatch(/[^ -~\n]/);
    const tags = pageMeta({ title: 'הערות', description: 'D', path: '/blogs/tags/הערות', bundle: english });
    expect(tags).toContainEqual(
      expect.objectContaining({ rel: 'canonical', href: expect.stringMatching(new RegExp(`/blogs/tags/${encodeURIComponent('הערות')}$`)) }),
    );
    // Two tags of a script without case get two preview images, addressed encoded.
    expect(previewImagePath('/blogs/tags/הערות')).toBe('/og/blogs-tags-הערות.png');
    expect(previewImagePath('/blogs/tags/ملاحظات')).not.toBe(previewImagePath('/blogs/tags/הערות'));
    expect(tags).toContainEqual({
      property: 'og:image',
      content: expect.stringMatching(new RegExp(`/og/blogs-tags-${encodeURIComponent('הערות')}\\.png$`)),
    });
    // What is encoded already stays as it is.
    expect(encodePath('/blogs/tags/%D7%94 x')).toBe('/blogs/tags/%D7%94%20x');
  });

  it('points robots.txt at the sitemap and keeps crawlers off the API', () => {
    const text = robotsTxt();
    expect(text).toContain('User-agent: *');
    expect(text).toContain('Disallow: /api/');
    expect(text).toContain(`Sitemap: ${siteUrl}/sitemap.xml`);
  });
});
