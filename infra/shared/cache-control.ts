/**
 * Cache-Control per kind of object, one rule for the S3 upload (CDK BucketDeployment metadata)
 * and the local server.
 */

/** Content-hashed build output: a new file name on every change, so it can be cached forever. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * Pages and their data (`/contact.data`: a page's build-time loader data, fetched on client
 * navigations): always revalidated (cheap 304 with the ETag), so a deploy shows at once and a page
 * never meets another deploy's data.
 */
export const CACHE_REVALIDATE = 'public, max-age=0, must-revalidate';
/**
 * Everything else keeps its name across deploys (videos, images, robots.txt, sitemap.xml, manifest,
 * favicon): a day in browsers bounds how long an old copy lives; the deploy's invalidation clears
 * the CDN at once.
 */
export const CACHE_ONE_DAY = 'public, max-age=86400';

/** `key` is an object key or URL path, with or without the leading slash ('assets/x.js', '/home/index.html'). */
export function cacheControlFor(key: string): string {
  const normalized = key.replace(/^\/+/, '');
  if (normalized.startsWith('assets/')) return CACHE_IMMUTABLE;
  if (/\.(?:html?|data)$/i.test(normalized)) return CACHE_REVALIDATE;
  return CACHE_ONE_DAY;
}
