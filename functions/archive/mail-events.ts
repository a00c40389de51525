/**
 * SES's own word on each mail, from the configuration set's event destination (EventBridge, the
 * event record in `detail`; or SNS, the record as JSON in `Records[].Sns.Message`): the event's
 * `archiveId` tag names the message, and Send, Delivery, Bounce, Complaint and Reject set its status
 * (`sent` for a message still pending, `delivered`, `bounced`, `complained`, `failed`). Other event
 * types, events for mails we did not tag and unknown ids are skipped. Only event types and ids are
 * logged, never an address.
 *
 * Send matters most: SES publishes it once it accepted the request, so a send whose answer was lost (a
 * timeout: the message is held, not pending for the redelivery) is settled by it and never sent again.
 */
import type { EventBridgeEvent, SNSEvent } from 'aws-lambda';
import { z } from 'zod';
import { ARCHIVE_ID_MESSAGE_TAG, type SesEventType } from '../../contract/archive';
import { ARCHIVE_METRICS, type ArchiveMetric } from '../../contract/metrics';
import { countOrLog, type LoggerLike, type MetricsSink } from '../shared/observability';
import type { ArchiveStore, EventStatus } from './store';

export interface MailEventsDeps {
  archive: ArchiveStore;
  logger: LoggerLike;
  metrics: MetricsSink;
  archiveTimeoutMs: number;
}

/** The fields of SES's event record we read (SES Developer Guide, "Contents of event data that Amazon SES publishes to Amazon SNS"). */
const SesEvent = z.object({
  eventType: z.string(),
  mail: z.object({ tags: z.record(z.string(), z.array(z.string())).optional() }),
  bounce: z.object({ bounceType: z.string().optional(), bounceSubType: z.string().optional() }).optional(),
  complaint: z.object({ complaintFeedbackType: z.string().optional(), complaintSubType: z.string().nullish() }).optional(),
  reject: z.object({ reason: z.string().optional() }).optional(),
});
type SesEvent = z.infer<typeof SesEvent>;

interface Outcome {
  status: EventStatus;
  /** None for Send: every accepted mail has one, and the contact and redelivery metrics count those. */
  metric?: ArchiveMetric;
  detail?: string;
}

function outcomeOf(event: SesEvent): Outcome | undefined {
  switch (event.eventType as SesEventType) {
    case 'Send':
      return { status: 'sent' };
    case 'Delivery':
      return { status: 'delivered', metric: ARCHIVE_METRICS.delivered };
    case 'Bounce': {
      const kind = [event.bounce?.bounceType, event.bounce?.bounceSubType].filter(Boolean).join('/');
      return { status: 'bounced', metric: ARCHIVE_METRICS.bounced, detail: `Bounce${kind ? `: ${kind}` : ''}` };
    }
    case 'Complaint': {
      const kind = event.complaint?.complaintFeedbackType;
      return { status: 'complained', metric: ARCHIVE_METRICS.complained, detail: `Complaint${kind ? `: ${kind}` : ''}` };
    }
    case 'Reject':
      return { status: 'failed', metric: ARCHIVE_METRICS.failed, detail: `Reject: ${event.reject?.reason ?? 'no reason given'}` };
    default:
      return undefined;
  }
}

export interface MailEventsReport {
  applied: number;
  skipped: number;
}

/** What SES's event destinations deliver: EventBridge's event (one record) or SNS's notification (a batch). */
export type MailEvent = SNSEvent | EventBridgeEvent<string, unknown>;

/** The SES records in either shape, unparsed. */
function recordsOf(event: MailEvent): { id: unknown; read: () => unknown }[] {
  if (event && 'Records' in event && Array.isArray(event.Records)) {
    return event.Records.map((r) => ({ id: r?.Sns?.MessageId, read: () => JSON.parse(r?.Sns?.Message ?? '') as unknown }));
  }
  if (event && 'detail' in event) return [{ id: event.id, read: () => event.detail }];
  return [];
}

export function createMailEventsHandler(deps: MailEventsDeps): (event: MailEvent) => Promise<MailEventsReport> {
  return async (event) => {
    const report: MailEventsReport = { applied: 0, skipped: 0 };
    for (const record of recordsOf(event)) {
      let parsed: SesEvent;
      try {
        const result = SesEvent.safeParse(record.read());
        if (!result.success) throw new Error('not an SES event record');
        parsed = result.data;
      } catch {
        report.skipped += 1;
        deps.logger.warn('Skipped a notification that is not an SES event record', { notificationId: record.id });
        continue;
      }
      const outcome = outcomeOf(parsed);
      const archiveId = parsed.mail.tags?.[ARCHIVE_ID_MESSAGE_TAG]?.[0];
      if (!outcome || !archiveId) {
        report.skipped += 1;
        deps.logger.info('Skipped an SES event', { eventType: parsed.eventType, tagged: Boolean(archiveId) });
        continue;
      }
      // An archive failure throws: Lambda retries the invocation (twice, then the on-failure queue and its
      // alarm; infra/lib/mail-events.ts), and a repeat is harmless (the status update is conditional).
      const applied = await deps.archive.setEventStatus(archiveId, outcome.status, outcome.detail, {
        abortSignal: AbortSignal.timeout(deps.archiveTimeoutMs),
      });
      if (outcome.metric) countOrLog(deps.metrics, deps.logger, 'Mail event metric could not be recorded', outcome.metric);
      if (applied) report.applied += 1;
      else report.skipped += 1;
      deps.logger.info(applied ? 'Mail event applied' : 'Mail event left the message as it was', {
        eventType: parsed.eventType,
        archiveId,
        status: outcome.status,
      });
    }
    return report;
  };
}
