/**
 * The circuit breaker's Lambda, run every BREAKER_CHECK_MINUTES by EventBridge: counts each route
 * function's invocations of the day (CloudWatch's free Lambda metrics, one GetMetricStatistics call
 * per route) and turns a route down or back up on the HTTP API's stage (run.ts).
 */
import { ApiGatewayV2Client, GetStageCommand, UpdateStageCommand } from '@aws-sdk/client-apigatewayv2';
import { CloudWatchClient, GetMetricStatisticsCommand } from '@aws-sdk/client-cloudwatch';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { createLogger, describeError, serviceName } from '../shared/observability';
import { parseBreakerEnv } from './env';
import { runBreaker, type BreakerDeps } from './run';

const logger = createLogger(serviceName('breaker'));
const cloudwatch = new CloudWatchClient({});
const apigateway = new ApiGatewayV2Client({});
const sns = new SNSClient({});

export async function handler(): Promise<void> {
  const env = parseBreakerEnv(process.env);
  const deps: BreakerDeps = {
    now: () => Date.now(),
    countInvocations: async (functionName, start, end) => {
      const answer = await cloudwatch.send(
        new GetMetricStatisticsCommand({
          Namespace: 'AWS/Lambda',
          MetricName: 'Invocations',
          Dimensions: [{ Name: 'FunctionName', Value: functionName }],
          StartTime: new Date(start),
          EndTime: new Date(end),
          // Hourly sums: at most 24 datapoints a day (the call returns up to 1,440).
          Period: 3600,
          Statistics: ['Sum'],
        }),
      );
      return (answer.Datapoints ?? []).reduce((sum, point) => sum + (point.Sum ?? 0), 0);
    },
    readThrottles: async () => {
      const stage = await apigateway.send(new GetStageCommand({ ApiId: env.apiId, StageName: env.stageName }));
      return Object.fromEntries(
        Object.entries(stage.RouteSettings ?? {}).map(([key, s]) => [key, { rateLimit: s.ThrottlingRateLimit, burstLimit: s.ThrottlingBurstLimit }]),
      );
    },
    setThrottle: async (routeKey, throttle) => {
      // The whole map, with this route changed: the other routes keep what they have (tripped or not).
      const stage = await apigateway.send(new GetStageCommand({ ApiId: env.apiId, StageName: env.stageName }));
      const settings = { ...stage.RouteSettings };
      settings[routeKey] = { ...settings[routeKey], ThrottlingRateLimit: throttle.rateLimit, ThrottlingBurstLimit: throttle.burstLimit };
      await apigateway.send(new UpdateStageCommand({ ApiId: env.apiId, StageName: env.stageName, RouteSettings: settings }));
    },
    notify: async (subject, message) => {
      await sns.send(new PublishCommand({ TopicArn: env.topicArn, Subject: subject, Message: message }));
    },
  };
  try {
    const outcomes = await runBreaker(env.routes, deps);
    // One line per run only when something changed: a quiet day writes nothing.
    const changed = outcomes.filter((o) => o.action !== 'none');
    if (changed.length > 0) logger.warn('Circuit breaker changed a route', { changed });
  } catch (error) {
    logger.error('Circuit breaker run failed; every route left as it was', describeError(error));
    throw error;
  }
}

