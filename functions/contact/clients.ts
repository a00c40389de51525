/**
 * Builds the production contact handler from the environment, once per cold start: the SES
 * client (one attempt), the SSM-backed secret and Powertools' logger and metrics.
 */
import { SESClient } from '@aws-sdk/client-ses';
import { SSMClient } from '@aws-sdk/client-ssm';
import { CONTACT_TIMEOUTS_MS } from '../../contract/limits';
import { createDynamoClient, dynamoArchive, type ArchiveStore } from '../archive/store';
import { SERVICE_NAMES } from '../../contract/metrics';
import { createLogger, createMetricsSink, serviceName } from '../shared/observability';
import { loadContactConfig } from './config';
import {
  createContactHandler,
  createMisconfiguredContactHandler,
  DEFAULT_TIMEOUTS,
  SSM_TIMEOUT_MS,
  type ContactHandler,
  type SesLike,
} from './flow';
import { ssmSecret, staticSecret, type SsmLike } from './secret';

/** Dummy credentials for the local SES emulator, which accepts any; never used against AWS. */
const LOCAL_SES_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Clients a test may put in place of the real ones; production passes none. */
export interface ClientOverrides {
  ssm?: SsmLike;
  ses?: SesLike;
  archive?: ArchiveStore;
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
  // The archive is optional: without ARCHIVE_TABLE the function mails only, as before the archive.
  const archive =
    overrides.archive ??
    (config.archiveTable
      ? dynamoArchive({
          table: config.archiveTable,
          client: createDynamoClient({
            region: config.region,
            requestTimeoutMs: CONTACT_TIMEOUTS_MS.archive,
            ...(config.archiveEndpoint
              ? {
                  endpoint: config.archiveEndpoint,
                  ...(env.AWS_ACCESS_KEY_ID ? {} : { credentials: LOCAL_SES_CREDENTIALS }),
                }
              : {}),
          }),
        })
      : undefined);
  return createContactHandler({
    config,
    secret,
    ses,
    ...(archive ? { archive } : {}),
    fetch: (input, init) => fetch(input, init),
    now: Date.now,
    timeouts: DEFAULT_TIMEOUTS,
    logger,
    metrics,
  });
}

