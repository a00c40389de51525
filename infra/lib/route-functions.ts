import path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_ROUTES, type ApiRoute } from '../../contract/api-routes';
import { METRICS_NAMESPACE, SERVICE_NAMES } from '../../contract/metrics';

/** ESM bundles need `require` for the CommonJS parts of their dependencies. */
export const ESM_REQUIRE_BANNER = "import { createRequire } from 'module';const require = createRequire(import.meta.url);";

export type RouteName = ApiRoute['name'];

// Lambda's Node.js 24 runtime, identifier nodejs24.x ("Lambda runtimes":
// https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html). aws-cdk-lib 2.276 knows it
// (cdk-facts.test.ts); the fallback keeps older libraries working with the same runtime.
const NODEJS_24 =
  (lambda.Runtime as { NODEJS_24_X?: lambda.Runtime }).NODEJS_24_X ?? new lambda.Runtime('nodejs24.x', lambda.RuntimeFamily.NODEJS);

/** What the stack adds to a function beyond what the contract fixes (entry, path, timeout). */
export interface RouteFunctionOptions {
  readonly memorySize: number;
  /** Variables the handler reads besides the Powertools ones. */
  readonly environment?: Record<string, string>;
}

export interface RouteFunctionsProps {
  readonly projectRoot: string;
  readonly logRetention: logs.RetentionDays;
  /** One entry per route of contract/api-routes.ts. */
  readonly options: Readonly<Record<RouteName, RouteFunctionOptions>>;
}

/**
 * One Lambda function per route of contract/api-routes.ts (its entry, path and timeout come from
 * there), each with its own role and log group. Grants beyond logging are the caller's business.
 */
export class RouteFunctions extends Construct {
  readonly functions: Readonly<Record<RouteName, nodejs.NodejsFunction>>;
  /** Each function's log group, by route. */
  readonly logGroupOf: Readonly<Record<RouteName, logs.LogGroup>>;

  constructor(scope: Construct, id: string, props: RouteFunctionsProps) {
    super(scope, id);
    const made = API_ROUTES.map((route) => ({
      name: route.name,
      ...createPortfolioFunction(this, route.name.charAt(0).toUpperCase() + route.name.slice(1), {
        projectRoot: props.projectRoot,
        logRetention: props.logRetention,
        entry: route.entry,
        description: `${route.routeKey} (${route.entry})`,
        roleDescription: `${route.routeKey}: its own log group and what the function needs, nothing else`,
        timeoutSeconds: route.timeoutSeconds,
        serviceName: SERVICE_NAMES[route.name],
        ...props.options[route.name],
      }),
    }));
    this.functions = Object.fromEntries(made.map(({ name, fn }) => [name, fn])) as Record<RouteName, nodejs.NodejsFunction>;
    this.logGroupOf = Object.fromEntries(made.map(({ name, logGroup }) => [name, logGroup])) as Record<RouteName, logs.LogGroup>;
  }
}

/** A log group of the stack's own: kept for `retention`, deleted with the stack. */
export const ownLogGroup = (scope: Construct, id: string, retention: logs.RetentionDays): logs.LogGroup =>
  new logs.LogGroup(scope, id, { retention, removalPolicy: RemovalPolicy.DESTROY });

/** What one function of the app is made of; the rest (runtime, bundling, logs, role) is the same for all. */
export interface PortfolioFunctionProps extends RouteFunctionOptions {
  readonly projectRoot: string;
  readonly logRetention: logs.RetentionDays;
  /** The handler module (exports `handler`), relative to the repository root. */
  readonly entry: string;
  readonly description: string;
  readonly roleDescription: string;
  readonly timeoutSeconds: number;
  /** Powertools' service name: the metrics' `service` dimension and the log field. */
  readonly serviceName: string;
}

/**
 * One function of the app: nodejs24.x on arm64, an ESM bundle with the SDK inside, its own log group
 * and its own role that may write to that log group only. Grants beyond logging are the caller's business.
 */
export function createPortfolioFunction(
  scope: Construct,
  id: string,
  props: PortfolioFunctionProps,
): { fn: nodejs.NodejsFunction; logGroup: logs.LogGroup } {
  const logGroup = ownLogGroup(scope, `${id}Logs`, props.logRetention);
  // An own role instead of the AWSLambdaBasicExecutionRole managed policy: writes to its log group only.
  const role = new iam.Role(scope, `${id}Role`, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: props.roleDescription,
  });
  const fn = new nodejs.NodejsFunction(scope, `${id}Function`, {
    entry: path.join(props.projectRoot, props.entry),
    handler: 'handler',
    projectRoot: props.projectRoot,
    depsLockFilePath: path.join(props.projectRoot, 'package-lock.json'),
    runtime: NODEJS_24,
    architecture: lambda.Architecture.ARM_64,
    description: props.description,
    timeout: Duration.seconds(props.timeoutSeconds),
    memorySize: props.memorySize,
    role,
    logGroup,
    loggingFormat: lambda.LoggingFormat.JSON,
    // Lambda's own "start" and "report" lines (about 400 bytes per invocation in JSON) are INFO system logs;
    // WARN keeps only its warnings and errors, so a request writes the handler's one line. Source: Lambda
    // Developer Guide, "Log-level filtering": https://docs.aws.amazon.com/lambda/latest/dg/monitoring-cloudwatchlogs-log-level.html
    systemLogLevelV2: lambda.SystemLogLevel.WARN,
    environment: {
      NODE_OPTIONS: '--enable-source-maps',
      ...props.environment,
      POWERTOOLS_SERVICE_NAME: props.serviceName,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
    },
    bundling: {
      format: nodejs.OutputFormat.ESM,
      banner: ESM_REQUIRE_BANNER,
      mainFields: ['module', 'main'],
      minify: true,
      sourceMap: true,
      sourcesContent: false,
      target: 'node22',
      forceDockerBundling: false,
      // Ship the SDK version the tests ran against instead of whatever the runtime carries.
      bundleAwsSDK: true,
    },
  });
  logGroup.grantWrite(role);
  return { fn, logGroup };
}
