/**
 * A local stand-in for the pull-request previews' distribution (infra/lib/preview-site.ts): every
 * request goes through the preview viewer-request function's own code (the same text CloudFront runs),
 * then is answered from a directory shaped like the preview bucket. A missing key gets what the
 * distribution's custom error response gives: the bucket's not-found page (PREVIEW_NOT_FOUND_KEY) with
 * status 404, or S3's 403 XML when that page is missing too. The function's own answers (redirects, its
 * 404 outside a preview) are passed as it returns them: CloudFront replaces only the origin's errors.
 * Every response carries the live site's security headers (the preview distribution uses the live
 * response headers policy), its CSP without upgrade-insecure-requests, as this is plain HTTP.
 */
import { createReadStream, existsSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { isCfResponse, loadViewerRequestHandler } from '../cloudfront/viewer-request-loader';
import { PREVIEW_NOT_FOUND_HTML, PREVIEW_NOT_FOUND_KEY, previewViewerRequestCode } from '../lib/preview-site';
import { contentTypeFor } from '../shared/content-type';
import { securityHeaders } from '../shared/security-headers';

/** What S3 stores with each file (the AWS CLI guesses it from the extension on upload). */
// prettier-ignore
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.xml': 'application/xml',
  '.txt': 'text/plain', '.woff2': 'font/woff2', '.webp': 'image/webp', '.png': 'image/png', '.jpg': 'image/jpeg', '.svg': 'image/svg+xml',
  '.avif': 'image/avif', '.ico': 'image/x-icon', '.mp4': 'video/mp4', '.webm': 'video/webm', '.pdf': 'application/pdf',
  '.webmanifest': 'application/manifest+json',
};

export interface PreviewCdn {
  /** e.g. http://127.0.0.1:43123 (no trailing slash). */
  origin: string;
  /** Every bucket key asked for, as "GET /pr-7/abc1234/home/index.html"; `refused` those that were missing. */
  fetched: string[];
  refused: string[];
  stop(): Promise<void>;
}

/** Writes the not-found page into `bucketDir` at the key main's deploy writes it to (PreviewSite's NotFoundPage). */
export function writeNotFoundPage(bucketDir: string): void {
  writeFileSync(path.join(bucketDir, PREVIEW_NOT_FOUND_KEY), PREVIEW_NOT_FOUND_HTML);
}

/** Serves `bucketDir` (its keys as files: pr-N/<sha>/…) the way the preview distribution does. */
export async function startPreviewCdn(bucketDir: string): Promise<PreviewCdn> {
  const handler = loadViewerRequestHandler(previewViewerRequestCode());
  const fetched: string[] = [];
  const refused: string[] = [];
  const headers = securityHeaders({ upgradeInsecureRequests: false });
  const server: Server = createServer((req, res) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://preview');
      const result = await handler({
        version: '1.0',
        context: {
          distributionDomainName: 'preview.local',
          distributionId: 'ELOCALPREVIEW',
          eventType: 'viewer-request',
          requestId: 'local',
        },
        viewer: { ip: req.socket.remoteAddress ?? '127.0.0.1' },
        request: {
          method: req.method ?? 'GET',
          uri: url.pathname,
          querystring: Object.fromEntries([...url.searchParams].map(([k, v]) => [k, { value: v }])),
          headers: {},
          cookies: {},
        },
      });
      if (isCfResponse(result)) {
        res.writeHead(result.statusCode, Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, v.value])));
        return res.end(typeof result.body === 'string' ? result.body : (result.body?.data ?? ''));
      }
      const key = decodeURIComponent(result.uri);
      const file = path.join(bucketDir, key);
      fetched.push(`${req.method} ${key}`);
      // CloudFront's behavior allows GET and HEAD only: anything else never reaches the bucket.
      const readable =
        (req.method === 'GET' || req.method === 'HEAD') &&
        file.startsWith(bucketDir + path.sep) &&
        existsSync(file) &&
        statSync(file).isFile();
      if (!readable) {
        refused.push(`${req.method} ${key}`);
        const notFound = path.join(bucketDir, PREVIEW_NOT_FOUND_KEY);
        if (existsSync(notFound)) {
          res.writeHead(404, { 'content-type': CONTENT_TYPES['.html']! });
          return createReadStream(notFound).pipe(res);
        }
        res.writeHead(403, { 'content-type': 'application/xml' });
        return res.end('<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      }
      res.writeHead(200, {
        'content-type': contentTypeFor(key) ?? CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
        'x-robots-tag': 'noindex, nofollow',
      });
      createReadStream(file).pipe(res);
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fetched,
    refused,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
