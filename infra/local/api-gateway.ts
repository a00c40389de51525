/**
 * The API half of the local CDN: CloudFront's /api/* behavior in front of an API Gateway HTTP API.
 * Each request becomes a payload-v2 event for the same handler module Lambda runs, and the
 * handler's result is turned back into HTTP the way API Gateway does it.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import type { ApiRoute } from '../../contract/api-routes';

/** Read at most this much request body, then answer 413 without calling the handler. */
export const MAX_API_BODY_BYTES = 1024 * 1024;

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

export interface LoadedRoute {
  route: ApiRoute;
  handler: LambdaHandler;
}

/** One API request as the local stack saw it (kept in memory for tests; the newest last). */
export interface ApiCall {
  method: string;
  path: string;
  routeKey: string | null;
  status: number;
  /** The request body as text (at most 4 KB of it). */
  body: string;
  durationMs: number;
  at: number;
}

export interface ApiGatewayOptions {
  routes: readonly LoadedRoute[];
  /** Answers a request no route matches (the CDN maps the API's 404 to the site's fallback page). */
  notFound: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  headers: () => Record<string, string>;
  calls: ApiCall[];
  maxCalls?: number;
  /** Overrides each route's timeoutSeconds (tests). */
  timeoutMs?: number;
  log?: (message: string) => void;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)\b|[^;]*\+(json|xml)\b)/i;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade']);

class BodyTooLargeError extends Error {}

export function createApiGateway(options: ApiGatewayOptions) {
  const maxCalls = options.maxCalls ?? 1000;

  function record(call: ApiCall) {
    options.calls.push(call);
    if (options.calls.length > maxCalls) options.calls.splice(0, options.calls.length - maxCalls);
  }

  function send(res: ServerResponse, status: number, headers: Record<string, string | string[]>, body?: Buffer) {
    for (const [name, value] of Object.entries(options.headers())) res.setHeader(name, value);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (body) res.setHeader('Content-Length', body.length);
    res.writeHead(status);
    res.end(res.req.method === 'HEAD' ? undefined : body);
  }

  /** API Gateway's own error answers carry `{"message": …}`. */
  function sendGatewayError(res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}) {
    send(res, status, { 'content-type': 'application/json', ...extra }, Buffer.from(JSON.stringify({ message })));
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
    const rawQueryString = queryAt === -1 ? '' : url.slice(queryAt + 1);
    const method = req.method ?? 'GET';
    const loaded = options.routes.find((r) => r.route.method === method && r.route.path === rawPath);
    const done = (status: number, body = '') =>
      record({
        method,
        path: rawPath,
        routeKey: loaded?.route.routeKey ?? null,
        status,
        body: body.slice(0, 4096),
        durationMs: performance.now() - started,
        at: Date.now(),
      });

    if (!loaded) {
      req.resume();
      await options.notFound(req, res);
      done(res.statusCode);
      return;
    }

    let body: Buffer;
    try {
      body = await readBody(req, MAX_API_BODY_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        req.resume(); // drain what is left instead of resetting the connection under the answer
        sendGatewayError(res, 413, 'Request Entity Too Large', { connection: 'close' });
        done(413);
        return;
      }
      res.destroy(); // the client went away mid-body
      done(0);
      return;
    }

    const event = toEvent(req, loaded.route, rawPath, rawQueryString, body);
    const timeoutMs = options.timeoutMs ?? loaded.route.timeoutSeconds * 1000;
    const context = lambdaContext(loaded.route, event.requestContext.requestId, timeoutMs);
    let result: APIGatewayProxyResultV2;
    try {
      result = await withTimeout(Promise.resolve().then(() => loaded.handler(event, context)), timeoutMs);
    } catch (error) {
      // A Lambda that throws or times out: API Gateway answers 500 and logs nothing more for the caller.
      options.log?.(
        `${loaded.route.routeKey} ${event.requestContext.requestId} failed: ${(error as Error)?.stack ?? String(error)}`,
      );
      sendGatewayError(res, 500, 'Internal Server Error');
      done(500, event.body ?? '');
      return;
    }
    const response = toHttpResponse(result);
    if (!response) {
      options.log?.(`${loaded.route.routeKey} returned a malformed result: ${safeJson(result)}`);
      sendGatewayError(res, 500, 'Internal Server Error');
      done(500, event.body ?? '');
      return;
    }
    send(res, response.status, response.headers, response.body);
    done(response.status, isTextBody(req) ? body.toString('utf8') : `<${body.length} bytes>`);
  };
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAborted = () => onError(new Error('request aborted'));
    function cleanup() {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
    }
    req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}

function isTextBody(req: IncomingMessage): boolean {
  return TEXT_TYPES.test(req.headers['content-type'] ?? '');
}

/** The HTTP API payload-v2 event (the shape Lambda receives behind API Gateway). */
export function toEvent(
  req: IncomingMessage,
  route: ApiRoute,
  rawPath: string,
  rawQueryString: string,
  body: Buffer,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    const value = req.rawHeaders[i + 1]!;
    if (name === 'cookie') {
      cookies = [...(cookies ?? []), ...value.split(';').map((c) => c.trim()).filter(Boolean)];
      continue;
    }
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  // CloudFront appends the viewer's address to X-Forwarded-For before the request reaches the API.
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${sourceIp}` : sourceIp;
  headers['x-forwarded-proto'] ??= 'https';

  let queryStringParameters: Record<string, string> | undefined;
  for (const pair of rawQueryString.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = safeDecode(eq === -1 ? pair : pair.slice(0, eq));
    const value = safeDecode(eq === -1 ? '' : pair.slice(eq + 1));
    queryStringParameters ??= {};
    queryStringParameters[name] = queryStringParameters[name] === undefined ? value : `${queryStringParameters[name]},${value}`;
  }

  const now = new Date();
  const requestId = randomUUID();
  const text = body.length > 0 && isTextBody(req) && isUtf8(body);
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath,
    rawQueryString,
    headers,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0]!,
      http: {
        method: req.method ?? 'GET',
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: route.routeKey,
      stage: '$default',
      time: apiGatewayTime(now),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: body.length > 0 && !text,
  };
  if (cookies) event.cookies = cookies;
  if (queryStringParameters) event.queryStringParameters = queryStringParameters;
  if (body.length > 0) event.body = text ? body.toString('utf8') : body.toString('base64');
  return event;
}

function isUtf8(body: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** '22/Nov/2026:05:29:15 +0000', as API Gateway writes requestContext.time. */
function apiGatewayTime(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`
  );
}

function lambdaContext(route: ApiRoute, requestId: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  const functionName = `portfolio-${route.name}-local`;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Task timed out after ${(ms / 1000).toFixed(2)} seconds`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * API Gateway's reading of a v2 result: an object with a numeric statusCode is a full response;
 * anything else without one is a 200 JSON body. Undefined means a result API Gateway rejects (500).
 */
export function toHttpResponse(
  result: unknown,
): { status: number; headers: Record<string, string | string[]>; body: Buffer } | undefined {
  if (result !== null && typeof result === 'object' && 'statusCode' in result) {
    const r = result as { statusCode: unknown; headers?: unknown; body?: unknown; isBase64Encoded?: unknown; cookies?: unknown };
    if (typeof r.statusCode !== 'number' || !Number.isInteger(r.statusCode) || r.statusCode < 100 || r.statusCode > 599) {
      return undefined;
    }
    const headers: Record<string, string | string[]> = {};
    if (r.headers !== undefined) {
      if (r.headers === null || typeof r.headers !== 'object') return undefined;
      for (const [name, value] of Object.entries(r.headers)) {
        if (!['string', 'number', 'boolean'].includes(typeof value)) return undefined;
        if (!HOP_BY_HOP.has(name.toLowerCase())) headers[name.toLowerCase()] = String(value);
      }
    }
    if (Array.isArray(r.cookies) && r.cookies.length > 0) headers['set-cookie'] = r.cookies.map(String);
    if (r.body !== undefined && typeof r.body !== 'string') return undefined;
    const body = Buffer.from(r.body ?? '', r.isBase64Encoded === true ? 'base64' : 'utf8');
    if (body.length > 0 && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    return { status: r.statusCode, headers, body };
  }
  const body = typeof result === 'string' ? result : JSON.stringify(result ?? null);
  return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(body) };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 500) ?? String(value);
  } catch {
    return String(value);
  }
}
