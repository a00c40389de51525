/**
 * Logging and metrics for the handlers, on Powertools for AWS Lambda.
 *
 * The same module instance may serve overlapping invocations (the local server calls the handler
 * concurrently), so nothing per-request is stored on the shared Logger or Metrics objects: the
 * request ids travel with each log line, and each metric is added and flushed in one synchronous
 * step, so no other request can interleave its dimensions.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { METRICS_NAMESPACE, SERVICE_DIMENSION, type MetricName } from '../../contract/metrics';

/** The part of a logger the handlers use; Powertools' Logger fits it, so can a test double. */
export interface LoggerLike {
  debug(message: string, ...extra: Record<string, unknown>[]): void;
  info(message: string, ...extra: Record<string, unknown>[]): void;
  warn(message: string, ...extra: Record<string, unknown>[]): void;
  error(message: string, ...extra: Record<string, unknown>[]): void;
}

/**
 * Counts things; the production sink writes CloudWatch embedded metric format to stdout. Only the
 * contract's metric names are accepted, so the dashboard and alarms never read a name no one emits.
 */
export interface MetricsSink {
  count(name: MetricName, dimensions?: Record<string, string>): void;
  /**
   * The same count as fields for the request's own log line (CloudWatch embedded metric format: a JSON
   * log event with an `_aws` block is also a metric), so a request writes one line, not a log line and
   * an EMF line. Absent (test doubles): the caller counts with count().
   */
  fields?(name: MetricName, dimensions?: Record<string, string>): Record<string, unknown>;
}

/**
 * Counts `name` into the request's log line when the sink can (its fields), else on its own line.
 * Never throws: a lost count must not change the answer.
 */
export function countInLine(sink: MetricsSink, name: MetricName, onError: (error: unknown) => void): Record<string, unknown> {
  try {
    if (sink.fields) return sink.fields(name);
    sink.count(name);
  } catch (error) {
    onError(error);
  }
  return {};
}

/** Counts `name` on a line of its own; a failed count is logged as `message`, never thrown: it must not change the answer. */
export function countOrLog(
  sink: MetricsSink,
  log: LoggerLike,
  message: string,
  name: MetricName,
  dimensions?: Record<string, string>,
  extra: Record<string, unknown> = {},
): void {
  try {
    sink.count(name, dimensions);
  } catch (error) {
    log.error(message, { ...extra, ...describeError(error) });
  }
}

/**
 * The embedded-metric-format fields of one count, as Powertools writes them on a line of their own:
 * the `_aws` block naming the namespace, the dimension set and the metric, then the values. The log
 * line that carries them has `service` already (the Logger's own field, the same service name).
 * Specification: CloudWatch User Guide, "Specification: Embedded metric format",
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
 */
export function emfFields(
  namespace: string,
  values: Record<string, number>,
  unit: 'Count' | 'Milliseconds',
  dimensions: Record<string, string> = {},
): Record<string, unknown> {
  return {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: namespace,
          Dimensions: [[SERVICE_DIMENSION, ...Object.keys(dimensions)]],
          Metrics: Object.keys(values).map((Name) => ({ Name, Unit: unit })),
        },
      ],
    },
    ...dimensions,
    ...values,
  };
}

/** Records measured values (milliseconds) of the contract's metrics, several as one EMF line. */
export interface MeasureSink {
  measure(values: Partial<Record<MetricName, number>>): void;
}

export function serviceName(fallback: string): string {
  const configured = process.env.POWERTOOLS_SERVICE_NAME?.trim();
  return configured ? configured : fallback;
}

export function createLogger(service: string): Logger {
  return new Logger({ serviceName: service });
}

/**
 * Powertools Metrics with namespace POWERTOOLS_METRICS_NAMESPACE (default: the contract's namespace) and the
 * default dimension `service`. Each count is flushed at once as its own EMF line.
 */
export function createMetricsSink(service: string): MetricsSink {
  const namespace = process.env.POWERTOOLS_METRICS_NAMESPACE?.trim() || METRICS_NAMESPACE;
  const metrics = new Metrics({ namespace, serviceName: service });
  return {
    count(name, dimensions) {
      if (dimensions) metrics.addDimensions(dimensions);
      metrics.addMetric(name, MetricUnit.Count, 1);
      metrics.publishStoredMetrics();
    },
    fields: (name, dimensions) => emfFields(namespace, { [name]: 1 }, 'Count', dimensions),
  };
}

/** Powertools Metrics for measured values: every value of one call goes out in one EMF line, in milliseconds. */
export function createMeasureSink(service: string): MeasureSink {
  const namespace = process.env.POWERTOOLS_METRICS_NAMESPACE?.trim() || METRICS_NAMESPACE;
  const metrics = new Metrics({ namespace, serviceName: service });
  return {
    measure(values) {
      const entries = Object.entries(values).filter(([, value]) => typeof value === 'number');
      if (entries.length === 0) return;
      for (const [name, value] of entries) metrics.addMetric(name, MetricUnit.Milliseconds, value);
      metrics.publishStoredMetrics();
    },
  };
}

/** The ids that tie a log line to a request: API Gateway's and Lambda's. */
export function requestIds(event: APIGatewayProxyEventV2, context: Context | undefined): Record<string, string> {
  const ids: Record<string, string> = {};
  const apiRequestId: unknown = event?.requestContext?.requestId;
  if (typeof apiRequestId === 'string' && apiRequestId) ids.requestId = apiRequestId;
  const lambdaRequestId: unknown = context?.awsRequestId;
  if (typeof lambdaRequestId === 'string' && lambdaRequestId) ids.awsRequestId = lambdaRequestId;
  return ids;
}

/** A logger that adds the same fields (the request ids) to every line, without shared state. */
export function withFields(logger: LoggerLike, fields: Record<string, unknown>): LoggerLike {
  return {
    debug: (message, ...extra) => logger.debug(message, { ...fields, ...Object.assign({}, ...extra) }),
    info: (message, ...extra) => logger.info(message, { ...fields, ...Object.assign({}, ...extra) }),
    warn: (message, ...extra) => logger.warn(message, { ...fields, ...Object.assign({}, ...extra) }),
    error: (message, ...extra) => logger.error(message, { ...fields, ...Object.assign({}, ...extra) }),
  };
}

/**
 * What may be logged about a caught error: its name, code and HTTP status. Never its message,
 * which for SES can quote an address, nor its stack (which repeats the message).
 */
export function describeError(error: unknown): Record<string, unknown> {
  if (error === null || typeof error !== 'object') return { errorType: typeof error };
  const e = error as { name?: unknown; code?: unknown; cause?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const described: Record<string, unknown> = { errorName: typeof e.name === 'string' ? e.name : 'Error' };
  if (typeof e.code === 'string') described.errorCode = e.code;
  const causeCode = (e.cause as { code?: unknown } | undefined)?.code;
  if (typeof causeCode === 'string') described.causeCode = causeCode;
  if (typeof e.$metadata?.httpStatusCode === 'number') described.httpStatusCode = e.$metadata.httpStatusCode;
  return described;
}
