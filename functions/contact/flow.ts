/**
 * The contact flow: checked request → secret → verify the captcha → one SES SendEmail. Every bad
 * input ends as a 4xx {error}; only our own dependencies (configuration, SSM, siteverify, SES) can
 * cause a 5xx, always with the form's failure message, always within the request budget, never
 * after a mail was sent. The dependencies come in through a factory, so tests pass fakes.
 */
import { SendEmailCommand } from '@aws-sdk/client-ses';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { CONTACT_MESSAGES, type ContactMessage } from '../../contract/contact-rules';
import { CONTACT_TIMEOUTS_MS } from '../../contract/limits';
import { CONTACT_METRICS, type ContactMetric } from '../../contract/metrics';
import { errorResponse, jsonResponse, type HttpResult } from '../shared/http';
import { describeError, requestIds, withFields, type LoggerLike, type MetricsSink } from '../shared/observability';
import type { ContactConfig } from './config';
import { buildContactEmail } from './email';
import { verifyCaptcha, type FetchLike } from './recaptcha';
import { checkContactRequest, sourceIp } from './request';
import type { SecretProvider } from './secret';

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
export const SSM_TIMEOUT_MS = CONTACT_TIMEOUTS_MS.ssm;
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

/** Lengths only: never the text, the name or the address (they are the visitor's). */
function describeMessage(message: ContactMessage): Record<string, number> {
  return { nameLength: message.fullName.length, messageLength: message.message.length };
}

const CAPTCHA_REFUSED = 'captcha-refused';

/** The metric an answer counts as: a refused captcha has its own, so its alarm can tell a key mismatch. */
export function contactMetric(status: number, outcome: string): ContactMetric {
  if (outcome === CAPTCHA_REFUSED) return CONTACT_METRICS.captchaRefused;
  if (status >= 500) return CONTACT_METRICS.failed;
  return status >= 400 ? CONTACT_METRICS.rejected : CONTACT_METRICS.sent;
}

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

