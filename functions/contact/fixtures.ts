/**
 * A contact handler wired to fakes, for the tests: a siteverify stand-in (fetch), an SES stand-in
 * that records every SendEmail it is asked for, a secret provider, recorded logs and metrics.
 * Only tests import this file.
 */
import type { SendEmailCommandInput } from '@aws-sdk/client-ses';
import type { ArchiveStore } from '../archive/store';
import { apiEvent, RecordingLogger, RecordingMetrics, type EventOptions } from '../shared/test-support';
import { staticOriginCheck } from '../shared/origin';
import { createContactHandler, DEFAULT_TIMEOUTS, type ContactHandler, type ContactGuards, type ContactTimeouts } from './flow';
import type { FetchLike } from './recaptcha';
import { staticSecret, type SecretProvider } from './secret';

export const OWNER = 'owner@example.com';
export const SENDER = 'portfolio@example.com';
export const SECRET = 'test-secret-value-9f8e7d';
export const VERIFY_URL = 'https://verify.example.test/siteverify';
export const NOW = Date.UTC(2026, 10, 22, 5, 30, 0);

export const VALID_BODY = {
  fullName: 'José Álvarez',
  email: 'jose.alvarez@example.com',
  message: 'Hello <b>there</b> & "friends" — let\'s talk about a project.',
  'g-recaptcha-response': 'captcha-token-abc123',
};

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** siteverify fakes. */
export const verifier = {
  passes: (): Promise<Response> => Promise.resolve(jsonResponse({ success: true, hostname: 'testkey.google.com' })),
  refuses: (codes: string[] = ['invalid-input-response']): Promise<Response> =>
    Promise.resolve(jsonResponse({ success: false, 'error-codes': codes })),
  /** Never answers; like real fetch, gives up when the request's signal aborts. */
  hangs: (_url: string, init: RequestInit): Promise<Response> =>
    new Promise((_resolve, reject) => {
      const signal = init.signal;
      if (!signal) return;
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    }),
};

export type SesBehaviour = (input: SendEmailCommandInput, signal: AbortSignal | undefined) => Promise<unknown>;

export const sesBehaviour = {
  accepts: (): Promise<unknown> => Promise.resolve({ MessageId: 'message-1' }),
  fails:
    (name: string, httpStatusCode = 400): SesBehaviour =>
    () =>
      Promise.reject(Object.assign(new Error(`SES says no to ${VALID_BODY.email}`), { name, $metadata: { httpStatusCode } })),
  hangs: (_input: SendEmailCommandInput, signal: AbortSignal | undefined): Promise<unknown> =>
    new Promise((_resolve, reject) => {
      signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })), {
        once: true,
      });
    }),
};

export interface FixtureOptions {
  verify?: FetchLike;
  ses?: SesBehaviour;
  secret?: SecretProvider;
  timeouts?: Partial<ContactTimeouts>;
  now?: () => number;
  /** The message archive (a FakeArchive); none: mail only, as before the archive. */
  archive?: ArchiveStore;
  retentionDays?: number;
  configurationSet?: string;
  /** The flood guards (memoryCounters() in tests); none: no per-address limit or budget. */
  guards?: ContactGuards;
  /** CloudFront's origin header value the handler demands (a staticOriginCheck). */
  originSecret?: string;
}

export interface Fixture {
  handler: ContactHandler;
  logger: RecordingLogger;
  metrics: RecordingMetrics;
  /** Every SendEmail the handler asked for, sent or not. */
  sesCalls: SendEmailCommandInput[];
  verifyCalls: { url: string; init: RequestInit; form: URLSearchParams }[];
}

export function contactFixture(options: FixtureOptions = {}): Fixture {
  const logger = new RecordingLogger();
  const metrics = new RecordingMetrics();
  const sesCalls: SendEmailCommandInput[] = [];
  const verifyCalls: Fixture['verifyCalls'] = [];
  const verify = options.verify ?? verifier.passes;
  const handler = createContactHandler({
    config: {
      ownerEmail: OWNER,
      senderEmail: SENDER,
      verifyUrl: VERIFY_URL,
      ...(options.retentionDays ? { retentionDays: options.retentionDays } : {}),
      ...(options.configurationSet ? { configurationSet: options.configurationSet } : {}),
    },
    ...(options.archive ? { archive: options.archive } : {}),
    ...(options.guards ? { guards: options.guards } : {}),
    ...(options.originSecret ? { origin: staticOriginCheck(options.originSecret) } : {}),
    secret: options.secret ?? staticSecret(SECRET),
    ses: {
      send(command, sendOptions) {
        sesCalls.push(command.input);
        return (options.ses ?? sesBehaviour.accepts)(command.input, sendOptions?.abortSignal);
      },
    },
    fetch: (url, init) => {
      verifyCalls.push({ url, init, form: new URLSearchParams(String(init.body)) });
      return verify(url, init);
    },
    now: options.now ?? (() => Date.now()),
    timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
    logger,
    metrics,
  });
  return { handler, logger, metrics, sesCalls, verifyCalls };
}

export function contactEvent(body: unknown, options: EventOptions = {}): ReturnType<typeof apiEvent> {
  return apiEvent({ body: typeof body === 'string' ? body : JSON.stringify(body), ...options });
}

/** Parses a handler answer's JSON body. */
export function bodyOf(result: { body?: string }): Record<string, unknown> {
  return JSON.parse(result.body ?? '') as Record<string, unknown>;
}
