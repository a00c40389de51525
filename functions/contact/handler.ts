/**
 * POST /api/contact: check the request, apply the form's rules, verify the captcha, mail the
 * owner once through SES. Every bad input ends as a 4xx {error}; only our own dependencies
 * (configuration, SSM, siteverify, SES) can cause a 5xx, always with the spec's failure message,
 * always within the request budget (under 10 s), never after a mail was sent.
 */
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { SSMClient } from '@aws-sdk/client-ssm';
import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { CONTACT_MESSAGES, validateContact, type ContactMessage } from '../../contract/contact-rules';
import { CONTACT_MAX_BODY_BYTES, CONTACT_TIMEOUTS_MS } from '../../contract/limits';
import { CONTACT_METRICS, SERVICE_NAMES, type ContactMetric } from '../../contract/metrics';
import {
  errorResponse,
  getHeader,
  hasAcceptedContentType,
  jsonResponse,
  parseJsonObject,
  pickStringFields,
  readBody,
  requestMethod,
  type HttpResult,
} from '../shared/http';
import {
  createLogger,
  createMetricsSink,
  describeError,
  requestIds,
  serviceName,
  withFields,
  type LoggerLike,
  type MetricsSink,
} from '../shared/observability';
import { loadContactConfig, type ContactConfig } from './config';
import { buildContactEmail } from './email';
import { verifyCaptcha, type FetchLike } from './recaptcha';
import { ssmSecret, staticSecret, type SecretProvider, type SsmLike } from './secret';

export const CONTACT_FIELDS = ['fullName', 'email', 'message', 'g-recaptcha-response'] as const;

export interface ContactTimeouts {
  /** siteverify, body included. */
  verifyMs: number;
  /** One SES SendEmail call. */
  sesMs: number;
  /** The whole request, from arrival to answer: every step gets at most what is left of it. */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: ContactTimeouts = {
  verifyMs: CONTACT_TIMEOUTS_MS.verify,
  sesMs: CONTACT_TIMEOUTS_MS.ses,
  totalMs: CONTACT_TIMEOUTS_MS.total,
};
const SSM_TIMEOUT_MS = CONTACT_TIMEOUTS_MS.ssm;
/** Below this, an SES call is not started: it could not finish, and might still send after we gave up. */
const MIN_SES_WINDOW_MS = 250;

/** The part of SESClient the handler uses; tests pass a fake that records calls. */
export interface SesLike {
  send(command: SendEmailCommand, options?: { abortSignal?: AbortSignal }): Promise<unknown>;
}

export interface ContactDeps {
  config: Pick<ContactConfig, 'ownerEmail' | 'senderEmail' | 'verifyUrl'>;
  secret: SecretProvider;
  ses: SesLike;
  fetch: FetchLike;
  /** Milliseconds since the epoch; injected so tests control the mail's timestamp. */
  now: () => number;
  timeouts: ContactTimeouts;
  logger: LoggerLike;
  metrics: MetricsSink;
}

export type ContactHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult>;

type Checked = { ok: true; message: ContactMessage } | { ok: false; response: HttpResult; reason: string };

const SHAPE_ERROR =
  'The request body must be a JSON object with exactly the string fields fullName, email, message and g-recaptcha-response.';

/** Everything that can be decided from the request alone, in order: method, type, size, JSON, shape, rules. */
export function checkContactRequest(event: APIGatewayProxyEventV2): Checked {
  const reject = (statusCode: number, error: string, reason: string, headers?: Record<string, string>): Checked => ({
    ok: false,
    response: errorResponse(statusCode, error, headers),
    reason,
  });
  if (requestMethod(event) !== 'POST') {
    return reject(405, 'Only POST is allowed.', 'method', { allow: 'POST' });
  }
  if (!hasAcceptedContentType(event, ['application/json'])) {
    return reject(415, 'The request must be sent as application/json (UTF-8).', 'content-type');
  }
  const body = readBody(event, CONTACT_MAX_BODY_BYTES);
  if (!body.ok) return reject(body.statusCode, body.error, body.statusCode === 413 ? 'too-large' : 'body');
  const parsed = parseJsonObject(body.text);
  if (!parsed.ok) return reject(400, parsed.error, 'json');
  const fields = pickStringFields(parsed.value, CONTACT_FIELDS);
  if (!fields) return reject(400, SHAPE_ERROR, 'shape');
  const validation = validateContact({
    fullName: fields.fullName,
    email: fields.email,
    message: fields.message,
    captchaToken: fields['g-recaptcha-response'],
  });
  if (!validation.ok) return reject(400, validation.error, `invalid-${validation.field}`);
  return { ok: true, message: validation.value };
}

/** Lengths only: never the text, the name or the address (they are the visitor's). */
function describeMessage(message: ContactMessage): Record<string, number> {
  return { nameLength: message.fullName.length, messageLength: message.message.length };
}

/** The metric an answer counts as: a refused captcha has its own, so its alarm can tell a key mismatch. */
export function contactMetric(status: number, outcome: string): ContactMetric {
  if (outcome === CAPTCHA_REFUSED) return CONTACT_METRICS.captchaRefused;
  if (status >= 500) return CONTACT_METRICS.failed;
  return status >= 400 ? CONTACT_METRICS.rejected : CONTACT_METRICS.sent;
}

const CAPTCHA_REFUSED = 'captcha-refused';

const failure = (statusCode: 502 | 503 | 504): HttpResult => errorResponse(statusCode, CONTACT_MESSAGES.sendFailed);

function sesFailureStatus(error: unknown, deadlineHit: boolean): 502 | 503 | 504 {
  const name = (error as { name?: unknown } | null)?.name;
  if (deadlineHit || name === 'AbortError' || name === 'TimeoutError' || name === 'RequestTimeout') return 504;
  if (name === 'Throttling' || name === 'ThrottlingException' || name === 'ServiceUnavailable') return 503;
  return 502;
}

export function createContactHandler(deps: ContactDeps): ContactHandler {
  return async (event, context) => {
    const started = deps.now();
    const log = withFields(deps.logger, requestIds(event, context));
    const finish = (response: HttpResult, outcome: string, extra: Record<string, unknown> = {}): HttpResult => {
      const status = response.statusCode ?? 200;
      try {
        deps.metrics.count(contactMetric(status, outcome));
      } catch (error) {
        // A lost count must not change the answer (a sent mail stays a 200).
        log.error('Contact metric could not be recorded', describeError(error));
      }
      const line = { outcome, statusCode: status, durationMs: deps.now() - started, ...extra };
      if (status >= 500) log.error('Contact request failed', line);
      else log.info('Contact request handled', line);
      return response;
    };

    try {
      const checked = checkContactRequest(event);
      if (!checked.ok) return finish(checked.response, `rejected-${checked.reason}`);
      const { message } = checked;
      const details = describeMessage(message);
      const remaining = () => deps.timeouts.totalMs - (deps.now() - started);

      let secret: string;
      try {
        secret = await deps.secret.getSecret();
      } catch (error) {
        return finish(failure(503), 'secret-unavailable', { ...details, ...describeError(error) });
      }

      const verifyStarted = deps.now();
      const verdict = await verifyCaptcha({
        fetch: deps.fetch,
        url: deps.config.verifyUrl,
        secret,
        token: message.captchaToken,
        remoteIp: sourceIp(event),
        timeoutMs: Math.max(1, Math.min(deps.timeouts.verifyMs, remaining())),
      });
      const verifyMs = deps.now() - verifyStarted;
      switch (verdict.kind) {
        case 'passed':
          break;
        case 'refused':
          return finish(errorResponse(403, CONTACT_MESSAGES.missingCaptcha), CAPTCHA_REFUSED, {
            ...details,
            verifyMs,
            captchaErrorCodes: verdict.errorCodes,
          });
        case 'misconfigured':
          return finish(failure(503), 'captcha-misconfigured', { ...details, verifyMs, captchaErrorCodes: verdict.errorCodes });
        case 'unavailable':
          return finish(failure(verdict.reason === 'timeout' ? 504 : 502), `captcha-${verdict.reason}`, {
            ...details,
            verifyMs,
            ...(verdict.httpStatus === undefined ? {} : { verifierStatus: verdict.httpStatus }),
          });
      }

      const sesWindow = Math.min(deps.timeouts.sesMs, remaining());
      if (sesWindow < MIN_SES_WINDOW_MS) return finish(failure(504), 'budget-exhausted', { ...details, verifyMs });
      const input = buildContactEmail(message, deps.config, new Date(deps.now()));
      const sesStarted = deps.now();
      const signal = AbortSignal.timeout(sesWindow);
      try {
        await deps.ses.send(new SendEmailCommand(input), { abortSignal: signal });
      } catch (error) {
        return finish(failure(sesFailureStatus(error, signal.aborted)), 'ses-failed', {
          ...details,
          verifyMs,
          sesMs: deps.now() - sesStarted,
          ...describeError(error),
        });
      }
      return finish(jsonResponse(200, { ok: true }), 'sent', { ...details, verifyMs, sesMs: deps.now() - sesStarted });
    } catch (error) {
      // A bug, not an input: no input reaches here (the property test holds the handler to that).
      return finish(errorResponse(500, CONTACT_MESSAGES.sendFailed), 'unexpected-error', describeError(error));
    }
  };
}

/**
 * The visitor's IP for siteverify's optional remoteip. Behind CloudFront, API Gateway's sourceIp is
 * the edge's address; CloudFront's own CloudFront-Viewer-Address header ("ip:port", "[v6]:port")
 * carries the visitor's. Only a hint to Google, so a forged header gains nothing.
 */
function sourceIp(event: APIGatewayProxyEventV2): string | undefined {
  const viewer = viewerAddressIp(getHeader(event, 'cloudfront-viewer-address'));
  if (viewer) return viewer;
  const ip: unknown = event?.requestContext?.http?.sourceIp;
  return typeof ip === 'string' && isIP(ip) !== 0 ? ip : undefined;
}

function viewerAddressIp(value: string | undefined): string | undefined {
  if (!value || value.length > 64) return undefined;
  const ip = value.startsWith('[') ? value.slice(1, value.indexOf(']')) : value.slice(0, value.lastIndexOf(':'));
  return isIP(ip) !== 0 ? ip : undefined;
}

/**
 * The handler of a function whose environment is wrong: it still refuses bad input with the
 * same 4xx answers, and answers 503 to the rest. The problems were logged once, at cold start.
 */
export function createMisconfiguredContactHandler(logger: LoggerLike, metrics: MetricsSink): ContactHandler {
  return async (event, context) => {
    const checked = checkContactRequest(event);
    const response = checked.ok ? failure(503) : checked.response;
    const status = response.statusCode ?? 503;
    const log = withFields(logger, requestIds(event, context));
    try {
      metrics.count(contactMetric(status, 'misconfigured'));
    } catch (error) {
      log.error('Contact metric could not be recorded', describeError(error));
    }
    log[status >= 500 ? 'error' : 'info']('Contact request handled', {
      outcome: checked.ok ? 'misconfigured' : `rejected-${checked.reason}`,
      statusCode: status,
    });
    return response;
  };
}

/** Dummy credentials for the local SES emulator, which accepts any; never used against AWS. */
const LOCAL_SES_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Clients a test may put in place of the real ones; production passes none. */
export interface ClientOverrides {
  ssm?: SsmLike;
  ses?: SesLike;
}

/** Builds the production handler from the environment (once per cold start). */
export function createContactHandlerFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  overrides: ClientOverrides = {},
): ContactHandler {
  const service = serviceName(SERVICE_NAMES.contact);
  const logger = createLogger(service);
  const metrics = createMetricsSink(service);
  const loaded = loadContactConfig(env);
  if (!loaded.ok) {
    logger.error('The contact function is misconfigured; answering 503 until it is fixed', {
      problems: loaded.problems,
    });
    return createMisconfiguredContactHandler(logger, metrics);
  }
  const { config } = loaded;
  // One attempt only: a retried SendEmail whose first try reached SES would mail twice.
  const ses =
    overrides.ses ??
    new SESClient({
      region: config.region,
      maxAttempts: 1,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: DEFAULT_TIMEOUTS.sesMs },
      ...(config.sesEndpoint
        ? {
            endpoint: config.sesEndpoint,
            ...(env.AWS_ACCESS_KEY_ID ? {} : { credentials: LOCAL_SES_CREDENTIALS }),
          }
        : {}),
    });
  const secret =
    config.secret.kind === 'ssm'
      ? ssmSecret(
          overrides.ssm ??
            new SSMClient({
              region: config.region,
              maxAttempts: 2,
              requestHandler: { connectionTimeout: 1_000, requestTimeout: SSM_TIMEOUT_MS },
            }),
          config.secret.parameterName,
          SSM_TIMEOUT_MS,
        )
      : staticSecret(config.secret.value);
  return createContactHandler({
    config,
    secret,
    ses,
    fetch: (input, init) => fetch(input, init),
    now: Date.now,
    timeouts: DEFAULT_TIMEOUTS,
    logger,
    metrics,
  });
}

let coldStartHandler: ContactHandler | undefined;

/** The Lambda entry point. The environment is read on the first invocation, never at import. */
export const handler: ContactHandler = (event, context) => {
  coldStartHandler ??= createContactHandlerFromEnv();
  return coldStartHandler(event, context);
};
