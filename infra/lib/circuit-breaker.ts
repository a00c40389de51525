import { Arn, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { API_ROUTES } from '../../contract/api-routes';
import {
  BREAKER_CHECK_MINUTES,
  BREAKER_ENV,
  PAST_SHARE_DAILY_REQUESTS,
  type BreakerRoute,
  type BreakerRouteSettings,
} from '../../contract/breaker';
import type { HttpApi } from './http-api';
import { ROUTE_THROTTLES } from './http-api';
import { ownerAlarm } from './monitoring';
import { createPortfolioFunction } from './route-functions';

export const BREAKER_ENTRY = 'functions/breaker/handler.ts';

const EVERY = BREAKER_CHECK_MINUTES === 1 ? 'minute' : `${BREAKER_CHECK_MINUTES} minutes`;

export interface CircuitBreakerProps {
  readonly projectRoot: string;
  readonly logRetention: logs.RetentionDays;
  readonly api: HttpApi;
  /**
   * The counters' table (the archive's): the handlers' day counter per route, read here, and the days'
   * hash keys, the finished one deleted here.
   */
  readonly counters: dynamodb.ITable;
  /** Counted requests each route takes in a UTC day (from monthlyBudgetUsd through the cost model, or cdk.json circuitBreaker). */
  readonly dailyRequests: Readonly<Record<BreakerRoute, number>>;
  /** The owner's alarm topic (the trip mail goes there) and how an alarm joins it (Monitoring). */
  readonly owner: { readonly topic: sns.ITopic; notifyOwner(alarm: cloudwatch.Alarm): void };
  /**
   * A preview stage: the breaker runs (a preview is public too) but without its alarm, as a preview keeps
   * only the alarms its own code can set off by a change under review (docs/deploy.md, "Preview stages").
   */
  readonly preview: boolean;
}

/**
 * The per-route circuit breaker on AWS: a function EventBridge runs every BREAKER_CHECK_MINUTES that
 * reads each route's counted requests of the UTC day (the day counters the handlers keep in the
 * counters' table; contract/breaker.ts says what counts) and turns a route past its daily number down
 * to its trickle through the stage's route settings, mailing the owner once, then back at the day's
 * turn (functions/breaker/run.ts). An alarm on the function's errors tells the owner when the breaker
 * itself cannot run (then the throttles are the only limit).
 */
export class CircuitBreaker extends Construct {
  readonly fn: nodejs.NodejsFunction;
  readonly schedule: events.Rule;
  /** Live site only. */
  readonly alarm?: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: CircuitBreakerProps) {
    super(scope, id);
    const routes: BreakerRouteSettings[] = API_ROUTES.map((route) => ({
      route: route.name,
      routeKey: route.routeKey,
      dailyRequests: props.dailyRequests[route.name],
      throttle: ROUTE_THROTTLES[route.name],
    }));
    ({ fn: this.fn } = createPortfolioFunction(this, 'Breaker', {
      projectRoot: props.projectRoot,
      logRetention: props.logRetention,
      entry: BREAKER_ENTRY,
      description: `Every ${EVERY}: turn an API route past its day's number of counted requests down until 00:00 UTC (${BREAKER_ENTRY})`,
      roleDescription: "circuit breaker: its own log group, the routes' day counters, this API's stage, the alarm topic, nothing else",
      timeoutSeconds: 30,
      serviceName: 'breaker',
      memorySize: 128,
      environment: {
        [BREAKER_ENV.apiId]: props.api.api.apiId,
        [BREAKER_ENV.stageName]: props.api.stage.stageName,
        [BREAKER_ENV.topicArn]: props.owner.topic.topicArn,
        [BREAKER_ENV.routes]: Stack.of(this).toJsonString(routes),
        [BREAKER_ENV.table]: props.counters.tableName,
        [BREAKER_ENV.pastShareDaily]: String(PAST_SHARE_DAILY_REQUESTS),
      },
    }));
    // The day counters only (items whose key starts spend#), and the days' hash keys only to delete them.
    const itemsStartingWith = (prefix: string) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${prefix}*`] } });
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'ReadRouteCounters',
        actions: ['dynamodb:GetItem'],
        resources: [props.counters.tableArn],
        conditions: itemsStartingWith('spend#'),
      }),
    );
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'DeleteFinishedDaysKey',
        actions: ['dynamodb:DeleteItem'],
        resources: [props.counters.tableArn],
        conditions: itemsStartingWith('counterkey#'),
      }),
    );
    // Read and update this API's $default stage only (API Gateway's management actions are HTTP verbs).
    const stageArn = Arn.format(
      { service: 'apigateway', account: '', resource: `/apis/${props.api.api.apiId}/stages/${props.api.stage.stageName}` },
      Stack.of(this),
    );
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({ sid: 'TurnRoutesDownAndUp', actions: ['apigateway:GET', 'apigateway:PATCH'], resources: [stageArn] }),
    );
    props.owner.topic.grantPublish(this.fn);
    // One run at a time is enough; a failed run is not retried (the next comes within the interval).
    new lambda.EventInvokeConfig(this, 'AsyncInvoke', {
      function: this.fn,
      retryAttempts: 0,
      maxEventAge: Duration.minutes(BREAKER_CHECK_MINUTES),
    });
    this.schedule = new events.Rule(this, 'Schedule', {
      description: `Runs the API's circuit breaker every ${EVERY}`,
      schedule: events.Schedule.rate(Duration.minutes(BREAKER_CHECK_MINUTES)),
      targets: [new targets.LambdaFunction(this.fn, { retryAttempts: 0 })],
    });
    if (props.preview) return;
    this.alarm = ownerAlarm(
      this,
      'BreakerFailed',
      "The API's circuit breaker could not run: until it does, only the route throttles limit what a flood costs. See its logs.",
      this.fn.metricErrors({ period: Duration.minutes(BREAKER_CHECK_MINUTES), statistic: 'Sum' }),
    );
    props.owner.notifyOwner(this.alarm);
  }
}
