/**
 * The message archive on AWS, synthesized once with the fixture configuration (cdk-nag on: reaching
 * beforeAll's end proves no unacknowledged finding) and once with the owner's opposite choices.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ARCHIVE_ATTRIBUTES,
  ARCHIVE_FUNCTIONS,
  ARCHIVE_STATUS_INDEX,
  archiveTableDefinition,
  DEFAULT_MESSAGE_RETENTION_DAYS,
  REDELIVERY_INTERVAL,
} from '../../contract/archive';
import { ARCHIVE_METRICS, METRICS_NAMESPACE } from '../../contract/metrics';
import { STACK_OUTPUT_KEYS } from '../shared/stack-output-keys';
import { MAIL_EVENT_DETAIL_TYPES } from './mail-events';
import { fixtureConfig, type Json, synthPortfolio } from './testing';

let template: Template;
let resources: Record<string, Json>;

const ofType = (type: string, from: Record<string, Json> = resources): [string, Json][] =>
  Object.entries(from).filter(([, r]) => r.Type === type);
const onlyId = (type: string, from: Record<string, Json> = resources): string => {
  const found = ofType(type, from);
  expect(found, type).toHaveLength(1);
  return found[0]![0];
};
const functionId = (description: RegExp): string => {
  const found = ofType('AWS::Lambda::Function').filter(([, r]) => description.test(r.Properties.Description ?? ''));
  expect(found, String(description)).toHaveLength(1);
  return found[0]![0];
};
const CONTACT = /^POST \/api\/contact/;
const REDELIVERY = new RegExp(ARCHIVE_FUNCTIONS.redelivery.entry);
const MAIL_EVENTS = new RegExp(ARCHIVE_FUNCTIONS.mailEvents.entry);
const roleOf = (fnId: string): string => resources[fnId]!.Properties.Role['Fn::GetAtt'][0];
const statementsOf = (fnId: string): Json[] =>
  ofType('AWS::IAM::Policy')
    .filter(([, r]) => r.Properties.Roles.some((role: Json) => role.Ref === roleOf(fnId)))
    .flatMap(([, r]) => r.Properties.PolicyDocument.Statement);
const actionsOf = (statement: Json): string[] => [statement.Action].flat();
const dynamoStatements = (fnId: string) => statementsOf(fnId).filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));

let tableId: string;
let configurationSetId: string;
const tableArn = () => ({ 'Fn::GetAtt': [tableId, 'Arn'] });
const indexArn = () => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, `/index/${ARCHIVE_STATUS_INDEX}`]] });

beforeAll(() => {
  template = synthPortfolio().template;
  resources = template.toJSON().Resources;
  tableId = onlyId('AWS::DynamoDB::Table');
  configurationSetId = onlyId('AWS::SES::ConfigurationSet');
});

describe('archive table', () => {
  it('is keyed by id, on demand, with point-in-time recovery, encryption at rest and the expiry as time-to-live', () => {
    const table = resources[tableId]!.Properties;
    expect(table.KeySchema).toEqual([{ AttributeName: ARCHIVE_ATTRIBUTES.id, KeyType: 'HASH' }]);
    expect(table.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.ProvisionedThroughput).toBeUndefined();
    expect(table.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    // DynamoDB encrypts every table at rest; no SSESpecification means its AWS owned key (no KMS cost).
    expect(table.SSESpecification?.SSEEnabled ?? false).toBe(false);
    expect(table.TimeToLiveSpecification).toEqual({ AttributeName: ARCHIVE_ATTRIBUTES.expiresAt, Enabled: true });
  });

  it('has the status index the redelivery queries: status, then time received, whole items', () => {
    const table = resources[tableId]!.Properties;
    expect(table.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: ARCHIVE_STATUS_INDEX,
        KeySchema: [
          { AttributeName: ARCHIVE_ATTRIBUTES.status, KeyType: 'HASH' },
          { AttributeName: ARCHIVE_ATTRIBUTES.receivedAt, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ]);
    expect(table.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: 'id', AttributeType: 'S' },
        { AttributeName: 'status', AttributeType: 'S' },
        { AttributeName: 'receivedAt', AttributeType: 'S' },
      ]),
    );
  });

  it('has the keys and index the local stack and the tests create (one definition in contract/archive.ts)', () => {
    const table = resources[tableId]!.Properties;
    const local = archiveTableDefinition('any');
    expect(table.KeySchema).toEqual(local.KeySchema);
    expect(table.GlobalSecondaryIndexes).toEqual(local.GlobalSecondaryIndexes);
    expect(table.AttributeDefinitions).toEqual(expect.arrayContaining(local.AttributeDefinitions));
    expect(table.BillingMode).toBe(local.BillingMode);
  });

  it('is kept by cdk destroy and protected from deletion by default', () => {
    expect(resources[tableId]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(resources[tableId]!.Properties.DeletionProtectionEnabled).toBe(true);
  });

  it('is deleted with the stack when the owner sets deleteArchiveOnDestroy', () => {
    const other = synthPortfolio(fixtureConfig({ deleteArchiveOnDestroy: true, messageRetentionDays: 30 })).template.toJSON()
      .Resources as Record<string, Json>;
    const id = onlyId('AWS::DynamoDB::Table', other);
    expect(other[id]).toMatchObject({ DeletionPolicy: 'Delete', UpdateReplacePolicy: 'Delete' });
    expect(other[id]!.Properties.DeletionProtectionEnabled).toBe(false);
    // The retention the functions stamp on each message follows the setting (the beacon functions and
    // the circuit breaker, which keep or read only counters there, stamp none).
    for (const [, fn] of ofType('AWS::Lambda::Function', other)) {
      const variables = fn.Properties.Environment?.Variables ?? {};
      if (
        'ARCHIVE_TABLE' in variables &&
        !/^POST \/api\/(events|vitals)|circuit breaker|functions\/breaker/.test(fn.Properties.Description)
      ) {
        expect(variables.MESSAGE_RETENTION_DAYS).toBe('30');
      }
    }
  });

  it('names the table in an output, for npm run messages', () => {
    const outputs = template.toJSON().Outputs;
    expect(outputs[STACK_OUTPUT_KEYS.archiveTable].Value).toEqual({ Ref: tableId });
    expect(outputs[STACK_OUTPUT_KEYS.archiveTable].Description).toMatch(/kept by cdk destroy/);
  });
});

describe('archive functions', () => {
  it('get the table, the retention and the configuration set; the senders get the addresses too', () => {
    const archiveVariables = {
      ARCHIVE_TABLE: { Ref: tableId },
      MESSAGE_RETENTION_DAYS: String(DEFAULT_MESSAGE_RETENTION_DAYS),
      SES_CONFIGURATION_SET: { Ref: configurationSetId },
    };
    for (const fn of [CONTACT, REDELIVERY, MAIL_EVENTS]) {
      expect(resources[functionId(fn)]!.Properties.Environment.Variables).toMatchObject(archiveVariables);
    }
    const config = fixtureConfig();
    expect(resources[functionId(REDELIVERY)]!.Properties.Environment.Variables).toMatchObject({
      OWNER_EMAIL: config.ownerEmail,
      SENDER_EMAIL: config.senderEmail,
      POWERTOOLS_SERVICE_NAME: 'redelivery',
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
    });
    expect(resources[functionId(MAIL_EVENTS)]!.Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME).toBe('mail-events');
  });

  it('run like the API functions, with the contract timeouts and no reserved concurrency', () => {
    for (const [fn, spec] of [
      [REDELIVERY, ARCHIVE_FUNCTIONS.redelivery],
      [MAIL_EVENTS, ARCHIVE_FUNCTIONS.mailEvents],
    ] as const) {
      const props = resources[functionId(fn)]!.Properties;
      expect(props).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler' });
      expect(props.Timeout).toBe(spec.timeoutSeconds);
      expect(props.ReservedConcurrentExecutions).toBeUndefined();
      expect(props.LoggingConfig.LogGroup.Ref).toBeDefined();
    }
  });
});

describe('archive permissions', () => {
  it('let the contact function put, get and update single messages: never scan, query or delete', () => {
    const statements = dynamoStatements(functionId(CONTACT));
    expect(statements).toHaveLength(1);
    expect(actionsOf(statements[0]!).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(statements[0]!.Resource).toEqual(tableArn());
  });

  it('let the redelivery query the status index only, and get and update single messages', () => {
    const statements = dynamoStatements(functionId(REDELIVERY));
    const query = statements.filter((s) => actionsOf(s).includes('dynamodb:Query'));
    expect(query).toHaveLength(1);
    expect(actionsOf(query[0]!)).toEqual(['dynamodb:Query']);
    expect(query[0]!.Resource).toEqual(indexArn());
    const items = statements.filter((s) => s !== query[0]);
    expect(items.flatMap(actionsOf).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    for (const statement of items) expect(statement.Resource).toEqual(tableArn());
  });

  it('let the redelivery send as the sender through the configuration set, like the contact function, and read no secret', () => {
    const ses = (fnId: string) =>
      statementsOf(fnId)
        .filter((s) => actionsOf(s).some((a) => a.startsWith('ses:')))
        .map((s) => ({ ...s, Sid: undefined }));
    expect(ses(functionId(REDELIVERY))).toEqual(ses(functionId(CONTACT)));
    expect(JSON.stringify(ses(functionId(REDELIVERY)))).toContain(':configuration-set/');
    expect(
      statementsOf(functionId(REDELIVERY))
        .flatMap(actionsOf)
        .some((a) => a.startsWith('ssm:')),
    ).toBe(false);
  });

  it('let the mail-events function update single messages, write to its on-failure queue, and nothing else', () => {
    const statements = statementsOf(functionId(MAIL_EVENTS));
    expect(statements.map((s) => actionsOf(s).sort()).sort()).toEqual([
      ['dynamodb:UpdateItem'],
      ['logs:CreateLogStream', 'logs:PutLogEvents'],
      ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
    ]);
    expect(statements.find((s) => actionsOf(s).includes('dynamodb:UpdateItem'))!.Resource).toEqual(tableArn());
    expect(statements.find((s) => actionsOf(s).includes('sqs:SendMessage'))!.Resource).toEqual({
      'Fn::GetAtt': [onlyId('AWS::SQS::Queue'), 'Arn'],
    });
  });

  it('grant no function a scan, a delete, a batch or a wildcard on the archive', () => {
    const forbidden = /^dynamodb:(\*|Scan|DeleteItem|DeleteTable|Batch\w+|PartiQL\w+|ExportTableToPointInTime|Restore\w+)$/;
    // The one delete: the circuit breaker's, of a finished day's hash key, and of no other item.
    const deletesOnlyDayKeys = (statement: Json) =>
      JSON.stringify(statement.Condition) === JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['counterkey#*'] } });
    for (const [, policy] of ofType('AWS::IAM::Policy')) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Json[]) {
        for (const action of actionsOf(statement))
          if (!(action === 'dynamodb:DeleteItem' && deletesOnlyDayKeys(statement))) expect(action).not.toMatch(forbidden);
        if (actionsOf(statement).some((a) => a.startsWith('dynamodb:'))) expect(statement.Resource).not.toBe('*');
      }
    }
  });
});

describe('redelivery schedule', () => {
  it(`runs the redelivery every ${REDELIVERY_INTERVAL.awsMinutes} minutes, without retries that could overlap the next run`, () => {
    // The redelivery's own schedule (the circuit breaker's has its test in cost-ceiling.test.ts).
    const rules = ofType('AWS::Events::Rule').filter(
      ([, r]) => r.Properties.ScheduleExpression && !/breaker/i.test(r.Properties.Description ?? ''),
    );
    expect(rules).toHaveLength(1);
    const [ruleId, rule] = rules[0]!;
    expect(rule.Properties.ScheduleExpression).toBe(`rate(${REDELIVERY_INTERVAL.awsMinutes} minutes)`);
    expect(rule.Properties.State).toBe('ENABLED');
    expect(rule.Properties.Targets).toHaveLength(1);
    expect(rule.Properties.Targets[0]).toMatchObject({
      Arn: { 'Fn::GetAtt': [functionId(REDELIVERY), 'Arn'] },
      RetryPolicy: { MaximumRetryAttempts: 0 },
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [functionId(REDELIVERY), 'Arn'] },
      Principal: 'events.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
    });
  });
});

describe("Lambda's asynchronous retries (EventBridge invokes both functions asynchronously)", () => {
  const invokeConfigOf = (fnId: string): Json => {
    const found = ofType('AWS::Lambda::EventInvokeConfig').filter(([, c]) => c.Properties.FunctionName.Ref === fnId);
    expect(found, fnId).toHaveLength(1);
    return found[0]![1].Properties;
  };

  it('the redelivery: no retry of a failed run and no run older than the interval (the next run comes anyway)', () => {
    const config = invokeConfigOf(functionId(REDELIVERY));
    expect(config).toMatchObject({
      Qualifier: '$LATEST',
      MaximumRetryAttempts: 0,
      MaximumEventAgeInSeconds: REDELIVERY_INTERVAL.awsMinutes * 60,
    });
    expect(config.DestinationConfig).toBeUndefined();
  });

  it("mail events: both retries, six hours, then Lambda's record goes to an encrypted, TLS-only queue kept 14 days", () => {
    const queueId = onlyId('AWS::SQS::Queue');
    expect(invokeConfigOf(functionId(MAIL_EVENTS))).toEqual({
      FunctionName: { Ref: functionId(MAIL_EVENTS) },
      Qualifier: '$LATEST',
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 6 * 3600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
    expect(resources[queueId]!.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 });
    const policies = ofType('AWS::SQS::QueuePolicy').filter(([, p]) => p.Properties.Queues.some((q: Json) => q.Ref === queueId));
    expect(policies).toHaveLength(1);
    expect(policies[0]![1].Properties.PolicyDocument.Statement).toEqual(
      expect.arrayContaining([expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
    );
  });

  it('an event EventBridge cannot hand to Lambda goes to the same queue', () => {
    const rule = ofType('AWS::Events::Rule').find(([, r]) => r.Properties.EventPattern)![1];
    expect(rule.Properties.Targets[0].DeadLetterConfig).toEqual({ Arn: { 'Fn::GetAtt': [onlyId('AWS::SQS::Queue'), 'Arn'] } });
  });

  it('a record in the queue e-mails the owner', () => {
    const queueId = onlyId('AWS::SQS::Queue');
    const alarms = ofType('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: onlyId('AWS::SNS::Topic') }],
    });
  });
});

describe('mail events', () => {
  it('go out through a configuration set that requires TLS, so a message never travels in clear text', () => {
    expect(resources[configurationSetId]!.Properties.DeliveryOptions).toEqual({ TlsPolicy: 'REQUIRE' });
  });

  it('publish send, delivery, bounce, complaint and reject of the configuration set to the default event bus', () => {
    const destinations = ofType('AWS::SES::ConfigurationSetEventDestination');
    expect(destinations).toHaveLength(1);
    const props = destinations[0]![1].Properties;
    expect(props.ConfigurationSetName).toEqual({ Ref: configurationSetId });
    expect(props.EventDestination.Enabled).toBe(true);
    expect([...props.EventDestination.MatchingEventTypes].sort()).toEqual(['bounce', 'complaint', 'delivery', 'reject', 'send']);
    expect(props.EventDestination.EventBridgeDestination).toEqual({
      EventBusArn: 'arn:aws:events:eu-west-1:123456789012:event-bus/default',
    });
    expect(props.EventDestination.SnsDestination).toBeUndefined();
  });

  it('reach the mail-events function through a rule that matches this configuration set alone', () => {
    const rules = ofType('AWS::Events::Rule').filter(([, r]) => r.Properties.EventPattern);
    expect(rules).toHaveLength(1);
    const [ruleId, rule] = rules[0]!;
    expect(rule.Properties.EventBusName).toBeUndefined(); // the default bus
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.ses'],
      'detail-type': ['Email Sent', 'Email Delivered', 'Email Bounced', 'Email Complaint Received', 'Email Rejected'],
      detail: { mail: { tags: { 'ses:configuration-set': [{ Ref: configurationSetId }] } } },
    });
    expect(Object.values(MAIL_EVENT_DETAIL_TYPES)).toHaveLength(5);
    expect(rule.Properties.Targets).toEqual([expect.objectContaining({ Arn: { 'Fn::GetAtt': [functionId(MAIL_EVENTS), 'Arn'] } })]);
    const permissions = ofType('AWS::Lambda::Permission')
      .map(([, p]) => p.Properties)
      .filter((p) => JSON.stringify(p.FunctionName).includes(functionId(MAIL_EVENTS)));
    expect(permissions).toEqual([
      {
        Action: 'lambda:InvokeFunction',
        FunctionName: { 'Fn::GetAtt': [functionId(MAIL_EVENTS), 'Arn'] },
        Principal: 'events.amazonaws.com',
        SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
      },
    ]);
  });

  it('need no SNS topic beyond the alarm topic', () => {
    expect(ofType('AWS::SNS::Topic')).toHaveLength(1);
  });
});

describe('archive alarms', () => {
  const topicId = () => onlyId('AWS::SNS::Topic');
  const alarmReading = (...names: string[]): Json => {
    const found = ofType('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .filter((a) => {
        const read = ((a.Metrics ?? []) as Json[]).filter((m) => m.MetricStat).map((m) => m.MetricStat.Metric.MetricName);
        return read.length > 0 && [...new Set(read)].sort().join() === [...names].sort().join();
      });
    expect(found, names.join()).toHaveLength(1);
    return found[0]!;
  };

  it.each([
    ['a message marked failed', [ARCHIVE_METRICS.failed]],
    ['a bounce or a complaint', [ARCHIVE_METRICS.bounced, ARCHIVE_METRICS.complained]],
    ['the archive unavailable', [ARCHIVE_METRICS.archiveUnavailable]],
  ])('e-mail the owner on %s, counted by any archive function', (_, names) => {
    const alarm = alarmReading(...names);
    expect(alarm).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId() }],
      OKActions: [{ Ref: topicId() }],
    });
    const metrics = alarm.Metrics as Json[];
    const expression = metrics.find((m) => m.Expression)!;
    expect(expression.ReturnData).toBe(true);
    const series = metrics.filter((m) => m.MetricStat);
    expect(expression.Expression).toBe(`SUM([${series.map((m) => m.Id).join(',')}])`);
    for (const name of names) {
      const services = series
        .filter((m) => m.MetricStat.Metric.MetricName === name)
        .map((m) => {
          expect(m.MetricStat).toMatchObject({ Metric: { Namespace: METRICS_NAMESPACE }, Period: 300, Stat: 'Sum' });
          expect(m.ReturnData).toBe(false);
          return m.MetricStat.Metric.Dimensions[0].Value;
        });
      expect(services.sort()).toEqual(['contact', 'mail-events', 'redelivery']);
    }
    expect(alarm.AlarmDescription).toMatch(/npm run messages/);
  });

  it('e-mail the owner when the redelivery or the mail-events function fails', () => {
    const alarm = alarmReading('Errors');
    const functions = (alarm.Metrics as Json[])
      .filter((m) => m.MetricStat)
      .map((m) => m.MetricStat.Metric.Dimensions[0].Value.Ref)
      .sort();
    expect(functions).toEqual([functionId(REDELIVERY), functionId(MAIL_EVENTS)].sort());
    expect(alarm.AlarmActions).toEqual([{ Ref: topicId() }]);
  });
});
