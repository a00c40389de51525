/**
 * Builds the production contact handler from the environment, once per cold start: the SES
 * client (one attempt), the SSM-backed secret and Powertools' logger and metrics.
 */
import { SESClient } from '@aws-sdk/client-ses';
import { SSMClient } from '@aws-sdk/client-ssm';
import { CONTACT_TIMEOUTS_MS } from '../../contract/limits';
import { createDynamoClient, dynamoArchive, type ArchiveStore } from '../archive/store';
import { SERVICE_NAMES } from '../../contract/metrics';
import { createLogger, createMetricsSink, describeError, serviceName, type LoggerLike, type MetricsSink } from '../shared/observability';
import { originCheckFromEnv, type OriginCheck, type SecretsManagerLike } from '../shared/origin';
import { loadContactConfig, type ContactConfig } from './config';
import { counterKeys, dynamoCounters, type CounterStore } from './limits';
import { pastShareCounter } from '../shared/spend';
import {
  createContactHandler,
  createMisconfiguredContactHandler,
  DEFAULT_TIMEOUTS,
  SSM_TIMEOUT_MS,
  type ContactDeps,
  type ContactHandler,
  type SesLike,
} from './flow';
import { ssmSecret, staticSecret, type SsmLike } from './secret';

/** Dummy credentials for the local SES emulator, which accepts any; never used against AWS. */
const LOCAL_SES_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Clients a test (or the local stack) may put in place of the ones built from the configuration. */
export interface ClientOverrides {
  ssm?: SsmLike | undefined;
  ses?: SesLike | undefined;
  archive?: ArchiveStore | undefined;
  /** The flood counters; the local stack passes its dynalite's. */
  counters?: CounterStore | undefined;
  /** Secrets Manager, for the origin secret (ORIGIN_SECRET_ARN). */
  secretsManager?: SecretsManagerLike;
  /** The handler's clock; default Date.now (the benchmark's distributed flood moves it a day on). */
  now?: (() => number) | undefined;
}

/**
 * Every dependency of the contact handler, from a checked configuration: the one place both Lambda
 * (createContactHandlerFromEnv) and the local stack (infra/local/api-gateway.ts) build them, so the
 * local SES client has Lambda's attempts and timeouts and the same flood guards.
 */
export function buildContactDeps(
  config: ContactConfig,
  options: {
    logger: LoggerLike;
    metrics: MetricsSink;
    overrides?: ClientOverrides;
    hasAwsCredentials: boolean;
    /** CloudFront's origin check (functions/shared/origin.ts); none: the local stack. */
    origin?: OriginCheck | undefined;
  },
): ContactDeps {
  const { overrides = {}, hasAwsCredentials } = options;
  const localCredentials = hasAwsCredentials ? {} : { credentials: LOCAL_SES_CREDENTIALS };
  // One attempt only: a retried SendEmail whose first try reached SES would mail twice.
  const ses =
    overrides.ses ??
    new SESClient({
      region: config.region,
      maxAttempts: 1,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: DEFAULT_TIMEOUTS.sesMs },
      ...(config.sesEndpoint ? { endpoint: config.sesEndpoint, ...localCredentials } : {}),
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
  const dynamo = config.archiveTable
    ? createDynamoClient({
        region: config.region,
        requestTimeoutMs: CONTACT_TIMEOUTS_MS.archive,
        ...(config.archiveEndpoint ? { endpoint: config.archiveEndpoint, ...localCredentials } : {}),
      })
    : undefined;
  const archive =
    overrides.archive ?? (dynamo && config.archiveTable ? dynamoArchive({ table: config.archiveTable, client: dynamo }) : undefined);
  // The counters share the archive's table (functions/contact/limits.ts says why).
  const counters =
    overrides.counters ?? (dynamo && config.archiveTable ? dynamoCounters({ table: config.archiveTable, client: dynamo }) : undefined);
  return {
    config,
    secret,
    ses,
    ...(archive ? { archive } : {}),
    ...(counters
      ? {
          guards: {
            counters,
            hashKey: counterKeys(counters),
            monthlyBudget: config.captchaMonthlyBudget,
            pastShare: pastShareCounter(counters, overrides.now ?? Date.now),
          },
        }
      : {}),
    ...(options.origin ? { origin: options.origin } : {}),
    fetch: (input, init) => fetch(input, init),
    now: overrides.now ?? Date.now,
    timeouts: DEFAULT_TIMEOUTS,
    logger: options.logger,
    metrics: options.metrics,
  };
}

/** Builds the production handler from the environment (once per cold start). */
export function createContactHandlerFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: ClientOverrides = {}): ContactHandler {
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
  const origin = originCheckFromEnv(
    env,
    (error) => logger.error('The origin secret could not be read; requests are refused', describeError(error)),
    overrides.secretsManager,
  );
  return createContactHandler(
    buildContactDeps(loaded.config, { logger, metrics, overrides, hasAwsCredentials: Boolean(env.AWS_ACCESS_KEY_ID), origin }),
  );
}
