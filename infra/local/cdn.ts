/**
 * CloudFront's default behavior in front of the private S3 bucket. Each request runs the CloudFront
 * Function's own code; the URI it returns is served from the client directory by `send` (ETag,
 * Last-Modified, conditional requests, byte ranges, HEAD, no escape from the directory). A missing
 * object gets the app's fallback page with status 404, as the distribution's custom error response
 * does. Compression and the security headers are added around this by the server (stack.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import send from 'send';
import {
  isCfResponse,
  loadViewerRequestHandler,
  type CfResponse,
  type CfValues,
  type CfViewerRequestEvent,
} from '../cloudfront/viewer-request-loader';
import { SPA_FALLBACK_FILE } from '../shared/build-output';
import { cacheControlFor } from '../shared/cache-control';
import { contentTypeFor } from '../shared/content-type';

export function sendPlain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(`${text}\n`); // Node sends no body to HEAD requests
}

export interface Cdn {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** The distribution's answer to any 404, also the API's: the fallback page with status 404. */
  notFound(req: IncomingMessage, res: ServerResponse): void;
}

/** Where a page script given to createCdn is loaded from (the stack serves it there). */
export const PAGE_SCRIPT_PATH = '/__local/page-script.js';

/** `pageScript`: every HTML page loads PAGE_SCRIPT_PATH first (`LOCAL_CAPTCHA=fake`: the fake reCAPTCHA). */
export function createCdn(clientDir: string, pageScript = false): Cdn {
  const viewerRequest = loadViewerRequestHandler();

  /** An HTML object with the page script's tag first in its head (not cached: the switch may change). */
  async function servePage(req: IncomingMessage, res: ServerResponse, uri: string, onMissing: () => void) {
    const file = path.join(clientDir, decodeURIComponent(uri));
    const html = file.startsWith(clientDir + path.sep) ? await readFile(file, 'utf8').catch(() => undefined) : undefined;
    if (html === undefined) return onMissing();
    res.writeHead(res.statusCode, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : html.replace(/<head>/i, `<head><script src="${PAGE_SCRIPT_PATH}"></script>`));
  }

  /** Serves the object at a (percent-encoded) URI, or calls onMissing where S3 would answer 404. */
  function serve(req: IncomingMessage, res: ServerResponse, uri: string, status: 200 | 404, onMissing: () => void) {
    res.statusCode = status;
    if (pageScript && uri.endsWith('.html')) return void servePage(req, res, uri, onMissing).catch(onMissing);
    // No ranges on the 404 page: its status must stay 404 (send never answers 304 to a 404 either).
    send(req, uri, { root: clientDir, index: false, cacheControl: false, acceptRanges: status === 200 })
      .on('headers', (_res: ServerResponse, file: string) => {
        const key = path.relative(clientDir, file).split(path.sep).join('/');
        res.setHeader('Cache-Control', cacheControlFor(key));
        const type = contentTypeFor(key); // send keeps a Content-Type already set
        if (type) res.setHeader('Content-Type', type);
      })
      .on('directory', onMissing) // S3 has keys, not directories
      .on('error', (error: { status?: number; headers?: Record<string, string> }) => {
        // 403 is send's answer to a path climbing out of the root: S3 has no such key either.
        if (res.headersSent) return res.destroy(); // the file failed mid-stream (a rebuild replaced it)
        if (error.status === 404 || error.status === 403) return onMissing();
        sendPlain(res, error.status ?? 500, String(error), error.headers);
      })
      .pipe(res);
  }

  function notFound(req: IncomingMessage, res: ServerResponse): void {
    serve(req, res, `/${SPA_FALLBACK_FILE}`, 404, () => sendPlain(res, 404, 'Not Found'));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // CloudFront refuses methods a GET/HEAD-only behavior does not take; 405 says why.
      return sendPlain(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
    }
    let result;
    try {
      result = await viewerRequest(viewerRequestEvent(req));
    } catch (error) {
      console.error('The CloudFront Function failed:', error);
      return sendPlain(res, 503, 'Service Unavailable: the CloudFront Function failed'); // as CloudFront answers
    }
    if (isCfResponse(result)) return sendFunctionResponse(res, result);
    serve(req, res, result.uri, 200, () => notFound(req, res));
  }

  return { handle, notFound };
}

function sendFunctionResponse(res: ServerResponse, response: CfResponse): void {
  for (const [name, entry] of Object.entries(response.headers ?? {})) {
    res.setHeader(name, entry.multiValue ? entry.multiValue.map((v) => v.value) : entry.value);
  }
  const body = response.body;
  res.writeHead(response.statusCode);
  res.end(typeof body === 'object' ? Buffer.from(body.data, body.encoding === 'base64' ? 'base64' : 'utf8') : body);
}

/** The cloudfront-js-2.0 viewer-request event; the URI and query values stay percent-encoded, as received. */
function viewerRequestEvent(req: IncomingMessage): CfViewerRequestEvent {
  const [uri = '/', query = ''] = (req.url ?? '/').split(/\?(.*)/s); // at the first '?'
  const pairs = (parts: string[]) =>
    parts.filter(Boolean).map((part): [string, string] => {
      const [name = '', value = ''] = part.split(/=(.*)/s);
      return [name.trim(), value.trim()];
    });
  const headers = Object.entries(req.headersDistinct)
    .filter(([name]) => name !== 'cookie') // CloudFront moves cookies to a field of their own
    .flatMap(([name, values]) => (values ?? []).map((value): [string, string] => [name, value]));
  return {
    version: '1.0',
    context: {
      distributionDomainName: 'local.cloudfront.net',
      distributionId: 'LOCAL',
      eventType: 'viewer-request',
      requestId: crypto.randomUUID(),
    },
    viewer: { ip: req.socket.remoteAddress ?? '127.0.0.1' },
    request: {
      method: req.method ?? 'GET',
      uri,
      querystring: cfValues(pairs(query.split('&'))),
      headers: cfValues(headers),
      cookies: cfValues(pairs((req.headers.cookie ?? '').split(';'))),
    },
  };
}

/** Repeated names become multiValue, as CloudFront shapes them. */
function cfValues(pairs: [string, string][]): CfValues {
  const values: CfValues = Object.create(null) as CfValues;
  for (const [name, value] of pairs) {
    const entry = values[name];
    if (!entry) values[name] = { value };
    else (entry.multiValue ??= [{ value: entry.value }]).push({ value });
  }
  return values;
}
