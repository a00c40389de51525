import { Stack, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_ROUTES } from '../../contract/api-routes';
import { ROUTE_THROTTLES, type RouteThrottle } from '../../contract/limits';
import { ownLogGroup, type RouteName } from './route-functions';

/** Each route's own bucket (why each is sized so: contract/limits.ts), the same numbers the local stack applies. */
export { ROUTE_THROTTLES };
/** Any route without its own settings (none today): the old stage-wide cap. */
export const DEFAULT_THROTTLE: RouteThrottle = { rateLimit: 5, burstLimit: 10 };

/** The API access log's fields, one JSON line per request ($context variables of HTTP APIs). */
export const ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  routeKey: '$context.routeKey',
  status: '$context.status',
  latencyMs: '$context.responseLatency',
  integrationError: '$context.integrationErrorMessage',
} as const;

export interface HttpApiProps {
  /** The function behind each route of contract/api-routes.ts. */
  readonly functions: Readonly<Record<RouteName, lambda.IFunction>>;
  readonly logRetention: logs.RetentionDays;
  /** true when CloudFront reaches the API by a custom domain name (api-origin-domain.ts): execute-api answers nothing. */
  readonly disableExecuteApiEndpoint?: boolean;
}

/**
 * The HTTP API behind CloudFront's /api/* behavior: the routes of contract/api-routes.ts, each to its
 * function and throttled on its own, on one auto-deployed stage with JSON access logs.
 */
export class HttpApi extends Construct {
  readonly api: apigwv2.HttpApi;
  readonly stage: apigwv2.HttpStage;
  readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: HttpApiProps) {
    super(scope, id);
    this.accessLogs = ownLogGroup(this, 'AccessLogs', props.logRetention);
    this.api = new apigwv2.HttpApi(this, 'Api', {
      apiName: `${Stack.of(this).stackName}-api`,
      description: 'Portfolio contact and events API (reached through CloudFront /api/*)',
      createDefaultStage: false,
      disableExecuteApiEndpoint: props.disableExecuteApiEndpoint ?? false,
    });
    this.stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: DEFAULT_THROTTLE,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogs),
        // No source IP (the site promises not to store visitors' addresses) and no user agent: only what the
        // owner reads when ApiServerErrors fires (which route, what status, how slow, why the integration
        // failed), about 150 bytes a request. The log event's own timestamp says when.
        format: apigateway.AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FORMAT)),
      },
    });

    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const route of API_ROUTES) {
      const routes = this.api.addRoutes({
        path: route.path,
        methods: [apigwv2.HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.name}Integration`, props.functions[route.name]),
      });
      // CloudFormation rejects route settings for a route that does not exist yet ("Unable to find
      // Route by key"): the stage waits for its routes.
      for (const created of routes) this.stage.node.addDependency(created);
      const { rateLimit, burstLimit } = ROUTE_THROTTLES[route.name];
      routeSettings[route.routeKey] = { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit };
    }
    (this.stage.node.defaultChild as apigwv2.CfnStage).routeSettings = routeSettings;

    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Every route is public by design: anonymous visitors send the contact form (guarded by reCAPTCHA in the ' +
        'handler), click events (a fixed name pattern) and page views (known routes and bounded numbers); each ' +
        'route has its own throttle.',
    });
  }

  /** The stage's URL (execute-api), also reachable directly; CloudFront forwards /api/* to it. */
  get url(): string {
    return this.stage.url;
  }
}
