/**
 * The scheduled redelivery (EventBridge, every REDELIVERY_INTERVAL.awsMinutes): sends what SES did
 * not take at the time (functions/archive/redeliver.ts). Answers nothing to anyone; logs one line
 * per run with the counts, and throws when the archive cannot be read, so the run counts as an error.
 */
import { SESClient } from '@aws-sdk/client-ses';
import { CONTACT_TIMEOUTS_MS } from '../../contract/limits';
import { SERVICE_NAMES } from '../../contract/metrics';
import { archiveFromEnv, mailSettingsFromEnv } from '../archive/env';
import { redeliverPending, type RedeliveryDeps, type RedeliveryReport } from '../archive/redeliver';
import { createLogger, createMetricsSink, serviceName } from '../shared/observability';
import { lazyHandler } from '../shared/entry';

function depsFromEnv(): RedeliveryDeps {
  const service = serviceName(SERVICE_NAMES.redelivery);
  return {
    archive: archiveFromEnv(),
    // One attempt: a retried SendEmail whose first try reached SES would mail twice.
    ses: new SESClient({ maxAttempts: 1, requestHandler: { connectionTimeout: 1_000, requestTimeout: CONTACT_TIMEOUTS_MS.ses } }),
    mail: mailSettingsFromEnv(),
    now: Date.now,
    logger: createLogger(service),
    metrics: createMetricsSink(service),
    sesTimeoutMs: CONTACT_TIMEOUTS_MS.ses,
    archiveTimeoutMs: CONTACT_TIMEOUTS_MS.archive,
  };
}

function createRedeliveryHandlerFromEnv(): () => Promise<RedeliveryReport> {
  const deps = depsFromEnv();
  return async () => {
    const report = await redeliverPending(deps);
    deps.logger.info('Redelivery run', { ...report });
    return report;
  };
}

/** The Lambda entry point (functions/shared/entry.ts). */
export const handler = lazyHandler(createRedeliveryHandlerFromEnv);
