/**
 * The contact flow: checked request → secret → verify the captcha → archive the message → one SES
 * SendEmail → mark it sent. Every bad input ends as a 4xx {error} and stores nothing. The visitor is
 * told "sent" when the message is in the archive or SES took it, or both: SES failing or refusing
 * leaves an archived message `pending` (the redelivery sends it) or `failed` (kept, with SES's
 * reason); a slow archive gets more tries while the budget leaves SES its whole window, and an
 * unreachable one leaves SES alone to take it. Only when neither does is the answer
 * a 5xx, always with the form's failure message, always within the request budget. The
 * dependencies come in through a factory, so tests pass fakes.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { CONTACT_MESSAGES, type ContactMessage } from '../../contract/contact-rules';
import { CONTACT_TIMEOUTS_MS } from '../../contract/limits';
import { ARCHIVE_METRICS, CONTACT_METRICS, type ContactMetric, type MetricName } from '../../contract/metrics';
import { DEFAULT_MESSAGE_RETENTION_DAYS } from '../../contract/archive';
import { CLAIM_MS, sendArchived, type MailSettings, type SesLike } from '../archive/delivery';
import { archiveIdForKey, idempotencyHash } from '../archive/idempotency';
import type { ArchivedMessage, ArchiveStore } from '../archive/store';
import { errorResponse, jsonResponse, type HttpResult } from '../shared/http';
import { countInLine, describeError, requestIds, withFields, type LoggerLike, type MetricsSink } from '../shared/observability';
import type { ContactConfig } from './config';
import { verifyCaptcha, type FetchLike } from './recaptcha';
import { originRefused, type OriginCheck } from '../shared/origin';
import { takeBudgetSlot, takeVisitorSlot, type CounterStore } from './limits';
import { checkContactRequest, limitAddress, readIdempotencyKey, readLanguage, sourceIp } from './request';
import type { SecretProvider } from './secret';

export type { SesLike };

export interface ContactTimeouts {
  /** siteverify, body included. */
  verifyMs: number;
  /** One SES SendEmail call. */
  sesMs: number;
  /** One archive call (put, get, update). */
  archiveMs: number;
  /** The whole request, from arrival to answer: every step gets at most what is left of it. */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: ContactTimeouts = {
  verifyMs: CONTACT_TIMEOUTS_MS.verify,
  sesMs: CONTACT_TIMEOUTS_MS.ses,
  archiveMs: CONTACT_TIMEOUTS_MS.archive,
  totalMs: CONTACT_TIMEOUTS_MS.total,
};
export const SSM_TIMEOUT_MS = CONTACT_TIMEOUTS_MS.ssm;
/** Below this, an SES call is not started: it could not finish, and might still send after we gave up. */
const MIN_SES_WINDOW_MS = 250;
/** A settling write after the mail went out still gets this long, even past the answer budget. */
const MIN_SETTLE_MS = 300;
/** Archive writes of one message before SES is tried alone: a slow archive (a busy machine) gets another chance. */
const MAX_PUT_ATTEMPTS = 3;
/**
 * The counters' calls get this long together (the day's key, then up to four conditional writes for an
 * IPv6 address), within what is left of the request: a slow table refuses the request (503) rather
 * than let it go on uncounted, so one slow call must not be enough to refuse it.
 */
const COUNTER_STEP_MS = 3_000;
/** A retry is only worth starting with at least this long to run. */
const MIN_PUT_RETRY_MS = 100;
/** The pause before the n-th retry (n × this), so a refused connection is not hammered. */
const PUT_RETRY_PAUSE_MS = 50;

export interface ContactDeps {
  config: Pick<ContactConfig, 'ownerEmail' | 'senderEmail' | 'verifyUrl'> &
    Partial<Pick<ContactConfig, 'retentionDays' | 'configurationSet'>>;
  secret: SecretProvider;
  ses: SesLike;
  /** The message archive; without one, messages are only mailed (and SES failing is a 5xx). */
  archive?: ArchiveStore;
  /** New message ids; injected so tests can tell messages apart. */
  newId?: () => string;
  fetch: FetchLike;
  /** Milliseconds since the epoch; injected so tests control the mail's timestamp. */
  now: () => number;
  timeouts: ContactTimeouts;
  logger: LoggerLike;
  metrics: MetricsSink;
  /**
   * The flood guards, counted in the archive's table: requests per address (contract/limits.ts) and
   * siteverify calls per month. Without them (no archive) every well-formed request reaches siteverify.
   */
  guards?: ContactGuards;
  /**
   * The check of CloudFront's origin header (functions/shared/origin.ts). When set, a request without
   * the value is refused before anything else (403), and the visitor's address is CloudFront's
   * CloudFront-Viewer-Address.
   */
  origin?: OriginCheck;
}

export interface ContactGuards {
  counters: CounterStore;
  /** The key of the hash an address is stored under, for the UTC day of `nowMs` (limits.ts counterKeys). */
  hashKey: (nowMs: number, options?: { abortSignal?: AbortSignal }) => Promise<string>;
  /** siteverify calls allowed a calendar month (UTC), spent in daily portions (limits.ts budgetSoFar). */
  monthlyBudget: number;
}

/** The log line for each of Google's answers the owner must act on. */
export const OWNER_ACTION_ADVICE = {
  quota:
    "reCAPTCHA's Google Cloud project is over its free monthly quota: the form answers 503 and sends nothing. Enable " +
    'billing on the project that holds the key (Google Cloud console, Billing), or wait for the first of the month; see docs/deploy.md.',
  keys:
    // Google's pages now file reCAPTCHA under Google Cloud Fraud Defense (https://docs.cloud.google.com/recaptcha/docs).
    'reCAPTCHA says the keys are invalid: the form answers 503 and sends nothing. Check the key in the Google Cloud console ' +
    "(Fraud Defense, which now holds reCAPTCHA's keys), or make a new one and store its legacy secret key with npm run setup.",
  'success-with-errors':
    'reCAPTCHA passed the token but reported errors (an answer Google gives at the quota cap): nothing was sent. Enable ' +
    "billing on the key's Google Cloud project or wait for the first of the month; see docs/deploy.md.",
} as const;


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
const accepted = (): HttpResult => jsonResponse(200, { ok: true });

export const IDEMPOTENCY_CONFLICT =
  'This Idempotency-Key was already used for a different message. Send the new message with a new key.';
export const IDEMPOTENCY_IN_PROGRESS = 'A request with this Idempotency-Key is still being handled. Try again in a moment.';
/** A duplicate token while a request with the same key is in flight: how long to wait for it to be archived. */
const DUPLICATE_WAIT_MS = 2_000;
const DUPLICATE_POLL_MS = 100;

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
      // The count rides on the request's one log line; a lost count must not change the answer.
      const metric = countInLine(deps.metrics, contactMetric(status, outcome), (error) =>
        log.error('Contact metric could not be recorded', describeError(error)),
      );
      const line = { outcome, statusCode: status, durationMs: deps.now() - started, ...extra, ...metric };
      if (status >= 500) log.error('Contact request failed', line);
      else log.info('Contact request handled', line);
      return response;
    };

    const count = (name: MetricName) => {
      try {
        deps.metrics.count(name);
      } catch (error) {
        log.error('Archive metric could not be recorded', describeError(error));
      }
    };
    /**
     * A counter call. When the table does not answer, the request is refused (undefined: the caller
     * answers 503), counted and logged: an uncounted request could spend the budget unseen, so a
     * broken counter closes the form rather than opening it, and the owner's alarm says so.
     */
    const guardCall = async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await run();
      } catch (error) {
        count(CONTACT_METRICS.countersUnavailable);
        log.error('The contact counters did not answer; the form answers 503 until they do', { counter: what, ...describeError(error) });
        return undefined;
      }
    };
    /** An archive call within its own timeout and what is left of the request; undefined when it failed. */
    const archived = async <T>(
      what: string,
      windowMs: number,
      run: (options: { abortSignal: AbortSignal }) => Promise<T>,
    ): Promise<{ ok: true; value: T } | { ok: false }> => {
      try {
        return { ok: true, value: await run({ abortSignal: AbortSignal.timeout(Math.max(1, windowMs)) }) };
      } catch (error) {
        log.warn('The message archive did not answer', { call: what, ...describeError(error) });
        return { ok: false };
      }
    };

    /**
     * The archive write, given what the budget allows while SES has not been tried: the first try gets
     * one call's timeout; a slow or failed try is followed by another (at most MAX_PUT_ATTEMPTS) that may
     * use all the time SES will not need (its whole window and a settling write). A try that timed out
     * may still have written: the retry then finds the item with this request's own claim, which makes
     * it ours ('created'), not another request's.
     */
    const putWithinBudget = async (
      archive: ArchiveStore,
      item: ArchivedMessage,
      firstWindow: () => number,
      spareWindow: () => number,
    ): Promise<{ ok: true; value: 'created' | 'exists' } | { ok: false }> => {
      let result: { ok: true; value: 'created' | 'exists' } | { ok: false } = { ok: false };
      for (let attempt = 0; attempt < MAX_PUT_ATTEMPTS; attempt++) {
        const window = attempt === 0 ? firstWindow() : spareWindow() - PUT_RETRY_PAUSE_MS * attempt;
        if (window < (attempt === 0 ? 1 : MIN_PUT_RETRY_MS)) break;
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, PUT_RETRY_PAUSE_MS * attempt));
        result = await archived('put', window, (options) => archive.put(item, options));
        if (!result.ok) continue;
        if (attempt === 0 || result.value === 'created') break;
        // Without a key the id is this request's own: only its earlier try can have written it.
        if (!item.idempotencyHash) return { ok: true, value: 'created' };
        const found = await archived('get', Math.min(deps.timeouts.archiveMs, spareWindow()), (options) => archive.get(item.id, options));
        const ours = found.ok && found.value?.claimedUntil === item.claimedUntil && found.value?.receivedAt === item.receivedAt;
        if (ours) log.info('The message archive took the message on a retry', { archiveId: item.id, attempts: attempt + 1 });
        return ours ? { ok: true, value: 'created' } : result;
      }
      return result;
    };

    try {
      if (deps.origin !== undefined) {
        if (!(await deps.origin(event))) {
          count(CONTACT_METRICS.originRefused);
          return finish(originRefused(), 'rejected-origin');
        }
      }
      const checked = checkContactRequest(event);
      if (!checked.ok) return finish(checked.response, `rejected-${checked.reason}`);
      const guards = deps.guards;
      const idempotency = readIdempotencyKey(event);
      if (!idempotency.ok) return finish(idempotency.response, 'rejected-idempotency-key');
      const { message } = checked;
      const key = idempotency.key;
      const language = readLanguage(event);
      const details = { ...describeMessage(message), ...(key ? { idempotent: true } : {}) };
      const remaining = () => deps.timeouts.totalMs - (deps.now() - started);
      const archiveWindow = () => Math.min(deps.timeouts.archiveMs, remaining() - MIN_SES_WINDOW_MS);
      const archive = deps.archive;
      const id = key ? archiveIdForKey(key) : (deps.newId ?? randomUUID)();
      const hash = key ? idempotencyHash(key, message) : undefined;

      /** The answer to a request whose key is already in the archive. */
      const repeat = (earlier: ArchivedMessage): HttpResult =>
        earlier.idempotencyHash === hash
          ? finish(accepted(), 'repeat', { ...details, archiveId: id, status: earlier.status })
          : finish(errorResponse(422, IDEMPOTENCY_CONFLICT), 'rejected-idempotency-conflict', { ...details, archiveId: id });

      // A repeat of a message already archived gets the first answer: no second captcha, no second mail.
      if (archive && key) {
        const earlier = await archived('get', archiveWindow(), (options) => archive.get(id, options));
        if (earlier.ok && earlier.value) return repeat(earlier.value);
      }

      if (guards) {
        // After the repeat lookup (a visitor's retry of a sent message costs no slot), before any other
        // call: a flooding address costs a conditional write or two per request, nothing more.
        const address = limitAddress(event, deps.origin !== undefined);
        const slot = await guardCall('address', async () => {
          const options = { abortSignal: AbortSignal.timeout(Math.max(1, Math.min(COUNTER_STEP_MS, remaining() - MIN_SES_WINDOW_MS))) };
          return takeVisitorSlot(guards.counters, address, await guards.hashKey(deps.now(), options), deps.now(), options);
        });
        if (!slot) return finish(failure(503), 'counters-unavailable', details);
        if (!slot.ok) {
          count(CONTACT_METRICS.addressLimited);
          return finish(
            errorResponse(429, CONTACT_MESSAGES.sendFailed, { 'retry-after': String(slot.retryAfterSeconds) }),
            'rejected-address-limit',
            details,
          );
        }
      }

      let secret: string;
      try {
        secret = await deps.secret.getSecret();
      } catch (error) {
        return finish(failure(503), 'secret-unavailable', { ...details, ...describeError(error) });
      }

      if (guards) {
        const budget = await guardCall('budget', () =>
          takeBudgetSlot(guards.counters, guards.monthlyBudget, deps.now(), {
            abortSignal: AbortSignal.timeout(Math.max(1, Math.min(COUNTER_STEP_MS, remaining() - MIN_SES_WINDOW_MS))),
          }),
        );
        if (!budget) return finish(failure(503), 'counters-unavailable', details);
        if (!budget.ok) {
          count(CONTACT_METRICS.captchaNeedsOwner);
          log.error(
            budget.spent === 'day'
              ? `Today's portion of the month's siteverify budget (${budget.used} of ${guards.monthlyBudget} by the end of today) is spent: ` +
                  'the form answers 503 until midnight UTC, then reopens with the next day\'s portion. A flood of bogus tokens does this; see docs/deploy.md.'
              : `The month's siteverify budget (${guards.monthlyBudget}) is spent: the form answers 503 until the month turns (UTC). ` +
                  'Raise CAPTCHA_MONTHLY_BUDGET (captchaMonthlyBudget in cdk.json) if the Google Cloud project can pay for more; see docs/deploy.md.',
            { budget: guards.monthlyBudget, allowedSoFar: budget.used, spent: budget.spent },
          );
          return finish(failure(503), `captcha-budget-spent-${budget.spent}`, details);
        }
        if (budget.warn) {
          count(CONTACT_METRICS.captchaNeedsOwner);
          log.warn("The month's siteverify calls passed the warning share of the budget", {
            used: budget.used,
            budget: guards.monthlyBudget,
          });
        }
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
        case 'refused': {
          // The same token twice at once: Google passes one and calls the other a duplicate. With a
          // key, the other is the same message, so wait for the first to be archived and repeat its answer.
          if (archive && key && verdict.errorCodes.includes('timeout-or-duplicate')) {
            const polls = Math.floor(Math.min(DUPLICATE_WAIT_MS, remaining() - MIN_SES_WINDOW_MS) / DUPLICATE_POLL_MS);
            for (let poll = 0; poll < polls; poll++) {
              const earlier = await archived('get', archiveWindow(), (options) => archive.get(id, options));
              if (earlier.ok && earlier.value) return repeat(earlier.value);
              await new Promise((resolve) => setTimeout(resolve, DUPLICATE_POLL_MS));
            }
          }
          return finish(errorResponse(403, CONTACT_MESSAGES.missingCaptcha), CAPTCHA_REFUSED, {
            ...details,
            verifyMs,
            captchaErrorCodes: verdict.errorCodes,
          });
        }
        case 'misconfigured':
          return finish(failure(503), 'captcha-misconfigured', { ...details, verifyMs, captchaErrorCodes: verdict.errorCodes });
        case 'owner-action':
          count(CONTACT_METRICS.captchaNeedsOwner);
          log.error(OWNER_ACTION_ADVICE[verdict.reason], {
            captchaErrorCodes: verdict.errorCodes,
            ...(verdict.httpStatus === undefined ? {} : { verifierStatus: verdict.httpStatus }),
          });
          return finish(failure(503), `captcha-owner-${verdict.reason}`, { ...details, verifyMs, captchaErrorCodes: verdict.errorCodes });
        case 'unavailable':
          return finish(failure(verdict.reason === 'timeout' ? 504 : 502), `captcha-${verdict.reason}`, {
            ...details,
            verifyMs,
            ...(verdict.httpStatus === undefined ? {} : { verifierStatus: verdict.httpStatus }),
          });
      }

      if (remaining() < MIN_SES_WINDOW_MS) return finish(failure(504), 'budget-exhausted', { ...details, verifyMs });

      // Archive first, holding the claim to send it: no redelivery touches it while this request sends.
      const now = deps.now();
      const claim = now + CLAIM_MS;
      const retentionDays = deps.config.retentionDays ?? DEFAULT_MESSAGE_RETENTION_DAYS;
      const item: ArchivedMessage = {
        id,
        receivedAt: new Date(now).toISOString(),
        name: message.fullName,
        email: message.email,
        message: message.message,
        ...(language ? { language } : {}),
        status: 'pending',
        attempts: 1,
        expiresAt: Math.floor(now / 1000) + retentionDays * 24 * 60 * 60,
        ...(hash ? { idempotencyHash: hash } : {}),
        claimedUntil: claim,
      };
      let isArchived = false;
      if (archive) {
        const put = await putWithinBudget(archive, item, archiveWindow, () => remaining() - deps.timeouts.sesMs - MIN_SETTLE_MS);
        if (put.ok && put.value === 'exists') {
          // Another request with this key won the race: its answer is this one's.
          const earlier = await archived('get', archiveWindow(), (options) => archive.get(id, options));
          if (earlier.ok && earlier.value) return repeat(earlier.value);
          return finish(errorResponse(409, IDEMPOTENCY_IN_PROGRESS), 'idempotency-in-progress', { ...details, archiveId: id });
        }
        isArchived = put.ok;
        if (!put.ok) count(ARCHIVE_METRICS.archiveUnavailable);
      }
      const archiveNote = { ...details, verifyMs, archiveId: id, archived: isArchived };
      /** A settling write after SES answered: failing it only delays the message (the claim runs out). */
      const settle = async (what: string, run: (options: { abortSignal: AbortSignal }) => Promise<boolean>) => {
        if (!archive || !isArchived) return;
        const done = await archived(what, Math.max(MIN_SETTLE_MS, Math.min(deps.timeouts.archiveMs, remaining())), run);
        if (done.ok && !done.value) log.warn('The message archive refused a settling write', { call: what, archiveId: id });
      };

      const sesWindow = Math.min(deps.timeouts.sesMs, remaining());
      const mail: MailSettings = {
        ownerEmail: deps.config.ownerEmail,
        senderEmail: deps.config.senderEmail,
        ...(deps.config.configurationSet ? { configurationSet: deps.config.configurationSet } : {}),
      };
      const sesStarted = deps.now();
      const signal = AbortSignal.timeout(Math.max(1, sesWindow));
      const result =
        sesWindow >= MIN_SES_WINDOW_MS
          ? await sendArchived(deps.ses, item, mail, signal)
          : ({ kind: 'unavailable', reason: 'Not sent: the request budget ran out', error: { name: 'TimeoutError' } } as const);
      const sesMs = deps.now() - sesStarted;
      switch (result.kind) {
        case 'sent':
          await settle('markSent', (options) => archive!.markSent(id, claim, result.sesMessageId, options));
          return finish(accepted(), 'sent', { ...archiveNote, sesMs });
        case 'refused':
          if (!isArchived) {
            return finish(failure(502), 'ses-failed', { ...archiveNote, sesMs, ...describeError(result.error) });
          }
          await settle('markFailed', (options) => archive!.markFailed(id, claim, result.reason, options));
          count(ARCHIVE_METRICS.failed);
          return finish(accepted(), 'archived-ses-refused', { ...archiveNote, sesMs, ...describeError(result.error) });
        case 'unavailable':
          if (!isArchived) {
            return finish(failure(sesFailureStatus(result.error, signal.aborted)), 'ses-failed', {
              ...archiveNote,
              sesMs,
              ...describeError(result.error),
            });
          }
          await settle('release', (options) => archive!.release(id, claim, result.reason, options));
          return finish(accepted(), 'archived-pending', { ...archiveNote, sesMs, ...describeError(result.error) });
        case 'unknown':
          if (!isArchived) {
            return finish(failure(sesFailureStatus(result.error, signal.aborted)), 'ses-failed', {
              ...archiveNote,
              sesMs,
              ...describeError(result.error),
            });
          }
          // SES may have sent it: keep the claim, so nothing sends it again before SES's events could tell.
          await settle('hold', (options) => archive!.hold(id, claim, `No answer from SES: ${result.reason}`, options));
          return finish(accepted(), 'archived-outcome-unknown', { ...archiveNote, sesMs, ...describeError(result.error) });
      }
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

