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
import { countInLine, countOrLog, describeError, requestIds, withFields, type LoggerLike, type MetricsSink } from '../shared/observability';
import type { ContactConfig } from './config';
import { verifyCaptcha, type FetchLike } from './recaptcha';
import { originRefused, type OriginCheck } from '../shared/origin';
import { countSpend } from '../shared/spend';
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
  /** Counts a request refused for its address's share toward the breakers (shared/spend.ts pastShareCounter). */
  pastShare?: (options?: { abortSignal?: AbortSignal }) => Promise<void>;
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

const CAPTCHA_REFUSED = 'captcha-refused';

/** The metric an answer counts as: a refused captcha has its own, so its alarm can tell a key mismatch. */
export function contactMetric(status: number, outcome: string): ContactMetric {
  if (outcome === CAPTCHA_REFUSED) return CONTACT_METRICS.captchaRefused;
  if (status >= 500) return CONTACT_METRICS.failed;
  return status >= 400 ? CONTACT_METRICS.rejected : CONTACT_METRICS.sent;
}

const failure = (statusCode: 502 | 503 | 504): HttpResult => errorResponse(statusCode, CONTACT_MESSAGES.sendFailed);
const accepted = (): HttpResult => jsonResponse(200, { ok: true });

export const IDEMPOTENCY_CONFLICT = 'This Idempotency-Key was already used for a different message. Send the new message with a new key.';
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

type Answer = (response: HttpResult, outcome: string, extra?: Record<string, unknown>) => HttpResult;
type Archived<T> = { ok: true; value: T } | { ok: false };

/** What every step of one request shares: its dependencies, its log line, its clock. */
interface Run {
  deps: ContactDeps;
  event: APIGatewayProxyEventV2;
  log: LoggerLike;
  /** Logs the request's one line (with its count) and returns the answer. */
  finish: Answer;
  count: (name: MetricName) => void;
  /** What is left of the request's budget. */
  remaining: () => number;
  /** An archive call's window: its timeout, leaving SES its smallest window. */
  archiveWindow: () => number;
}

/** One well-formed message's run: where it is archived, and the fields its log line carries. */
interface MessageRun extends Run {
  message: ContactMessage;
  key: string | undefined;
  id: string;
  hash: string | undefined;
  details: Record<string, unknown>;
}

function startRun(deps: ContactDeps, event: APIGatewayProxyEventV2, context: Context): Run {
  const started = deps.now();
  const log = withFields(deps.logger, requestIds(event, context));
  const finish: Answer = (response, outcome, extra = {}) => {
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
  const count = (name: MetricName) => countOrLog(deps.metrics, log, 'Archive metric could not be recorded', name);
  const remaining = () => deps.timeouts.totalMs - (deps.now() - started);
  const archiveWindow = () => Math.min(deps.timeouts.archiveMs, remaining() - MIN_SES_WINDOW_MS);
  return { deps, event, log, finish, count, remaining, archiveWindow };
}

/**
 * A counter call. When the table does not answer, the request is refused (undefined: the caller
 * answers 503), counted and logged: an uncounted request could spend the budget unseen, so a
 * broken counter closes the form rather than opening it, and the owner's alarm says so.
 */
async function guardCall<T>(run: Run, what: string, call: (options: { abortSignal: AbortSignal }) => Promise<T>): Promise<T | undefined> {
  try {
    return await call({ abortSignal: AbortSignal.timeout(Math.max(1, Math.min(COUNTER_STEP_MS, run.remaining() - MIN_SES_WINDOW_MS))) });
  } catch (error) {
    run.count(CONTACT_METRICS.countersUnavailable);
    run.log.error('The contact counters did not answer; the form answers 503 until they do', { counter: what, ...describeError(error) });
    return undefined;
  }
}

/** An archive call within its own timeout and what is left of the request; not ok when it failed. */
async function archived<T>(
  run: Run,
  what: string,
  windowMs: number,
  call: (options: { abortSignal: AbortSignal }) => Promise<T>,
): Promise<Archived<T>> {
  try {
    return { ok: true, value: await call({ abortSignal: AbortSignal.timeout(Math.max(1, windowMs)) }) };
  } catch (error) {
    run.log.warn('The message archive did not answer', { call: what, ...describeError(error) });
    return { ok: false };
  }
}

/**
 * The archive write, given what the budget allows while SES has not been tried: the first try gets
 * one call's timeout; a slow or failed try is followed by another (at most MAX_PUT_ATTEMPTS) that may
 * use all the time SES will not need (its whole window and a settling write). A try that timed out
 * may still have written: the retry then finds the item with this request's own claim, which makes
 * it ours ('created'), not another request's.
 */
async function putWithinBudget(run: Run, archive: ArchiveStore, item: ArchivedMessage): Promise<Archived<'created' | 'exists'>> {
  const spareWindow = () => run.remaining() - run.deps.timeouts.sesMs - MIN_SETTLE_MS;
  let result: Archived<'created' | 'exists'> = { ok: false };
  for (let attempt = 0; attempt < MAX_PUT_ATTEMPTS; attempt++) {
    const window = attempt === 0 ? run.archiveWindow() : spareWindow() - PUT_RETRY_PAUSE_MS * attempt;
    if (window < (attempt === 0 ? 1 : MIN_PUT_RETRY_MS)) break;
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, PUT_RETRY_PAUSE_MS * attempt));
    result = await archived(run, 'put', window, (options) => archive.put(item, options));
    if (!result.ok) continue;
    if (attempt === 0 || result.value === 'created') break;
    // Without a key the id is this request's own: only its earlier try can have written it.
    if (!item.idempotencyHash) return { ok: true, value: 'created' };
    const found = await archived(run, 'get', Math.min(run.deps.timeouts.archiveMs, spareWindow()), (options) =>
      archive.get(item.id, options),
    );
    const ours = found.ok && found.value?.claimedUntil === item.claimedUntil && found.value?.receivedAt === item.receivedAt;
    if (ours) run.log.info('The message archive took the message on a retry', { archiveId: item.id, attempts: attempt + 1 });
    return ours ? { ok: true, value: 'created' } : result;
  }
  return result;
}

/** The answer to a request whose key is already in the archive, when the archive has it now. */
async function repeatOf(run: MessageRun, archive: ArchiveStore): Promise<HttpResult | undefined> {
  const earlier = await archived(run, 'get', run.archiveWindow(), (options) => archive.get(run.id, options));
  if (!earlier.ok || !earlier.value) return undefined;
  const extra = { ...run.details, archiveId: run.id };
  return earlier.value.idempotencyHash === run.hash
    ? run.finish(accepted(), 'repeat', { ...extra, status: earlier.value.status })
    : run.finish(errorResponse(422, IDEMPOTENCY_CONFLICT), 'rejected-idempotency-conflict', extra);
}

/**
 * The flood guard of the visitor's address: after the repeat lookup (a visitor's retry of a sent
 * message costs no slot), before any other call, so a flooding address costs a conditional write or
 * two per request, nothing more. Undefined when the request may go on.
 */
async function refuseFlood(run: Run, guards: ContactGuards, details: Record<string, unknown>): Promise<HttpResult | undefined> {
  const address = limitAddress(run.event, run.deps.origin !== undefined);
  const slot = await guardCall(run, 'address', async (options) =>
    takeVisitorSlot(guards.counters, address, await guards.hashKey(run.deps.now(), options), run.deps.now(), options),
  );
  if (!slot) return run.finish(failure(503), 'counters-unavailable', details);
  if (slot.ok) {
    // Within its address's share: the request counts toward the route's circuit breaker; uncounted, it does not go on.
    const counted = await guardCall(run, 'route', (options) => countSpend(guards.counters, 'contact', run.deps.now(), options));
    return counted === undefined ? run.finish(failure(503), 'counters-unavailable', details) : undefined;
  }
  run.count(CONTACT_METRICS.addressLimited);
  // Refused either way: a count that fails is held for the next write (shared/spend.ts).
  await guards.pastShare?.().catch((error: unknown) => run.log.warn('The past-share count waits for the next write', describeError(error)));
  const tooMany = errorResponse(429, CONTACT_MESSAGES.sendFailed, { 'retry-after': String(slot.retryAfterSeconds) });
  return run.finish(tooMany, 'rejected-address-limit', details);
}

/** The month's siteverify budget, spent in daily portions. Undefined when the request may go on. */
async function refuseOverBudget(run: MessageRun, guards: ContactGuards): Promise<HttpResult | undefined> {
  const budget = await guardCall(run, 'budget', (options) =>
    takeBudgetSlot(guards.counters, guards.monthlyBudget, run.deps.now(), options),
  );
  if (!budget) return run.finish(failure(503), 'counters-unavailable', run.details);
  if (!budget.ok) {
    run.count(CONTACT_METRICS.captchaNeedsOwner);
    run.log.error(
      budget.spent === 'day'
        ? `Today's portion of the month's siteverify budget (${budget.used} of ${guards.monthlyBudget} by the end of today) is spent: ` +
            "the form answers 503 until midnight UTC, then reopens with the next day's portion. A flood of bogus tokens does this; see docs/deploy.md."
        : `The month's siteverify budget (${guards.monthlyBudget}) is spent: the form answers 503 until the month turns (UTC). ` +
            'Raise CAPTCHA_MONTHLY_BUDGET (captchaMonthlyBudget in cdk.json) if the Google Cloud project can pay for more; see docs/deploy.md.',
      { budget: guards.monthlyBudget, allowedSoFar: budget.used, spent: budget.spent },
    );
    return run.finish(failure(503), `captcha-budget-spent-${budget.spent}`, run.details);
  }
  if (budget.warn) {
    run.count(CONTACT_METRICS.captchaNeedsOwner);
    run.log.warn("The month's siteverify calls passed the warning share of the budget", {
      used: budget.used,
      budget: guards.monthlyBudget,
    });
  }
  return undefined;
}

/** siteverify's verdict on the token: how long it took when it passed, else the request's answer. */
async function verifyToken(run: MessageRun, secret: string): Promise<{ verifyMs: number } | { answer: HttpResult }> {
  const { deps, finish, details } = run;
  const verifyStarted = deps.now();
  const verdict = await verifyCaptcha({
    fetch: deps.fetch,
    url: deps.config.verifyUrl,
    secret,
    token: run.message.captchaToken,
    remoteIp: sourceIp(run.event),
    timeoutMs: Math.max(1, Math.min(deps.timeouts.verifyMs, run.remaining())),
  });
  const verifyMs = deps.now() - verifyStarted;
  const codes = { ...details, verifyMs, captchaErrorCodes: 'errorCodes' in verdict ? verdict.errorCodes : undefined };
  const verifier = 'httpStatus' in verdict && verdict.httpStatus !== undefined ? { verifierStatus: verdict.httpStatus } : {};
  switch (verdict.kind) {
    case 'passed':
      return { verifyMs };
    case 'refused': {
      // The same token twice at once: Google passes one and calls the other a duplicate. With a
      // key, the other is the same message, so wait for the first to be archived and repeat its answer.
      const archive = deps.archive;
      if (archive && run.key && verdict.errorCodes.includes('timeout-or-duplicate')) {
        const polls = Math.floor(Math.min(DUPLICATE_WAIT_MS, run.remaining() - MIN_SES_WINDOW_MS) / DUPLICATE_POLL_MS);
        for (let poll = 0; poll < polls; poll++) {
          const repeat = await repeatOf(run, archive);
          if (repeat) return { answer: repeat };
          await new Promise((resolve) => setTimeout(resolve, DUPLICATE_POLL_MS));
        }
      }
      return { answer: finish(errorResponse(403, CONTACT_MESSAGES.missingCaptcha), CAPTCHA_REFUSED, codes) };
    }
    case 'misconfigured':
      return { answer: finish(failure(503), 'captcha-misconfigured', codes) };
    case 'owner-action':
      run.count(CONTACT_METRICS.captchaNeedsOwner);
      run.log.error(OWNER_ACTION_ADVICE[verdict.reason], { captchaErrorCodes: verdict.errorCodes, ...verifier });
      return { answer: finish(failure(503), `captcha-owner-${verdict.reason}`, codes) };
    case 'unavailable':
      return {
        answer: finish(failure(verdict.reason === 'timeout' ? 504 : 502), `captcha-${verdict.reason}`, {
          ...details,
          verifyMs,
          ...verifier,
        }),
      };
  }
}

/**
 * Archives the message (holding the claim to send it: no redelivery touches it while this request
 * sends), then one SES SendEmail, then the settling write that records what SES said.
 */
async function archiveAndSend(run: MessageRun, verifyMs: number): Promise<HttpResult> {
  const { deps, finish, id } = run;
  const now = deps.now();
  const claim = now + CLAIM_MS;
  const language = readLanguage(run.event);
  const retentionDays = deps.config.retentionDays ?? DEFAULT_MESSAGE_RETENTION_DAYS;
  const item: ArchivedMessage = {
    id,
    receivedAt: new Date(now).toISOString(),
    name: run.message.fullName,
    email: run.message.email,
    message: run.message.message,
    ...(language ? { language } : {}),
    status: 'pending',
    attempts: 1,
    expiresAt: Math.floor(now / 1000) + retentionDays * 24 * 60 * 60,
    ...(run.hash ? { idempotencyHash: run.hash } : {}),
    claimedUntil: claim,
  };
  const archive = deps.archive;
  let isArchived = false;
  if (archive) {
    const put = await putWithinBudget(run, archive, item);
    if (put.ok && put.value === 'exists') {
      // Another request with this key won the race: its answer is this one's.
      const repeat = await repeatOf(run, archive);
      return repeat ?? finish(errorResponse(409, IDEMPOTENCY_IN_PROGRESS), 'idempotency-in-progress', { ...run.details, archiveId: id });
    }
    isArchived = put.ok;
    if (!put.ok) run.count(ARCHIVE_METRICS.archiveUnavailable);
  }
  /** A settling write after SES answered: failing it only delays the message (the claim runs out). */
  const settle = async (what: string, call: (store: ArchiveStore, options: { abortSignal: AbortSignal }) => Promise<boolean>) => {
    const done = await archived(run, what, Math.max(MIN_SETTLE_MS, Math.min(deps.timeouts.archiveMs, run.remaining())), (options) =>
      call(archive!, options),
    );
    if (done.ok && !done.value) run.log.warn('The message archive refused a settling write', { call: what, archiveId: id });
  };
  const sesWindow = Math.min(deps.timeouts.sesMs, run.remaining());
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
  const note = { ...run.details, verifyMs, archiveId: id, archived: isArchived, sesMs: deps.now() - sesStarted };
  if (result.kind === 'sent') {
    if (isArchived) await settle('markSent', (store, options) => store.markSent(id, claim, result.sesMessageId, options));
    return finish(accepted(), 'sent', note);
  }
  const failed = { ...note, ...describeError(result.error) };
  if (!isArchived)
    return finish(failure(result.kind === 'refused' ? 502 : sesFailureStatus(result.error, signal.aborted)), 'ses-failed', failed);
  switch (result.kind) {
    case 'refused':
      await settle('markFailed', (store, options) => store.markFailed(id, claim, result.reason, options));
      run.count(ARCHIVE_METRICS.failed);
      return finish(accepted(), 'archived-ses-refused', failed);
    case 'unavailable':
      await settle('release', (store, options) => store.release(id, claim, result.reason, options));
      return finish(accepted(), 'archived-pending', failed);
    case 'unknown':
      // SES may have sent it: keep the claim, so nothing sends it again before SES's events could tell.
      await settle('hold', (store, options) => store.hold(id, claim, `No answer from SES: ${result.reason}`, options));
      return finish(accepted(), 'archived-outcome-unknown', failed);
  }
}

/** The steps in order; the first that answers ends the request. */
async function handle(run: Run): Promise<HttpResult> {
  const { deps, event, finish } = run;
  if (deps.origin !== undefined && !(await deps.origin(event))) {
    run.count(CONTACT_METRICS.originRefused);
    return finish(originRefused(), 'rejected-origin');
  }
  // A malformed request takes a slot of its address's share too (and counts toward the breaker), so an
  // address's junk is cut off like its well-formed requests, and none of it runs on uncounted.
  const refuse = async (response: HttpResult, outcome: string) =>
    (deps.guards ? await refuseFlood(run, deps.guards, {}) : undefined) ?? finish(response, outcome);
  const checked = checkContactRequest(event);
  if (!checked.ok) return refuse(checked.response, `rejected-${checked.reason}`);
  const idempotency = readIdempotencyKey(event);
  if (!idempotency.ok) return refuse(idempotency.response, 'rejected-idempotency-key');
  const { message } = checked;
  const key = idempotency.key;
  const id = key ? archiveIdForKey(key) : (deps.newId ?? randomUUID)();
  const hash = key ? idempotencyHash(key, message) : undefined;
  // Lengths only: never the text, the name or the address (they are the visitor's).
  const details = { nameLength: message.fullName.length, messageLength: message.message.length, ...(key ? { idempotent: true } : {}) };
  const messageRun: MessageRun = { ...run, message, key, id, hash, details };

  // A repeat of a message already archived gets the first answer: no second captcha, no second mail.
  const repeat = deps.archive && key ? await repeatOf(messageRun, deps.archive) : undefined;
  if (repeat) return repeat;
  const flood = deps.guards ? await refuseFlood(messageRun, deps.guards, details) : undefined;
  if (flood) return flood;
  let secret: string;
  try {
    secret = await deps.secret.getSecret();
  } catch (error) {
    return finish(failure(503), 'secret-unavailable', { ...details, ...describeError(error) });
  }
  const overBudget = deps.guards ? await refuseOverBudget(messageRun, deps.guards) : undefined;
  if (overBudget) return overBudget;
  const verified = await verifyToken(messageRun, secret);
  if ('answer' in verified) return verified.answer;
  if (run.remaining() < MIN_SES_WINDOW_MS) return finish(failure(504), 'budget-exhausted', { ...details, verifyMs: verified.verifyMs });
  return archiveAndSend(messageRun, verified.verifyMs);
}

export function createContactHandler(deps: ContactDeps): ContactHandler {
  return async (event, context) => {
    const run = startRun(deps, event, context);
    try {
      return await handle(run);
    } catch (error) {
      // A bug, not an input: no input reaches here (the property test holds the handler to that).
      return run.finish(errorResponse(500, CONTACT_MESSAGES.sendFailed), 'unexpected-error', describeError(error));
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
    countOrLog(metrics, log, 'Contact metric could not be recorded', contactMetric(status, 'misconfigured'));
    log[status >= 500 ? 'error' : 'info']('Contact request handled', {
      outcome: checked.ok ? 'misconfigured' : `rejected-${checked.reason}`,
      statusCode: status,
    });
    return response;
  };
}
