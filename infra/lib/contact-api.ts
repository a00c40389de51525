import path from 'node:path';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** ESM bundles need `require` for the CommonJS parts of their dependencies (design §4). */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module';const require = createRequire(import.meta.url);";
/** Powertools metrics namespace; the dashboard reads the same. */
export const METRICS_NAMESPACE = 'Portfolio';
export const CONTACT_SERVICE_NAME = 'contact';
export const EVENTS_SERVICE_NAME = 'events';
/** Stage throttling: far above a portfolio's real use, low enough to cap abuse (and SES / Lambda cost). */
export const API_THROTTLE = { rateLimit: 5, burstLimit: 10 } as const;

// aws-cdk-lib 2.276 knows nodejs24.x; the fallback keeps older libraries working with the same runtime.
const NODEJS_24 =
  (lambda.Runtime as { NODEJS_24_X?: lambda.Runtime }).NODEJS_24_X ??
  new lambda.Runtime('nodejs24.x', lambda.RuntimeFamily.NODEJS);

export interface ContactApiProps {
  readonly projectRoot: string;
  readonly ownerEmail: string;
  readonly senderEmail: string;
  /** SES identity the contact function may send as (the sender address or its domain). */
  readonly senderIdentity: string;
  /** SSM SecureString name holding the reCAPTCHA secret. */
  readonly recaptchaSecretParameter: string;
  readonly logRetention: logs.RetentionDays;
}

/**
 * The HTTP API behind CloudFront's /api/* behavior: POST /api/contact and POST /api/events, each to its
 * own least-privilege Lambda, with stage throttling and JSON access logs.
 */
export class ContactApi extends Construct {
  readonly api: apigwv2.HttpApi;
  readonly stage: apigwv2.HttpStage;
  readonly contactFunction: nodejs.NodejsFunction;
  readonly eventsFunction: nodejs.NodejsFunction;
  readonly logGroups: logs.LogGroup[] = [];

  constructor(scope: Construct, id: string, props: ContactApiProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.contactFunction = this.createFunction('Contact', {
      props,
      entry: 'functions/contact/handler.ts',
      description: 'POST /api/contact: validates, verifies the reCAPTCHA, mails the owner through SES',
      // The handler answers within 10 s (5 s verifier timeout + SES); 15 s leaves room for a cold start.
      timeout: Duration.seconds(15),
      memorySize: 256,
      environment: {
        OWNER_EMAIL: props.ownerEmail,
        SENDER_EMAIL: props.senderEmail,
        // Only the parameter's name: the secret itself is read at cold start, never stored here.
        RECAPTCHA_SECRET_PARAMETER: props.recaptchaSecretParameter,
        POWERTOOLS_SERVICE_NAME: CONTACT_SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      },
    });
    this.eventsFunction = this.createFunction('Events', {
      props,
      entry: 'functions/events/handler.ts',
      description: 'POST /api/events: records a click-event name as a CloudWatch metric',
      timeout: Duration.seconds(5),
      memorySize: 128,
      environment: {
        POWERTOOLS_SERVICE_NAME: EVENTS_SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      },
    });

    // Send only as the configured identity. SES also checks the recipient's identity while the account
    // is in the sandbox, so the owner's address is allowed too (it must be verified there anyway).
    const identityArn = (identity: string) =>
      stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity });
    const sesIdentities = [...new Set([props.senderIdentity, props.ownerEmail])].map(identityArn);
    this.contactFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'SendAsSenderIdentityOnly',
        actions: ['ses:SendEmail', 'ses:SendRawEmail'],
        resources: sesIdentities,
        conditions: { StringEquals: { 'ses:FromAddress': props.senderEmail } },
      }),
    );
    // The parameter is encrypted with the AWS-managed aws/ssm key, whose key policy already lets any
    // principal of the account decrypt through SSM: no kms statement is needed.
    this.contactFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'ReadRecaptchaSecretOnly',
        actions: ['ssm:GetParameter'],
        resources: [ssmParameterArn(stack, props.recaptchaSecretParameter)],
      }),
    );

    const accessLogs = this.logGroup('AccessLogs', props.logRetention);
    this.api = new apigwv2.HttpApi(this, 'Api', {
      description: 'Portfolio contact and events API (reached through CloudFront /api/*)',
      createDefaultStage: false,
    });
    this.stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: API_THROTTLE,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        // No source IP: the site promises not to store visitors' addresses.
        format: apigateway.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            time: '$context.requestTime',
            method: '$context.httpMethod',
            path: '$context.path',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationLatencyMs: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });
    this.api.addRoutes({
      path: '/api/contact',
      methods: [apigwv2.HttpMethod.POST],
      integration: new HttpLambdaIntegration('ContactIntegration', this.contactFunction),
    });
    this.api.addRoutes({
      path: '/api/events',
      methods: [apigwv2.HttpMethod.POST],
      integration: new HttpLambdaIntegration('EventsIntegration', this.eventsFunction),
    });

    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Both routes are public by design: anonymous visitors send the contact form (guarded by reCAPTCHA in the ' +
        'handler) and click events (a fixed name pattern); the stage throttles every route.',
    });
  }

  /** The stage's URL (execute-api), also reachable directly; CloudFront forwards /api/* to it. */
  get url(): string {
    return this.stage.url;
  }

  private logGroup(id: string, retention: logs.RetentionDays): logs.LogGroup {
    const group = new logs.LogGroup(this, id, { retention, removalPolicy: RemovalPolicy.DESTROY });
    this.logGroups.push(group);
    return group;
  }

  private createFunction(
    id: string,
    options: {
      props: ContactApiProps;
      entry: string;
      description: string;
      timeout: Duration;
      memorySize: number;
      environment: Record<string, string>;
    },
  ): nodejs.NodejsFunction {
    const logGroup = this.logGroup(`${id}Logs`, options.props.logRetention);
    // An own role instead of the AWSLambdaBasicExecutionRole managed policy: writes to its log group only.
    const role = new iam.Role(this, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${id} function: its own log group and what the function needs, nothing else`,
    });
    const fn = new nodejs.NodejsFunction(this, `${id}Function`, {
      entry: path.join(options.props.projectRoot, options.entry),
      handler: 'handler',
      projectRoot: options.props.projectRoot,
      depsLockFilePath: path.join(options.props.projectRoot, 'package-lock.json'),
      runtime: NODEJS_24,
      architecture: lambda.Architecture.ARM_64,
      description: options.description,
      timeout: options.timeout,
      memorySize: options.memorySize,
      role,
      logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: { NODE_OPTIONS: '--enable-source-maps', ...options.environment },
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
    return fn;
  }
}

/** arn:…:parameter/name for "/name" and "name" alike (the ARN never has a double slash). */
export function ssmParameterArn(stack: Stack, name: string): string {
  return stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: name.replace(/^\//, '') });
}
