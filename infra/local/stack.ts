/**
 * The local stand-in for the whole AWS stack: one Node HTTP server
 * that behaves like CloudFront (the CloudFront Function's own code, the shared security headers,
 * compression, the 404 fallback page) in front of S3 (the build's client directory) and API
 * Gateway (/api/* into the same handler modules Lambda runs), plus aws-ses-v2-local as the mailbox.
 *
 * One API configuration per process: the handlers read their environment once per cold start, as
 * in Lambda, and a module is imported once per process. A second stack in the same process must
 * use the same configuration (fixed ports), or be started in another process (e.g. another test file).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadViewerRequestHandler } from '../cloudfront/viewer-request-loader';
import { API_ROUTES } from '../../contract/api-routes';
import { checkBuildMatchesPolicy, WEB_CLIENT_DIR } from '../shared/build-output';
import { INLINE_SCRIPT_HASHES, securityHeaders } from '../shared/security-headers';
import { createApiGateway, type ApiCall, type LambdaHandler, type LoadedRoute } from './api-gateway';
import { startMailbox, type Mailbox } from './mailbox';
import { createStaticSite } from './static-site';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Google's public reCAPTCHA v2 test secret: every token passes (pairs with the public test site key). */
export const RECAPTCHA_TEST_SECRET = '6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe';
export const DEFAULT_OWNER_EMAIL = 'owner@example.com';
export const DEFAULT_SENDER_EMAIL = 'portfolio@example.com';

export interface LocalStackOptions {
  /** Site port; 0 picks a free one. Default 8080. */
  port?: number;
  host?: '127.0.0.1';
  /** Mailbox port; 0 picks a free one. Default 8005. */
  sesPort?: number;
  /** siteverify URL; default Google's. */
  recaptchaVerifyUrl?: string;
  /** Default: Google's public test secret. */
  recaptchaSecret?: string;
  ownerEmail?: string;
  senderEmail?: string;
  /** The static site root; default web/build/client (its parent holds postbuild.json). */
  clientDir?: string;
  /** Serve the static site (default true). `npm run dev` turns it off: Vite serves the pages. */
  staticSite?: boolean;
  /** Overrides every route's Lambda timeout (tests). */
  lambdaTimeoutMs?: number;
  /** No request or handler logs on stdout. */
  quiet?: boolean;
}

export interface LocalStack {
  /** http://127.0.0.1:PORT: the site, with the API at /api/*. */
  url: string;
  /** The mailbox (aws-ses-v2-local): viewer at /, mails as JSON at /store. */
  sesUrl: string;
  /** Every API request, oldest first (at most the last 1000). */
  apiCalls: ApiCall[];
  /** Stops or restarts the mailbox alone, on the same port (to test SES outages). */
  mailbox: { stop(): Promise<void>; start(): Promise<void> };
  stop(): Promise<void>;
}

/** The configuration the handlers were imported with in this process (they read it once). */
let loadedApi: { fingerprint: string; routes: LoadedRoute[] } | undefined;

function validatePort(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new Error(`${name} must be a port number from 0 to 65535, got ${value}`);
  }
  return value;
}

async function loadHandlers(env: Record<string, string>): Promise<LoadedRoute[]> {
  const fingerprint = JSON.stringify(env);
  if (loadedApi) {
    if (loadedApi.fingerprint !== fingerprint) {
      throw new Error(
        'The API handlers were already loaded in this process with another configuration (they read it ' +
          'once per cold start, as in Lambda). Start one local stack per process, or reuse the same ports and settings.',
      );
    }
    return loadedApi.routes;
  }
  // Set before the first import: the handlers read their environment once, like a Lambda cold start.
  for (const name of ['RECAPTCHA_SECRET_PARAMETER', 'AWS_LAMBDA_FUNCTION_NAME', 'AWS_SESSION_TOKEN', 'AWS_PROFILE']) {
    delete process.env[name];
  }
  Object.assign(process.env, env);
  const routes: LoadedRoute[] = [];
  for (const route of API_ROUTES) {
    const file = path.join(REPO_ROOT, route.entry);
    let mod: { handler?: unknown };
    try {
      mod = (await import(pathToFileURL(file).href)) as { handler?: unknown };
    } catch (error) {
      throw new Error(`Could not import the ${route.name} handler ${route.entry}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (typeof mod.handler !== 'function') throw new Error(`${route.entry} exports no \`handler\` function`);
    routes.push({ route, handler: mod.handler as LambdaHandler });
  }
  loadedApi = { fingerprint, routes };
  return routes;
}

function listen(server: Server, port: number, host: string, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`${what} port ${port} on ${host} is in use: choose another (PORT / SES_PORT) or stop the other process.`)
          : error,
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const host = options.host ?? '127.0.0.1';
  const port = validatePort('port', options.port ?? 8080);
  const sesPort = validatePort('sesPort', options.sesPort ?? 8005);
  const serveSite = options.staticSite ?? true;
  const clientDir = path.resolve(options.clientDir ?? WEB_CLIENT_DIR);
  const buildDir = path.dirname(clientDir);
  const log = options.quiet ? () => undefined : (message: string) => console.log(message);

  // Fail before starting anything when the build is missing or its pages carry inline scripts the
  // policy (computed from source, as the stack does) would block.
  if (serveSite) checkBuildMatchesPolicy(buildDir, INLINE_SCRIPT_HASHES);
  const viewerRequest = loadViewerRequestHandler();

  let mailbox: Mailbox | undefined = await startMailbox(host, sesPort);
  const mailboxPort = mailbox.port;
  const sesUrl = mailbox.url;

  const env: Record<string, string> = {
    OWNER_EMAIL: options.ownerEmail ?? DEFAULT_OWNER_EMAIL,
    SENDER_EMAIL: options.senderEmail ?? DEFAULT_SENDER_EMAIL,
    RECAPTCHA_SECRET: options.recaptchaSecret ?? RECAPTCHA_TEST_SECRET,
    SES_ENDPOINT: sesUrl,
    AWS_REGION: 'us-east-1',
    // aws-ses-v2-local wants some signature; these credentials are never valid anywhere.
    AWS_ACCESS_KEY_ID: 'AKIALOCALSTACKDUMMY',
    AWS_SECRET_ACCESS_KEY: 'local-dummy-secret',
    POWERTOOLS_SERVICE_NAME: 'portfolio-local',
    // Lambda runs nodejs24.x; the SDK's notice about Node 20 says nothing about the deployed code.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  if (options.recaptchaVerifyUrl) env.RECAPTCHA_VERIFY_URL = options.recaptchaVerifyUrl;
  if (options.quiet) {
    env.POWERTOOLS_LOG_LEVEL = 'SILENT';
    env.POWERTOOLS_METRICS_DISABLED = 'true';
  }
  let routes: LoadedRoute[];
  try {
    routes = await loadHandlers(env);
  } catch (error) {
    await mailbox.stop();
    throw error;
  }

  // The same policy as the CDN's, computed from source: a rebuild never changes it.
  const headers = () => securityHeaders({ upgradeInsecureRequests: false });

  const onError = (error: unknown) => console.error('local stack:', error);
  const site = createStaticSite({ clientDir, viewerRequest, headers, onError });
  const notFound = serveSite
    ? site.sendNotFound
    : async (_req: IncomingMessage, res: ServerResponse) => {
        for (const [name, value] of Object.entries(headers())) res.setHeader(name, value);
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Not Found\n');
      };
  const apiCalls: ApiCall[] = [];
  const api = createApiGateway({
    routes,
    notFound,
    headers,
    calls: apiCalls,
    ...(options.lambdaTimeoutMs !== undefined ? { timeoutMs: options.lambdaTimeoutMs } : {}),
    log: (message) => console.error(message),
  });

  const server = createServer({ maxHeaderSize: 16 * 1024 }, (req, res) => {
    const started = performance.now();
    const url = req.url ?? '/';
    const isApi = url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
    const work = isApi ? api(req, res) : serveSite ? site.handle(req, res) : notFound(req, res);
    work
      .catch((error: unknown) => {
        onError(error);
        if (!res.headersSent) {
          res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
          res.end('Internal Server Error\n');
        } else {
          res.destroy();
        }
      })
      .finally(() => {
        log(`${req.method} ${url.length > 120 ? `${url.slice(0, 120)}…` : url} → ${res.statusCode} (${(performance.now() - started).toFixed(1)} ms)`);
      });
  });
  server.keepAliveTimeout = 5000;

  let sitePort: number;
  try {
    sitePort = await listen(server, port, host, 'The site');
  } catch (error) {
    await mailbox.stop();
    throw error;
  }

  if (serveSite) site.warm().catch((error: unknown) => onError(error));

  let stopped = false;
  return {
    url: `http://${host}:${sitePort}`,
    sesUrl,
    apiCalls,
    mailbox: {
      async stop() {
        await mailbox?.stop();
        mailbox = undefined;
      },
      async start() {
        mailbox ??= await startMailbox(host, mailboxPort);
      },
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all([
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
        mailbox?.stop(),
      ]);
      mailbox = undefined;
    },
  };
}
