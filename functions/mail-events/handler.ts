/**
 * SES's events for each mail (the configuration set's EventBridge or SNS destination) set the archived message's
 * status: functions/archive/mail-events.ts. One line per notification, no address logged.
 */
import { CONTACT_TIMEOUTS_MS } from '../../contract/limits';
import { SERVICE_NAMES } from '../../contract/metrics';
import { archiveFromEnv } from '../archive/env';
import { createMailEventsHandler, type MailEvent, type MailEventsReport } from '../archive/mail-events';
import { createLogger, createMetricsSink, serviceName } from '../shared/observability';
import { lazyHandler } from '../shared/entry';

function createMailEventsHandlerFromEnv(): (event: MailEvent) => Promise<MailEventsReport> {
  const service = serviceName(SERVICE_NAMES.mailEvents);
  return createMailEventsHandler({
    archive: archiveFromEnv(),
    logger: createLogger(service),
    metrics: createMetricsSink(service),
    archiveTimeoutMs: CONTACT_TIMEOUTS_MS.archive,
  });
}

/** The Lambda entry point (functions/shared/entry.ts). */
export const handler = lazyHandler(createMailEventsHandlerFromEnv);
