/**
 * Test doubles for the handlers' tests: API Gateway events, a Lambda context, and recorders for
 * logs and metrics. Only tests import this file.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { MetricName } from '../../contract/metrics';
import type { LoggerLike, MeasureSink, MetricsSink } from './observability';

export interface EventOptions {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  isBase64Encoded?: boolean;
  sourceIp?: string;
  requestId?: string;
}

export function apiEvent(options: EventOptions = {}): APIGatewayProxyEventV2 {
  const method = options.method ?? 'POST';
  const path = options.path ?? '/api/contact';
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: options.headers ?? { 'content-type': 'application/json' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'example.test',
      domainPrefix: 'example',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: options.sourceIp ?? '203.0.113.7', userAgent: 'test' },
      requestId: options.requestId ?? 'api-request-1',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: '22/Nov/2026:05:00:00 +0000',
      timeEpoch: 1_795_000_000_000,
    },
    body: options.body,
    isBase64Encoded: options.isBase64Encoded ?? false,
  };
}

export function lambdaContext(awsRequestId = 'lambda-request-1'): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'contact',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:contact',
    memoryLimitInMB: '256',
    awsRequestId,
    logGroupName: '/aws/lambda/contact',
    logStreamName: 'stream',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

export class RecordingLogger implements LoggerLike {
  readonly lines: LogLine[] = [];
  readonly debug = (message: string, ...extra: Record<string, unknown>[]): void => this.record('debug', message, extra);
  readonly info = (message: string, ...extra: Record<string, unknown>[]): void => this.record('info', message, extra);
  readonly warn = (message: string, ...extra: Record<string, unknown>[]): void => this.record('warn', message, extra);
  readonly error = (message: string, ...extra: Record<string, unknown>[]): void => this.record('error', message, extra);
  /** Everything logged, as one string, to search for what must never be there. */
  text(): string {
    return JSON.stringify(this.lines);
  }
  private record(level: LogLine['level'], message: string, extra: Record<string, unknown>[]): void {
    this.lines.push({ level, message, fields: Object.assign({}, ...extra) });
  }
}

export class RecordingMetrics implements MetricsSink {
  readonly counts: { name: MetricName; dimensions?: Record<string, string> }[] = [];
  count(name: MetricName, dimensions?: Record<string, string>): void {
    this.counts.push(dimensions ? { name, dimensions } : { name });
  }
  names(): MetricName[] {
    return this.counts.map((c) => c.name);
  }
}

export class RecordingMeasures implements MeasureSink {
  readonly lines: Partial<Record<MetricName, number>>[] = [];
  measure(values: Partial<Record<MetricName, number>>): void {
    this.lines.push({ ...values });
  }
}

/** Resolves after ms milliseconds of real time. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
