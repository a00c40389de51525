/**
 * CloudFront's /api/* behavior in front of an API Gateway HTTP API: a thin adapter from a Node
 * request to the payload-2.0 event Lambda receives, calling the same handler factories Lambda
 * runs, and from the handler's result back to HTTP. The handlers get their configuration as
 * arguments (never through process.env), so several stacks may run in one process.
 */
import { fileURLToPath } from 'node:url';
import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import { API_ROUTES, type ApiRoute } from '../../contract/api-routes';
import { siteEventNames } from '../../contract/event-catalog';
import { blogs } from '../../web/content/blogs';
import { projects } from '../../web/content/projects';
import { readPostTitles } from '../lib/post-titles';
import { ROUTE_THROTTLES } from '../../contract/limits';
import { loadContactConfig } from '../../functions/contact/config';
import type { ArchiveStore } from '../../functions/archive/store';
import { buildContactDeps } from '../../functions/contact/clients';
import { createContactHandler, type SesLike } from '../../functions/contact/flow';
import type { CounterStore } from '../../functions/contact/limits';
import { createBeaconLimits } from '../../functions/shared/beacon-limit';
import { routeThrottle } from '../../functions/breaker/local';
import { createEventsHandler } from '../../functions/events/handler';
import { createMeasureSink, createMetricsSink, type MeasureSink, type MetricsSink } from '../../functions/shared/observability';
import { createVitalsHandler } from '../../functions/vitals/handler';
import { pageViewLogFile } from '../shared/page-views-file';

/** Bodies over this are refused with 413 before any handler runs (theirs allow 32 KB and 1 KB). */
export const MAX_API_BODY_BYTES = 1024 * 1024;

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
export type ApiHandlers = Record<ApiRoute['name'], LambdaHandler>;

export interface LocalApiConfig {
  /** aws-ses-v2-local's URL. */
  sesEndpoint: string;
  ownerEmail: string;
  senderEmail: string;
  recaptchaVerifyUrl: string | undefined;
  recaptchaSecret: string;
  /** No handler logs and no metric lines (tests, benchmarks). */
  quiet: boolean;
  /** The message archive (the local dynalite or an outside server); none: mail only. */
  archive?: ArchiveStore | undefined;
  /** An SES client in place of the one built for sesEndpoint (the stack shares one with the redelivery). */
  ses?: SesLike | undefined;
  /** The file page views are appended to (pageViewLogFile); none: they are kept nowhere. */
  pageViewsFile?: string | undefined;
  /** The flood counters (in the local archive's table); none: no per-address limit or monthly budget. */
  counters?: CounterStore | undefined;
  /** siteverify calls allowed a month (CAPTCHA_MONTHLY_BUDGET); default as in Lambda. */
  captchaMonthlyBudget?: number | undefined;
  /** The handlers' clock (milliseconds since the epoch); default Date.now. */
  now?: (() => number) | undefined;
}

/** Every route's handler, built as Lambda builds it but from explicit settings. Throws naming bad settings. */
export function createLocalHandlers(config: LocalApiConfig): ApiHandlers {
  // The Lambda's own checks (addresses, URLs), applied to these settings rather than to process.env.
  const loaded = loadContactConfig({
    OWNER_EMAIL: config.ownerEmail,
    SENDER_EMAIL: config.senderEmail,
    RECAPTCHA_SECRET: config.recaptchaSecret,
    RECAPTCHA_VERIFY_URL: config.recaptchaVerifyUrl,
    SES_ENDPOINT: config.sesEndpoint,
    CAPTCHA_MONTHLY_BUDGET: config.captchaMonthlyBudget?.toString(),
  });
  if (!loaded.ok) throw new Error(`The local API cannot start: ${loaded.problems.join('; ')}.`);
  const logger = (serviceName: string) => new Logger({ serviceName, ...(config.quiet ? { logLevel: 'SILENT' } : {}) });
  const metrics = (service: string): MetricsSink => (config.quiet ? { count: () => undefined } : createMetricsSink(service));
  // The beacons' per-address daily count, in the same counters as the contact form's (the socket's address).
  const limits = config.counters && createBeaconLimits(config.counters, false, config.now ?? Date.now);
  const measures = (service: string): MeasureSink => (config.quiet ? { measure: () => undefined } : createMeasureSink(service));
  return {
    // The same dependencies Lambda builds (one SES attempt, its timeouts), with the local archive and counters.
    contact: createContactHandler(
      buildContactDeps(loaded.config, {
        logger: logger('portfolio-contact'),
        metrics: metrics('portfolio-contact'),
        hasAwsCredentials: false,
        overrides: { ses: config.ses, archive: config.archive, counters: config.counters, now: config.now },
      }),
    ),
    events: createEventsHandler({
      ...(limits && { limit: limits.events }),
      logger: logger('portfolio-events'),
      metrics: metrics('portfolio-events'),
      // Read from the checkout, as the stack does at synth for the deployed function.
      knownNames: siteEventNames({ projects, blogs }, readPostTitles(fileURLToPath(new URL('../..', import.meta.url)))),
    }),
    vitals: createVitalsHandler({
      ...(limits && { limit: limits.vitals }),
      logger: logger('portfolio-vitals'),
      measures: measures('portfolio-vitals'),
      pageViews: config.pageViewsFile ? pageViewLogFile(config.pageViewsFile) : () => undefined,
    }),
  };
}

export interface ApiGatewayOptions {
  /** Each route's throttle (contract/limits.ts), as the stage applies it; false: none (the benchmark's throughput runs). */
  throttle?: boolean;
  /** The throttle's clock, in milliseconds (tests). */
  now?: () => number;
}

/** Answers an API request; `notFound` answers paths and methods no route takes (the distribution's 404). */
export function createApiGateway(handlers: ApiHandlers, options: ApiGatewayOptions = {}) {
  const allow = new Map(
    API_ROUTES.map((route) => [
      route.routeKey,
      options.throttle === false ? () => true : routeThrottle(ROUTE_THROTTLES[route.name], options.now),
    ]),
  );
  return async (req: IncomingMessage, res: ServerResponse, notFound: () => void): Promise<void> => {
    const [rawPath = '/', rawQueryString = ''] = (req.url ?? '/').split(/\?(.*)/s); // at the first '?'
    const route = API_ROUTES.find((r) => r.method === req.method && r.path === rawPath);
    if (!route) {
      req.resume();
      return notFound();
    }
    if (!allow.get(route.routeKey)!()) {
      req.resume();
      return gatewayError(res, 429, 'Too Many Requests');
    }
    let body: Buffer;
    try {
      body = await getRawBody(req, { limit: MAX_API_BODY_BYTES });
    } catch (error) {
      req.resume(); // drain the rest, so the client reads this answer rather than a reset
      const status = (error as { status?: number }).status === 413 ? 413 : 400;
      return gatewayError(res, status, status === 413 ? 'Request Entity Too Large' : 'Bad Request', { connection: 'close' });
    }
    const event = toEvent(req, route, rawPath, rawQueryString, body);
    let result: APIGatewayProxyStructuredResultV2;
    try {
      result = await handlers[route.name](event, lambdaContext(route, event.requestContext.requestId));
    } catch (error) {
      // A Lambda that throws: API Gateway answers 500 and tells the caller nothing more.
      console.error(`${route.routeKey} ${event.requestContext.requestId} failed:`, error);
      return gatewayError(res, 500, 'Internal Server Error');
    }
    for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
    res.writeHead(result.statusCode ?? 200);
    res.end(result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined);
  };
}

/** API Gateway's own error answers carry `{"message": …}`. */
function gatewayError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ message }));
}

/** Bodies API Gateway passes as text; any other (or invalid UTF-8) arrives base64-encoded. */
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)\b|[^;]*\+(json|xml)\b)/i;

/** The HTTP API payload-2.0 event: headers lower-cased, repeats joined by commas, cookies apart. */
function toEvent(req: IncomingMessage, route: ApiRoute, rawPath: string, rawQueryString: string, body: Buffer): APIGatewayProxyEventV2 {
  const joined = (entries: Iterable<[string, string]>) => {
    const map = new Map<string, string>();
    for (const [name, value] of entries) map.set(name, map.has(name) ? `${map.get(name)},${value}` : value);
    return Object.fromEntries(map);
  };
  const headers = joined(
    Object.entries(req.headersDistinct).flatMap(([name, values]) =>
      name === 'cookie' ? [] : (values ?? []).map((value): [string, string] => [name, value]),
    ),
  );
  const cookies = (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  const text = TEXT_TYPES.test(headers['content-type'] ?? '') && isUtf8(body);
  const now = new Date();
  // 'Mon, 23 Nov 2026 06:41:29 GMT' → '23/Nov/2026:06:41:29 +0000', API Gateway's format
  const [, day, month, year, clock] = /^\w+, (\d+) (\w+) (\d+) (\S+)/.exec(now.toUTCString())!;
  const host = headers.host ?? 'localhost';
  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath,
    rawQueryString,
    headers,
    ...(cookies.length > 0 ? { cookies } : {}),
    ...(rawQueryString ? { queryStringParameters: joined(new URLSearchParams(rawQueryString)) } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: host,
      domainPrefix: host.split('.')[0]!,
      http: {
        method: req.method ?? 'POST',
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: crypto.randomUUID(),
      routeKey: route.routeKey,
      stage: '$default',
      time: `${day}/${month}/${year}:${clock} +0000`,
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: text ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !text,
  };
}

/** The Lambda context: what the handlers read is the request id (logs) and the time left. */
function lambdaContext(route: ApiRoute, awsRequestId: string): Context {
  const deadline = Date.now() + route.timeoutSeconds * 1000;
  const functionName = `portfolio-${route.name}-local`;
  const ignored = () => undefined;
  return {
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: ignored, // the callback API, unused by async handlers
    fail: ignored,
    succeed: ignored,
  };
}
