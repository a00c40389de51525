/**
 * A local stand-in for the pull-request previews' distribution (infra/lib/preview-site.ts): every
 * request goes through the preview viewer-request function's own code (the same text CloudFront runs),
 * then is answered from a directory shaped like the preview bucket, a missing key with 403 as S3 does to
 * a reader without ListBucket. Plain HTTP on 127.0.0.1, so the cookie's Secure attribute is dropped (a
 * browser would refuse it over HTTP); everything else is passed as the function returns it.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type CfValues, isCfResponse, loadViewerRequestHandler } from '../cloudfront/viewer-request-loader';
import { previewViewerRequestCode } from '../lib/preview-site';

/** What S3 stores with each file (the AWS CLI guesses it from the extension on upload). */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.xml': 'application/xml',
  '.txt': 'text/plain', '.woff2': 'font/woff2', '.webp': 'image/webp', '.png': 'image/png', '.jpg': 'image/jpeg', '.svg': 'image/svg+xml',
};

export interface PreviewCdn {
  /** e.g. http://127.0.0.1:43123 (no trailing slash). */
  origin: string;
  /** Every bucket key asked for, as "GET /pr-7/abc1234/home/index.html"; `refused` those that were missing. */
  fetched: string[];
  refused: string[];
  stop(): Promise<void>;
}

function cookiesOf(req: IncomingMessage): CfValues {
  const cookies: CfValues = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name) cookies[name] = { value: value.join('=') };
  }
  return cookies;
}

/** Serves `bucketDir` (its keys as files: pr-N/<sha>/…) the way the preview distribution does. */
export async function startPreviewCdn(bucketDir: string): Promise<PreviewCdn> {
  const handler = loadViewerRequestHandler(previewViewerRequestCode());
  const fetched: string[] = [];
  const refused: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://preview');
      const result = await handler({
        version: '1.0',
        context: { distributionDomainName: 'preview.local', distributionId: 'ELOCALPREVIEW', eventType: 'viewer-request', requestId: 'local' },
        viewer: { ip: req.socket.remoteAddress ?? '127.0.0.1' },
        request: {
          method: req.method ?? 'GET',
          uri: url.pathname,
          querystring: Object.fromEntries([...url.searchParams].map(([k, v]) => [k, { value: v }])),
          headers: {},
          cookies: cookiesOf(req),
        },
      });
      if (isCfResponse(result)) {
        const headers: Record<string, string | string[]> = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, v.value]));
        const cookies = Object.entries(result.cookies ?? {}).map(([name, v]) => {
          const attributes = (v as { attributes?: string }).attributes ?? '';
          return `${name}=${v.value}; ${attributes.replace(/(^|;\s*)Secure(?=;|$)/, '')}`;
        });
        if (cookies.length > 0) headers['set-cookie'] = cookies;
        res.writeHead(result.statusCode, headers);
        return res.end(typeof result.body === 'string' ? result.body : (result.body?.data ?? ''));
      }
      const key = decodeURIComponent(result.uri);
      const file = path.join(bucketDir, key);
      fetched.push(`${req.method} ${key}`);
      // CloudFront's behavior allows GET and HEAD only: anything else never reaches the bucket.
      const readable = (req.method === 'GET' || req.method === 'HEAD') && file.startsWith(bucketDir + path.sep) && existsSync(file) && statSync(file).isFile();
      if (!readable) {
        refused.push(`${req.method} ${key}`);
        res.writeHead(403, { 'content-type': 'application/xml' });
        return res.end('<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      }
      res.writeHead(200, { 'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream', 'x-robots-tag': 'noindex, nofollow' });
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
