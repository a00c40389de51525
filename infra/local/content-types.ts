/** Content types by extension (what the S3 upload sets), and which of them the CDN compresses. */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.ogv': 'video/ogg',
  '.vtt': 'text/vtt; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.pdf': 'application/pdf',
  '.wasm': 'application/wasm',
};

/** S3's type for an object uploaded without one. */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export function contentTypeFor(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return (dot === -1 ? undefined : TYPES[fileName.slice(dot).toLowerCase()]) ?? DEFAULT_CONTENT_TYPE;
}

/**
 * CloudFront compresses text-like types (already-compressed media and fonts like woff2 gain
 * nothing) between 1,000 bytes and 10,000,000 bytes.
 */
export const COMPRESS_MIN_BYTES = 1000;
export const COMPRESS_MAX_BYTES = 10_000_000;

export function isCompressible(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim();
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type === 'application/manifest+json' ||
    type === 'application/xml' ||
    type === 'image/svg+xml' ||
    type === 'image/x-icon' ||
    type === 'font/ttf' ||
    type === 'font/otf' ||
    type === 'application/wasm'
  );
}
