/**
 * What caps the bill in the synthesized stack: the circuit breaker (its schedule, what its function is
 * told and may do, the alarm that tells the owner when it cannot run) and how little each request
 * writes to CloudWatch Logs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../contract/api-routes';
import { BREAKER_CHECK_MINUTES, PAST_SHARE_DAILY_REQUESTS } from '../../contract/breaker';
import { DEFAULT_CLOUDFRONT_PLAN } from '../../contract/cloudfront-plans';
import { dailyRequestsFromBudget, defaultMonthlyBudgetUsd } from '../../contract/cost-model';
import { ROUTE_THROTTLES } from '../../contract/limits';
import { BREAKER_ENTRY } from './circuit-breaker';
import { ACCESS_LOG_FORMAT } from './http-api';
import { fixtureConfig, synthPortfolio, type Json } from './testing';

let resources: Record<string, Json>;
const ofType = (type: string): [string, Json][] => Object.entries(resources).filter(([, r]) => r.Type === type);
const breakerFunction = () => ofType('AWS::Lambda::Function').find(([, f]) => String(f.Properties.Description).includes(BREAKER_ENTRY))!;

beforeAll(() => {
  const synth = synthPortfolio(fixtureConfig({ circuitBreaker: { contact: 900, vitals: 2_000 } }));
  resources = synth.template.toJSON().Resources as Record<string, Json>;
});

describe('circuit breaker', () => {
  it("runs on a schedule and knows each route, the counters' table, its day number and its own throttle", () => {
    const [id, fn] = breakerFunction();
    const rule = ofType('AWS::Events::Rule').find(([, r]) => JSON.stringify(r.Properties.Targets).includes(id));
    expect(rule?.[1].Properties.ScheduleExpression).toBe(
      BREAKER_CHECK_MINUTES === 1 ? 'rate(1 minute)' : `rate(${BREAKER_CHECK_MINUTES} minutes)`,
    );
    const env = fn.Properties.Environment.Variables;
    expect(env.STAGE_NAME).toBe('$default');
    expect(env.API_ID).toEqual({ Ref: expect.stringMatching(/Api/) });
    expect(env.ARCHIVE_TABLE).toEqual({ Ref: expect.stringMatching(/Archive/) });
    const routes = JSON.stringify(env.BREAKER_ROUTES);
    for (const route of API_ROUTES) expect(routes).toContain(route.routeKey);
    // cdk.json's numbers, and the budget's for a route it leaves out.
    expect(routes).toContain('\\"dailyRequests\\":900');
    expect(routes).toContain('\\"dailyRequests\\":2000');
    const budgetEvents = dailyRequestsFromBudget(defaultMonthlyBudgetUsd(DEFAULT_CLOUDFRONT_PLAN), DEFAULT_CLOUDFRONT_PLAN).events;
    expect(routes).toContain(`\\"dailyRequests\\":${budgetEvents}`);
    expect(env.BREAKER_PAST_SHARE_DAILY).toBe(String(PAST_SHARE_DAILY_REQUESTS));
    expect(routes).toContain(`\\"rateLimit\\":${ROUTE_THROTTLES.contact.rateLimit}`);
  });

  it("may read the routes' day counters, delete a finished day's hash key, read and update its own stage, and publish to the alarm topic: nothing else", () => {
    const [, fn] = breakerFunction();
    const roleId = fn.Properties.Role['Fn::GetAtt'][0];
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Json[]);
    const actions = statements.flatMap((s) => [s.Action].flat()).sort();
    expect(actions).toEqual(
      [
        'apigateway:GET',
        'apigateway:PATCH',
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'sns:Publish',
      ].sort(),
    );
    // Only the items it needs, by key prefix, on the archive's table.
    const read = statements.find((s) => [s.Action].flat().includes('dynamodb:GetItem'))!;
    expect(read.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['spend#*'] } });
    expect(JSON.stringify(read.Resource)).toMatch(/Archive/);
    const forget = statements.find((s) => [s.Action].flat().includes('dynamodb:DeleteItem'))!;
    expect(forget.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['counterkey#*'] } });
    const stage = statements.find((s) => [s.Action].flat().includes('apigateway:PATCH'))!;
    expect(JSON.stringify(stage.Resource)).toMatch(/\/apis\/.*\/stages\/\$default/);
    const publish = statements.find((s) => [s.Action].flat().includes('sns:Publish'))!;
    expect(publish.Resource).toEqual({ Ref: expect.stringMatching(/AlarmTopic/) });
  });

  it("alarms the owner's topic when the breaker itself fails", () => {
    const [id] = breakerFunction();
    const alarm = ofType('AWS::CloudWatch::Alarm').find(([, a]) => JSON.stringify(a.Properties.Dimensions ?? []).includes(id));
    expect(alarm).toBeDefined();
    expect(alarm![1].Properties).toMatchObject({
      MetricName: 'Errors',
      Namespace: 'AWS/Lambda',
      Threshold: 1,
      Period: BREAKER_CHECK_MINUTES * 60,
    });
    expect(JSON.stringify(alarm![1].Properties.AlarmActions)).toMatch(/AlarmTopic/);
    // The topic policy lets this alarm publish too.
    const policy = ofType('AWS::SNS::TopicPolicy')[0]![1];
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain(alarm![0]);
  });
});

describe('what a request writes', () => {
  it("drops Lambda's start and report lines on every function (system log level WARN)", () => {
    // The app's own functions (the bucket deployment's is aws-cdk-lib's).
    const functions = ofType('AWS::Lambda::Function').filter(([, f]) => f.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME);
    expect(functions.length).toBeGreaterThanOrEqual(API_ROUTES.length + 1);
    for (const [id, fn] of functions) expect(fn.Properties.LoggingConfig.SystemLogLevel, id).toBe('WARN');
  });

  it('keeps the API access log to the fields the owner reads', () => {
    const [, stage] = ofType('AWS::ApiGatewayV2::Stage')[0]!;
    expect(JSON.parse(stage.Properties.AccessLogSettings.Format)).toEqual(ACCESS_LOG_FORMAT);
  });
});
