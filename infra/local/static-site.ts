/**
 * The static half of the local CDN: CloudFront's default behavior in front of the private S3
 * bucket. Each request runs the CloudFront Function's own code, then the rewritten URI is looked up
 * in the client directory as S3 would look up the key; a missing key gets the app's fallback page
 * with status 404, as the distribution's custom error response does.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import {
  isCfResponse,
  type CfValues,
  type CfViewerRequestEvent,
  type ViewerRequestHandler,
} from '../cloudfront/viewer-request-loader';
import { SPA_FALLBACK_FILE } from '../shared/build-output';
import { cacheControlFor } from '../shared/cache-control';
import { COMPRESS_MAX_BYTES, COMPRESS_MIN_BYTES, contentTypeFor, isCompressible } from './content-types';

/** CloudFront refuses longer request URLs (path and query) with 414. */
export const MAX_URL_LENGTH = 8192;
/** Compressed bodies are kept in memory; this bounds the cache. */
const COMPRESSED_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Brotli level for a file compressed on request: level 11 (what the start-up warm-up uses) takes
 * about a second for a 200 KB bundle and gains only ~7 % over level 5, which takes ~20 ms.
 */
const BROTLI_FAST = 5;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export interface StaticSiteOptions {
  clientDir: string;
  viewerRequest: ViewerRequestHandler;
  /** Security headers for every response (read per request, so a rebuild's new hashes apply). */
  headers: () => Record<string, string>;
  onError?: (error: unknown) => void;
}

type Encoding = 'br' | 'gzip' | 'identity';

interface FileInfo {
  file: string;
  key: string;
  size: number;
  mtime: Date;
  etag: string;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface StaticSite {
  handle: RequestHandler;
  /** Sends the fallback page with 404, as the distribution answers any 404 (also from the API). */
  sendNotFound: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /**
   * Brotli-compresses every compressible file ahead of its first request (quality 11 takes about
   * a second for the whole site), so no first visit, browser test or Lighthouse run pays for it.
   */
  warm: () => Promise<void>;
}

export function createStaticSite(options: StaticSiteOptions): StaticSite {
  const clientDir = path.resolve(options.clientDir);
  let realClientDir: string | undefined;
  const etags = new Map<string, Promise<string>>();
  const compressed = new Map<string, Promise<Buffer>>();
  const compressedSizes = new Map<string, number>();
  let compressedBytes = 0;

  async function clientRoot(): Promise<string> {
    realClientDir ??= await fs.realpath(clientDir);
    return realClientDir;
  }

  function baseHeaders(res: ServerResponse): void {
    for (const [name, value] of Object.entries(options.headers())) res.setHeader(name, value);
  }

  function sendPlain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
    baseHeaders(res);
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...extra });
    res.end(res.req.method === 'HEAD' ? undefined : `${text}\n`);
  }

  /** Finds the object for a decoded key, or undefined when S3 would answer 404. */
  async function lookup(key: string): Promise<FileInfo | undefined> {
    const segments = key.split('/');
    // Keys are flat names in S3; "." and ".." have no special meaning there and never exist in the
    // build, so treating them as missing also keeps every lookup inside the client directory.
    if (
      key === '' ||
      key.includes('\0') ||
      key.includes('\\') ||
      segments.some((s) => s === '' || s === '.' || s === '..')
    ) {
      return undefined;
    }
    let root: string;
    try {
      root = await clientRoot();
    } catch {
      return undefined; // no client dir (a rebuild is replacing it): nothing exists
    }
    const candidate = path.join(root, ...segments);
    if (!candidate.startsWith(root + path.sep)) return undefined;
    let real: string;
    try {
      real = await fs.realpath(candidate);
    } catch {
      return undefined; // ENOENT, ENOTDIR, ENAMETOOLONG, ELOOP: no such object
    }
    if (!real.startsWith(root + path.sep)) return undefined; // a symlink pointing outside
    try {
      const stat = await fs.stat(real);
      if (!stat.isFile()) return undefined; // S3 has no directories
      return { file: real, key, size: stat.size, mtime: stat.mtime, etag: await etagOf(real, stat.mtimeMs, stat.size) };
    } catch {
      return undefined; // removed meanwhile (a rebuild)
    }
  }

  /** S3's ETag of a single-part upload: the MD5 of the content, quoted. */
  function etagOf(file: string, mtimeMs: number, size: number): Promise<string> {
    const id = `${file}:${mtimeMs}:${size}`;
    let etag = etags.get(id);
    if (!etag) {
      etag = new Promise<string>((resolve, reject) => {
        const hash = createHash('md5');
        createReadStream(file)
          .on('data', (chunk) => hash.update(chunk))
          .on('error', reject)
          .on('end', () => resolve(`"${hash.digest('hex')}"`));
      });
      etag.catch(() => etags.delete(id));
      etags.set(id, etag);
    }
    return etag;
  }

  /** A cached compressed body; on a miss, a fast brotli level so no request waits long. */
  function compressedBody(info: FileInfo, encoding: 'br' | 'gzip'): Promise<Buffer> {
    return compressed.get(compressedId(info, encoding)) ?? compress(info, encoding, BROTLI_FAST);
  }

  function compressedId(info: FileInfo, encoding: 'br' | 'gzip'): string {
    return `${info.file}:${info.mtime.getTime()}:${info.size}:${encoding}`;
  }

  /** Compresses and caches (replacing a faster, larger version of the same file). */
  function compress(info: FileInfo, encoding: 'br' | 'gzip', brotliQuality: number): Promise<Buffer> {
    const id = compressedId(info, encoding);
    const body = fs.readFile(info.file).then((raw) =>
      encoding === 'br'
        ? brotli(raw, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          })
        : gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
    );
    compressed.set(id, body);
    body.then(
      (buffer) => {
        if (compressed.get(id) !== body) return; // replaced meanwhile
        compressedBytes += buffer.length - (compressedSizes.get(id) ?? 0);
        compressedSizes.set(id, buffer.length);
        // Oldest first (Map keeps insertion order) until the cache fits again.
        for (const old of compressed.keys()) {
          if (compressedBytes <= COMPRESSED_CACHE_MAX_BYTES || old === id) break;
          compressedBytes -= compressedSizes.get(old) ?? 0;
          compressedSizes.delete(old);
          compressed.delete(old);
        }
      },
      () => {
        if (compressed.get(id) === body) compressed.delete(id);
      },
    );
    return body;
  }

  async function serveObject(req: IncomingMessage, res: ServerResponse, info: FileInfo, status: 200 | 404) {
    const contentType = contentTypeFor(info.file);
    const compressible =
      isCompressible(contentType) && info.size >= COMPRESS_MIN_BYTES && info.size <= COMPRESS_MAX_BYTES;
    baseHeaders(res);
    res.setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', cacheControlFor(info.key));
    res.setHeader('Last-Modified', info.mtime.toUTCString());
    if (compressible) res.setHeader('Vary', 'Accept-Encoding');

    const rangeHeader = status === 200 ? req.headers.range : undefined;
    const range = rangeHeader !== undefined && ifRangeHolds(req, info) ? parseRange(rangeHeader, info.size) : undefined;
    // Like CloudFront, a range is served from the uncompressed object.
    const encoding: Encoding = compressible && range === undefined ? chooseEncoding(req.headers['accept-encoding']) : 'identity';
    // A compressed representation is no longer byte-identical: its ETag becomes weak, as CloudFront does.
    res.setHeader('ETag', encoding === 'identity' ? info.etag : `W/${info.etag}`);

    if (status === 200 && isNotModified(req, info)) {
      res.writeHead(304);
      res.end();
      return;
    }

    if (range === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${info.size}`);
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.writeHead(416);
      res.end(req.method === 'HEAD' ? undefined : 'Range Not Satisfiable\n');
      return;
    }
    if (range) {
      res.setHeader('Accept-Ranges', 'bytes');
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
      res.setHeader('Content-Length', range.end - range.start + 1);
      res.writeHead(206);
      if (req.method === 'HEAD') return void res.end();
      return pipeFile(res, info.file, range.start, range.end);
    }
    if (encoding !== 'identity') {
      const body = await compressedBody(info, encoding);
      res.setHeader('Content-Encoding', encoding);
      res.setHeader('Content-Length', body.length);
      res.writeHead(status);
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Content-Length', info.size);
    res.writeHead(status);
    if (req.method === 'HEAD' || info.size === 0) return void res.end();
    return pipeFile(res, info.file, 0, info.size - 1);
  }

  async function sendNotFound(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fallback = await lookup(SPA_FALLBACK_FILE);
    if (!fallback) return sendPlain(res, 404, 'Not Found');
    return serveObject(req, res, fallback, 404);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    if (url.length > MAX_URL_LENGTH) return sendPlain(res, 414, 'URI Too Long');
    if (!url.startsWith('/')) return sendPlain(res, 400, 'Bad Request');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // CloudFront answers 403 for methods a GET/HEAD-only behavior does not allow; 405 says why.
      return sendPlain(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
    }
    const queryAt = url.indexOf('?');
    const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
    const rawQuery = queryAt === -1 ? '' : url.slice(queryAt + 1);

    let result;
    try {
      result = await options.viewerRequest(viewerRequestEvent(req, rawPath, rawQuery));
    } catch (error) {
      // CloudFront answers 503 when a function fails.
      options.onError?.(error);
      return sendPlain(res, 503, 'Service Unavailable: the CloudFront Function failed');
    }
    if (isCfResponse(result)) return sendFunctionResponse(req, res, result);

    let key: string;
    try {
      // S3 decodes the percent-encoded path into the object key.
      key = decodeURIComponent(result.uri).replace(/^\//, '');
    } catch {
      return sendPlain(res, 400, 'Bad Request: malformed percent-encoding');
    }
    const info = await lookup(key);
    if (!info) return sendNotFound(req, res);
    return serveObject(req, res, info, 200);
  }

  function sendFunctionResponse(
    req: IncomingMessage,
    res: ServerResponse,
    response: { statusCode: number; headers?: CfValues; body?: string | { data: string; encoding: string } },
  ): void {
    baseHeaders(res);
    for (const [name, entry] of Object.entries(response.headers ?? {})) {
      res.setHeader(name, entry.multiValue ? entry.multiValue.map((v) => v.value) : entry.value);
    }
    const body =
      response.body === undefined
        ? undefined
        : typeof response.body === 'string'
          ? Buffer.from(response.body)
          : Buffer.from(response.body.data, response.body.encoding === 'base64' ? 'base64' : 'utf8');
    if (body) res.setHeader('Content-Length', body.length);
    res.writeHead(response.statusCode);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function warm(): Promise<void> {
    let root: string;
    try {
      root = await clientRoot();
    } catch {
      return; // no build (yet): nothing to warm
    }
    const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      const info = await lookup(key);
      if (info && isCompressible(contentTypeFor(info.file)) && info.size >= COMPRESS_MIN_BYTES && info.size <= COMPRESS_MAX_BYTES) {
        await compress(info, 'br', zlib.constants.BROTLI_MAX_QUALITY); // one at a time: requests keep their share of the CPU
      }
    }
  }

  return { handle, sendNotFound, warm };
}

/** The cloudfront-js-2.0 viewer-request event; values stay percent-encoded as received. */
export function viewerRequestEvent(req: IncomingMessage, rawPath: string, rawQuery: string): CfViewerRequestEvent {
  const headers: CfValues = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    if (name === 'cookie') continue; // CloudFront moves cookies to their own field
    addValue(headers, name, req.rawHeaders[i + 1]!);
  }
  const querystring: CfValues = {};
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    addValue(querystring, eq === -1 ? pair : pair.slice(0, eq), eq === -1 ? '' : pair.slice(eq + 1));
  }
  const cookies: CfValues = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) addValue(cookies, part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return {
    version: '1.0',
    context: {
      distributionDomainName: 'local.cloudfront.net',
      distributionId: 'LOCAL',
      eventType: 'viewer-request',
      requestId: randomUUID(),
    },
    viewer: { ip: req.socket.remoteAddress ?? '127.0.0.1' },
    request: { method: req.method ?? 'GET', uri: rawPath, querystring, headers, cookies },
  };
}

function addValue(values: CfValues, name: string, value: string): void {
  const existing = values[name];
  if (!existing) {
    values[name] = { value };
    return;
  }
  existing.multiValue ??= [{ value: existing.value }];
  existing.multiValue.push({ value });
}

/** Picks br, then gzip, by the client's Accept-Encoding (q=0 refuses a coding). */
export function chooseEncoding(header: string | string[] | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(name, q ? Number(q[1]) : 1);
  }
  const quality = (name: string) => accepted.get(name) ?? (accepted.has('*') ? accepted.get('*')! : 0);
  if (quality('br') > 0) return 'br';
  if (quality('gzip') > 0) return 'gzip';
  return 'identity';
}

/** A single byte range, 'unsatisfiable', or undefined to serve the whole object (also for multiple ranges). */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return undefined; // invalid: ignored per RFC 9110
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

function ifRangeHolds(req: IncomingMessage, info: FileInfo): boolean {
  const header = req.headers['if-range'];
  if (header === undefined) return true;
  const ifRange = Array.isArray(header) ? header.join(',') : header;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === info.etag; // strong comparison
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && Math.floor(info.mtime.getTime() / 1000) * 1000 <= date;
}

function isNotModified(req: IncomingMessage, info: FileInfo): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const bare = info.etag;
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim())
      .some((tag) => tag === '*' || tag.replace(/^W\//, '') === bare);
  }
  const since = req.headers['if-modified-since'];
  if (since === undefined) return false;
  const date = Date.parse(since);
  return !Number.isNaN(date) && Math.floor(info.mtime.getTime() / 1000) * 1000 <= date;
}

function pipeFile(res: ServerResponse, file: string, start: number, end: number): Promise<void> {
  return new Promise((resolve) => {
    const stream = createReadStream(file, { start, end });
    stream.on('error', () => {
      res.destroy();
      resolve();
    });
    res.on('close', () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
}
