/**
 * The local stand-in for the whole AWS stack: one Node HTTP server that behaves like CloudFront
 * (the CloudFront Function's own code, the shared security headers, compression, the 404 fallback
 * page) in front of S3 (the build's client directory, cdn.ts) and API Gateway (/api/* into the same
 * handlers Lambda runs, api-gateway.ts), plus aws-ses-v2-local as the mailbox. A stack keeps all
 * its state to itself and never touches process.env.
 */
import { SESClient } from '@aws-sdk/client-ses';
import { Logger } from '@aws-lambda-powertools/logger';
import compression from 'compression';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { checkBuildMatchesPolicy, WEB_CLIENT_DIR } from '../shared/build-output';
import { INLINE_SCRIPT_HASHES, securityHeaders } from '../shared/security-headers';
import { createApiGateway, createLocalHandlers, type LocalApiConfig } from './api-gateway';
import { createLocalBreaker, withBreaker, type LocalBreaker } from '../../functions/breaker/local';
import { dynamoCounters } from '../../functions/contact/limits';
import { readSpend } from '../../functions/shared/spend';
import type { BreakerCounter } from '../../contract/breaker';
import { createCdn, PAGE_SCRIPT_PATH, sendPlain } from './cdn';
import { createEdgeRateRule, type EdgeRateRule } from '../shared/local-edge-rate-rule';
import { startMailbox } from './mailbox';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startLocalArchive } from './archive';
import { REDELIVERY_INTERVAL } from '../../contract/archive';
import { CONTACT_TIMEOUTS_MS } from '../../contract/limits';
import { startRedeliveryLoop, type RedeliveryReport } from '../../functions/archive/redeliver';
import { createMetricsSink } from '../../functions/shared/observability';

import { RECAPTCHA_TEST_SECRET } from '../../contract/settings';

export { RECAPTCHA_TEST_SECRET };

export interface LocalStackOptions {
  /** Site port; 0 picks a free one. Default 8080. */
  port?: number;
  /** Mailbox port; 0 picks a free one. Default 8005. */
  sesPort?: number;
  /** siteverify URL; default Google's. */
  recaptchaVerifyUrl?: string | undefined;
  /** Default: Google's public test secret. */
  recaptchaSecret?: string | undefined;
  /** Default owner@example.com. */
  ownerEmail?: string | undefined;
  /** Default portfolio@example.com. */
  senderEmail?: string | undefined;
  /** The static site root; default web/build/client. */
  clientDir?: string | undefined;
  /** Serve the static site (default true). `npm run dev` turns it off: Vite serves the pages. */
  staticSite?: boolean;
  /** No request, handler or metric lines on stdout. */
  quiet?: boolean;
  /** The archive's (dynalite's) port; 0 (the default) picks a free one. `npm start` uses 8006. */
  archivePort?: number;
  /** dynalite's data folder; in memory when absent (tests). `npm start` uses .local/archive. */
  archiveDir?: string | undefined;
  /** Where page views are appended (one JSON line each); none: they are kept nowhere. `npm start` uses .local/page-views.jsonl. */
  pageViewsFile?: string | undefined;
  /** An outside DynamoDB-compatible server (AWS_ENDPOINT_URL_DYNAMODB): no dynalite is started. */
  dynamoEndpoint?: string | undefined;
  /** An outside SES-compatible server (AWS_ENDPOINT_URL_SES): no mailbox is started. */
  sesEndpoint?: string | undefined;
  /** How often the redelivery runs; default REDELIVERY_INTERVAL.localMs. */
  redeliveryIntervalMs?: number;
  /** false: no archive and no redelivery, the contact function mails only (the benchmark's baseline). */
  archive?: boolean;
  /**
   * false: no per-address limit or monthly siteverify budget (tests that send many messages from one
   * loopback address and read the table's items). `npm start` keeps them, as on AWS.
   */
  floodGuards?: boolean;
  /**
   * The guards' settings: the contact and beacon handlers' clock (`now`; the benchmark's distributed
   * flood moves it to the next UTC day) and the monthly siteverify budget; defaults as in Lambda.
   */
  guards?: Pick<LocalApiConfig, 'now' | 'captchaMonthlyBudget'>;
  /**
   * Each API route's throttle, as the stage applies it (contract/limits.ts ROUTE_THROTTLES); false: none
   * (the benchmark's throughput runs measure the handlers, not API Gateway's buckets).
   */
  routeThrottle?: boolean;
  /**
   * The per-route circuit breaker (functions/breaker/local.ts); default: the default day numbers, a trip
   * printed unless quiet. false: none, as with `routeThrottle: false` (the benchmark's throughput runs).
   */
  breaker?: LocalBreaker | false;
  /**
   * The edge's per-address rate rule on /api/* (infra/shared/local-edge-rate-rule.ts, the WAF rule's numbers); default on,
   * off with `routeThrottle: false` (the benchmark's throughput runs). false: none.
   */
  edgeRateRule?: EdgeRateRule | false;
  /** A browser script every page loads before the app (`LOCAL_CAPTCHA=fake`: the fake reCAPTCHA api.js). */
  pageScript?: string | undefined;
}

export interface LocalStack {
  /** http://127.0.0.1:PORT: the site, with the API at /api/*. */
  url: string;
  /** The mailbox (aws-ses-v2-local): viewer at /, mails as JSON at /store; or the outside SES. */
  sesUrl: string;
  /** The archive's DynamoDB endpoint and table, and dynalite's data folder (none in memory or outside). */
  archive: { url: string; table: string; dataDir: string | undefined } | undefined;
  /** Runs the redelivery now (tests, the benchmark); it also runs on its own every few seconds. */
  redeliver(): Promise<RedeliveryReport | undefined>;
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
// CloudFront compresses text responses; like it, a byte range is served from the uncompressed object.
const compress = compression({ filter: (req, res) => !req.headers.range && compression.filter(req, res) });

/**
 * The shared security headers (plain http: no upgrade-insecure-requests). The CSP comes from source
 * (web/boot/generate.ts), as the stack's does, so a rebuild never changes it; at start the build
 * is checked against it (a missing build, or a page whose inline scripts the policy would block,
 * fails here naming `npm run build`).
 */
function securityHeadersFor(buildDir: string | undefined): Record<string, string> {
  if (buildDir) checkBuildMatchesPolicy(buildDir, INLINE_SCRIPT_HASHES);
  return securityHeaders({ upgradeInsecureRequests: false });
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const clientDir = options.staticSite === false ? undefined : path.resolve(options.clientDir ?? WEB_CLIENT_DIR);
  const headers = securityHeadersFor(clientDir && path.dirname(clientDir));
  const cdn = clientDir ? createCdn(clientDir, options.pageScript !== undefined) : undefined;
  const mailbox = options.sesEndpoint
    ? { url: options.sesEndpoint.replace(/\/+$/, ''), stop: () => Promise.resolve() }
    : await startMailbox(HOST, options.sesPort ?? 8005);
  const archive =
    options.archive === false
      ? undefined
      : await startLocalArchive({
          host: HOST,
          port: options.archivePort ?? 0,
          dataDir: options.archiveDir,
          endpoint: options.dynamoEndpoint,
        }).catch(async (error: unknown) => {
          await mailbox.stop();
          throw error;
        });
  const quiet = options.quiet ?? false;
  const ownerEmail = options.ownerEmail ?? 'owner@example.com';
  const senderEmail = options.senderEmail ?? 'portfolio@example.com';
  // One attempt, as in Lambda: a retried SendEmail could mail twice.
  const ses = new SESClient({ region: LOCAL_REGION, endpoint: mailbox.url, maxAttempts: 1, credentials: LOCAL_CREDENTIALS });
  let server: Server;
  let redelivery: ReturnType<typeof startRedeliveryLoop> | undefined;
  try {
    const breaker =
      options.breaker ??
      createLocalBreaker({
        ...(options.guards?.now && { now: options.guards.now }),
        onTrip: (message) => (quiet ? undefined : console.warn(message)),
      });
    const counters =
      archive && options.floodGuards !== false ? dynamoCounters({ table: archive.table, client: archive.client }) : undefined;
    // The breaker reads the day counters the handlers keep; without counters (no archive, or no flood
    // guards) nothing is limited per address, so nothing is counted and no route trips.
    const counted = (counter: BreakerCounter, nowMs: number) => (counters ? readSpend(counters, counter, nowMs) : Promise.resolve(0));
    const handlers = createLocalHandlers({
      sesEndpoint: mailbox.url,
      ownerEmail,
      senderEmail,
      recaptchaVerifyUrl: options.recaptchaVerifyUrl,
      recaptchaSecret: options.recaptchaSecret ?? RECAPTCHA_TEST_SECRET,
      quiet,
      archive: archive?.store,
      counters,
      ses,
      pageViewsFile: options.pageViewsFile,
      ...options.guards,
    });
    const throttle = options.routeThrottle !== false;
    const api = createApiGateway(breaker && throttle ? withBreaker(handlers, breaker, counted) : handlers, { throttle });
    const route = requestRouter({
      api,
      cdn,
      edge: options.edgeRateRule ?? (throttle ? createEdgeRateRule() : false),
      pageScript: options.pageScript,
    });
    server = createServer((req, res) => {
      const started = performance.now();
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      if (!options.quiet) {
        res.on('close', () =>
          console.log(`${req.method} ${req.url?.slice(0, 120)} → ${res.statusCode} (${(performance.now() - started).toFixed(1)} ms)`),
        );
      }
      // compression is Express middleware; Node's request and response are what it works on.
      compress(req as never, res as never, () =>
        route(req, res).catch((error: unknown) => {
          console.error('local stack:', error);
          if (res.headersSent) res.destroy();
          else sendPlain(res, 500, 'Internal Server Error');
        }),
      );
    });
    server.listen(options.port ?? 8080, HOST);
    await once(server, 'listening').catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EADDRINUSE' ? new Error(`${error.message}: set PORT to a free port`) : error;
    });
    // The same redelivery code the scheduled function runs: a restart sends on what was pending.
    redelivery =
      archive &&
      startRedeliveryLoop(
        {
          archive: archive.store,
          ses,
          mail: { ownerEmail, senderEmail },
          now: Date.now,
          logger: new Logger({ serviceName: 'portfolio-redelivery', ...(quiet ? { logLevel: 'SILENT' } : {}) }),
          metrics: quiet ? { count: () => undefined } : createMetricsSink('portfolio-redelivery'),
          sesTimeoutMs: CONTACT_TIMEOUTS_MS.ses,
          archiveTimeoutMs: 5_000,
        },
        options.redeliveryIntervalMs ?? REDELIVERY_INTERVAL.localMs,
      );
  } catch (error) {
    await Promise.all([mailbox.stop(), archive?.stop()]);
    throw error;
  }
  const loop = redelivery;
  return {
    url: `http://${HOST}:${(server.address() as AddressInfo).port}`,
    sesUrl: mailbox.url,
    archive: archive ? { url: archive.url, table: archive.table, dataDir: archive.dataDir } : undefined,
    redeliver: () => (loop ? loop.runNow() : Promise.resolve(undefined)),
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([closed, loop?.stop()]);
      ses.destroy();
      await Promise.all([mailbox.stop(), archive?.stop()]);
    },
  };
}

/** The one server's routes: /api/* behind the edge's rule, the page script, then the CDN. */
function requestRouter({
  api,
  cdn,
  edge,
  pageScript,
}: {
  api: ReturnType<typeof createApiGateway>;
  cdn: ReturnType<typeof createCdn> | undefined;
  edge: EdgeRateRule | false;
  pageScript: string | undefined;
}): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const notFound = () => (cdn ? cdn.notFound(req, res) : sendPlain(res, 404, 'Not Found'));
    if (/^\/api(\/|\?|$)/.test(req.url ?? '/')) {
      // The edge's rule answers before API Gateway: a blocked request never reaches the API.
      if (edge && !edge.admit((req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''), req.url ?? '/')) {
        req.resume();
        return void res.writeHead(edge.blockStatus, { 'content-length': '0' }).end();
      }
      return api(req, res, notFound);
    }
    if (pageScript !== undefined && req.url === PAGE_SCRIPT_PATH) {
      return void res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(pageScript);
    }
    return cdn ? cdn.handle(req, res) : notFound();
  };
}
