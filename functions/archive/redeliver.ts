/**
 * One redelivery run: every pending message, oldest first, is claimed (a conditional write, so two
 * runs, or a run and the contact function, never both send it), sent, and settled: `sent`, `failed`
 * for a refusal a retry cannot fix, or back to `pending` with the reason. A message pending longer
 * than the give-up time is marked `failed` and counted, which alarms the owner. The same code runs
 * on the AWS schedule and inside `npm start`.
 */
import { REDELIVERY_GIVE_UP_MS } from '../../contract/archive';
import { ARCHIVE_METRICS } from '../../contract/metrics';
import { countOrLog, describeError, type LoggerLike, type MetricsSink } from '../shared/observability';
import { CLAIM_MS, sendArchived, type MailSettings, type SesLike } from './delivery';
import type { ArchiveStore } from './store';

export interface RedeliveryDeps {
  archive: ArchiveStore;
  ses: SesLike;
  mail: MailSettings;
  now: () => number;
  logger: LoggerLike;
  metrics: MetricsSink;
  /** One SendEmail call. */
  sesTimeoutMs: number;
  /** One archive call. */
  archiveTimeoutMs: number;
  giveUpMs?: number;
  /** Messages looked at per run (the rest wait for the next run). */
  batchSize?: number;
  /** Sends in flight at once. */
  concurrency?: number;
}

export interface RedeliveryReport {
  pending: number;
  sent: number;
  refused: number;
  gaveUp: number;
  stillPending: number;
  /** SES did not answer (it may have sent): held until its events tell or the claim ends. */
  unknown: number;
  /** Claimed by another sender, or settled meanwhile. */
  skipped: number;
}

/** Per run: 50 at four at a time fit the 60 s function even if every send takes its full 3 s. */
export const DEFAULT_BATCH_SIZE = 50;
const DEFAULT_CONCURRENCY = 4;

export async function redeliverPending(deps: RedeliveryDeps): Promise<RedeliveryReport> {
  const giveUpMs = deps.giveUpMs ?? REDELIVERY_GIVE_UP_MS;
  const timeout = () => ({ abortSignal: AbortSignal.timeout(deps.archiveTimeoutMs) });
  const report: RedeliveryReport = { pending: 0, sent: 0, refused: 0, gaveUp: 0, stillPending: 0, unknown: 0, skipped: 0 };
  const count = (name: (typeof ARCHIVE_METRICS)[keyof typeof ARCHIVE_METRICS]) =>
    countOrLog(deps.metrics, deps.logger, 'Redelivery metric could not be recorded', name);

  const pending = await deps.archive.listPending(deps.batchSize ?? DEFAULT_BATCH_SIZE, timeout());
  report.pending = pending.length;

  const one = async (id: string): Promise<void> => {
    const now = deps.now();
    const claim = now + CLAIM_MS;
    const message = await deps.archive.claim(id, now, claim, timeout());
    if (!message) {
      report.skipped += 1;
      return;
    }
    // A message the owner resent gets the whole give-up time again from the moment it was resent.
    const age = now - Date.parse(message.pendingSince ?? message.receivedAt);
    if (age > giveUpMs) {
      const hours = Math.round(giveUpMs / 3_600_000);
      const last = message.lastError ? ` (last: ${message.lastError})` : '';
      if (await deps.archive.markFailed(id, claim, `Gave up: not sent within ${hours} hours${last}`, timeout())) {
        report.gaveUp += 1;
        count(ARCHIVE_METRICS.failed);
        deps.logger.warn('Gave up on a message', { archiveId: id, attempts: message.attempts, ageMs: age });
      }
      return;
    }
    const result = await sendArchived(deps.ses, message, deps.mail, AbortSignal.timeout(deps.sesTimeoutMs));
    switch (result.kind) {
      case 'sent':
        await deps.archive.markSent(id, claim, result.sesMessageId, timeout());
        report.sent += 1;
        count(ARCHIVE_METRICS.redelivered);
        deps.logger.info('Redelivered a message', { archiveId: id, attempts: message.attempts });
        return;
      case 'refused':
        await deps.archive.markFailed(id, claim, result.reason, timeout());
        report.refused += 1;
        count(ARCHIVE_METRICS.failed);
        deps.logger.warn('SES refused a message for good', { archiveId: id, attempts: message.attempts, ...describeError(result.error) });
        return;
      case 'unknown':
        await deps.archive.hold(id, claim, `No answer from SES: ${result.reason}`, timeout());
        report.unknown += 1;
        deps.logger.warn('SES did not answer; the message waits for its events', { archiveId: id, ...describeError(result.error) });
        return;
      case 'unavailable':
        await deps.archive.release(id, claim, result.reason, timeout());
        report.stillPending += 1;
        deps.logger.info('A message is still pending', { archiveId: id, attempts: message.attempts, ...describeError(result.error) });
        return;
    }
  };

  // A few at a time: SES's sending rate is the limit, and one slow send must not hold up the rest.
  const queue = pending.map((item) => item.id);
  const workers = Array.from({ length: Math.min(deps.concurrency ?? DEFAULT_CONCURRENCY, queue.length) }, async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        await one(id);
      } catch (error) {
        // The archive failed mid-way: the claim runs out and a later run takes the message again.
        report.stillPending += 1;
        deps.logger.error('Redelivery of a message failed', { archiveId: id, ...describeError(error) });
      }
    }
  });
  await Promise.all(workers);
  return report;
}

export interface RedeliveryLoop {
  /** Runs one redelivery now (or waits for the one running) and returns its report. */
  runNow(): Promise<RedeliveryReport | undefined>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * The schedule outside AWS (`npm start`): one run at start, then one every intervalMs, never two at
 * once. A failed run is logged and the next one tries again.
 */
export function startRedeliveryLoop(deps: RedeliveryDeps, intervalMs: number): RedeliveryLoop {
  let running: Promise<RedeliveryReport | undefined> | undefined;
  let stopped = false;
  const run = (): Promise<RedeliveryReport | undefined> => {
    running ??= redeliverPending(deps)
      .catch((error: unknown) => {
        deps.logger.error('Redelivery run failed', describeError(error));
        return undefined;
      })
      .finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => {
    if (!stopped) void run();
  }, intervalMs);
  timer.unref();
  void run();
  return {
    runNow: () => (stopped ? Promise.resolve(undefined) : run()),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
