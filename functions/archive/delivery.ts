/**
 * Sending one archived message with SES, shared by the contact function and the redelivery: the
 * mail (with the configuration set and the archive-id tag, so SES's events find the message), and
 * what SES's answer means for the message: sent, refused for good (`failed`, with SES's reason),
 * or not taken this time (stays `pending` for the redelivery).
 */
import { SendEmailCommand, type SendEmailCommandInput } from '@aws-sdk/client-ses';
import { ARCHIVE_ID_MESSAGE_TAG } from '../../contract/archive';
import { buildContactEmail, type MailAddresses } from '../mail/email';
import type { ArchivedMessage } from './store';

/** The part of SESClient the senders use; tests pass a fake that records calls. */
export interface SesLike {
  send(command: SendEmailCommand, options?: { abortSignal?: AbortSignal }): Promise<unknown>;
}

export interface MailSettings extends MailAddresses {
  /** SES configuration set named on every send (its event destination reports deliveries, bounces, complaints). */
  configurationSet?: string;
}

/**
 * SES message tag values: ASCII letters, digits, `_` and `-`, at most 256 characters (SES API
 * Reference, MessageTag). Our ids are UUIDs; anything else is not tagged rather than refused by SES.
 */
const TAG_VALUE = /^[A-Za-z0-9_-]{1,256}$/;

/** The SendEmail request for an archived message. */
export function archivedMail(message: ArchivedMessage, settings: MailSettings): SendEmailCommandInput {
  const input = buildContactEmail(
    { fullName: message.name, email: message.email, message: message.message },
    settings,
    new Date(message.receivedAt),
    message.language,
  );
  return {
    ...input,
    ...(settings.configurationSet ? { ConfigurationSetName: settings.configurationSet } : {}),
    ...(TAG_VALUE.test(message.id) ? { Tags: [{ Name: ARCHIVE_ID_MESSAGE_TAG, Value: message.id }] } : {}),
  };
}

/**
 * SES errors a retry cannot fix (SES API Reference, SendEmail errors): the message itself was
 * refused (MessageRejected: also an unverified address in the sandbox), the MAIL FROM domain has no
 * MX record, or a parameter is invalid. Throttling, 5xx, timeouts, a paused account or configuration
 * set: the owner or time can fix those, so the message stays pending and the redelivery tries again.
 */
const PERMANENT_SES_ERRORS = new Set([
  'MessageRejected',
  'MailFromDomainNotVerified',
  'MailFromDomainNotVerifiedException',
  'InvalidParameterValue',
]);

export type SendResult =
  | { kind: 'sent'; sesMessageId: string }
  | { kind: 'refused'; reason: string; error: unknown }
  | { kind: 'unavailable'; reason: string; error: unknown }
  /** No answer (a timeout, a dropped connection): SES may have sent it. Sending again could mail twice. */
  | { kind: 'unknown'; reason: string; error: unknown };

/** Errors after which the request may have reached SES and been sent: no answer is not a "no". */
const OUTCOME_UNKNOWN = new Set(['AbortError', 'TimeoutError', 'RequestTimeout', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

export function isOutcomeUnknown(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown; cause?: { code?: unknown } } | null;
  if (e?.code === 'ECONNREFUSED' || e?.cause?.code === 'ECONNREFUSED') return false; // never reached SES
  return [e?.name, e?.code, e?.cause?.code].some((v) => typeof v === 'string' && OUTCOME_UNKNOWN.has(v));
}

/** An error's name and SES's message, for the archive's `lastError` (the owner's view, never a log line). */
export function reasonOf(error: unknown): string {
  const e = error as { name?: unknown; message?: unknown } | null;
  const name = typeof e?.name === 'string' ? e.name : 'Error';
  const message = typeof e?.message === 'string' && e.message && e.message !== name ? `: ${e.message}` : '';
  return `${name}${message}`;
}

export function isPermanentSesError(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && PERMANENT_SES_ERRORS.has(name);
}

/** One SendEmail call; never throws. */
export async function sendArchived(
  ses: SesLike,
  message: ArchivedMessage,
  settings: MailSettings,
  signal: AbortSignal,
): Promise<SendResult> {
  try {
    const output = (await ses.send(new SendEmailCommand(archivedMail(message, settings)), { abortSignal: signal })) as {
      MessageId?: unknown;
    };
    return { kind: 'sent', sesMessageId: typeof output?.MessageId === 'string' ? output.MessageId : 'unknown' };
  } catch (error) {
    const reason = reasonOf(error);
    if (isPermanentSesError(error)) return { kind: 'refused', reason, error };
    if (signal.aborted || isOutcomeUnknown(error)) return { kind: 'unknown', reason, error };
    return { kind: 'unavailable', reason, error };
  }
}

/**
 * How long a sender's claim lasts. A send that got an answer settles or releases the message at
 * once; a claim runs out only when its sender died or SES did not answer (a timeout: it may have
 * sent). Then the claim is kept, and SES's Send event, published once SES accepted the request (not
 * after delivery, which SES may retry for hours), marks the message sent; only a message still
 * pending when the claim ends is sent again. SES publishes its events on a best-effort basis
 * (EventBridge events reference, "Amazon Simple Email Service events"), so a Send event lost or later
 * than this can still mean a second mail: the rare price of never losing one.
 */
export const CLAIM_MS = 10 * 60_000;
