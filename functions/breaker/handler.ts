/**
 * The circuit breaker's Lambda, run every BREAKER_CHECK_MINUTES by EventBridge: reads each route's
 * counted requests of the day (the handlers' day counters in the counters' table, one GetItem per
 * route), turns a route down or back up on the HTTP API's stage (run.ts), and deletes the finished
 * day's hash key.
 */
import { ApiGatewayV2Client, GetStageCommand, UpdateStageCommand } from '@aws-sdk/client-apigatewayv2';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { createDynamoClient } from '../archive/store';
import { counterKeyId, dynamoCounters, previousUtcDay, utcDay } from '../shared/counters';
import { createLogger, describeError, serviceName } from '../shared/observability';
import { readSpend } from '../shared/spend';
import { utcDayStart } from '../../contract/breaker';
import { parseBreakerEnv } from './env';
import { runBreaker, type BreakerDeps } from './run';
import { lazyHandler } from '../shared/entry';

function createBreakerHandlerFromEnv(): () => Promise<void> {
  const logger = createLogger(serviceName('breaker'));
  const env = parseBreakerEnv(process.env);
  const counters = dynamoCounters({ table: env.table, client: createDynamoClient({ requestTimeoutMs: 3_000 }) });
  const apigateway = new ApiGatewayV2Client({});
  const sns = new SNSClient({});
  const deps: BreakerDeps = {
    now: () => Date.now(),
    countRequests: (counter, now) => readSpend(counters, counter, now),
    forgetYesterdaysKey: async (now) => {
      // In the day's first hour only (every run of it, in case one fails): a delete costs a write even when there is nothing to delete.
      if (now - utcDayStart(now) >= 60 * 60 * 1000) return;
      try {
        await counters.forget(counterKeyId(previousUtcDay(utcDay(now))));
      } catch (error) {
        logger.error("Yesterday's hash key could not be deleted; the next run tries again", describeError(error));
      }
    },
    readThrottles: async () => {
      const stage = await apigateway.send(new GetStageCommand({ ApiId: env.apiId, StageName: env.stageName }));
      return Object.fromEntries(
        Object.entries(stage.RouteSettings ?? {}).map(([key, s]) => [
          key,
          { rateLimit: s.ThrottlingRateLimit, burstLimit: s.ThrottlingBurstLimit },
        ]),
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
  return async () => {
    try {
      const outcomes = await runBreaker(env.routes, deps, env.pastShareDaily);
      // One line per run only when something changed: a quiet day writes nothing.
      const changed = outcomes.filter((o) => o.action !== 'none');
      if (changed.length > 0) logger.warn('Circuit breaker changed a route', { changed });
    } catch (error) {
      logger.error('Circuit breaker run failed; every route left as it was', describeError(error));
      throw error;
    }
  };
}

/** The Lambda entry point (functions/shared/entry.ts). */
export const handler = lazyHandler(createBreakerHandlerFromEnv);
