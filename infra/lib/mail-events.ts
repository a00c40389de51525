import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import type * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ARCHIVE_FUNCTIONS, SES_EVENT_DETAIL_TYPES } from '../../contract/archive';
import { SERVICE_NAMES } from '../../contract/metrics';
import type { ArchiveTable } from './archive-table';
import { createPortfolioFunction } from './route-functions';

/**
 * SES's word on each mail: the configuration-set event types the archive subscribes to, with the
 * detail-type EventBridge gives each (contract/archive.ts, where the sources are named).
 */
export const MAIL_EVENT_DETAIL_TYPES = {
  [ses.EmailSendingEvent.SEND]: SES_EVENT_DETAIL_TYPES.Send,
  [ses.EmailSendingEvent.DELIVERY]: SES_EVENT_DETAIL_TYPES.Delivery,
  [ses.EmailSendingEvent.BOUNCE]: SES_EVENT_DETAIL_TYPES.Bounce,
  [ses.EmailSendingEvent.COMPLAINT]: SES_EVENT_DETAIL_TYPES.Complaint,
  [ses.EmailSendingEvent.REJECT]: SES_EVENT_DETAIL_TYPES.Reject,
} as const;

/**
 * What Lambda does with an event the function fails on. EventBridge invokes Lambda asynchronously; the
 * rule's retry policy covers only handing the event to Lambda, and once Lambda has it "by default
 * Lambda attempts to run it two more times" on a function error, then discards it (Lambda Developer
 * Guide, "How Lambda handles errors and retries with asynchronous invocation":
 * https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-error-handling.html). Set here on
 * purpose: both retries (0 to 2 allowed) for an archive that failed a moment, the longest event age
 * (6 hours, the maximum; "Configuring error handling settings for Lambda asynchronous invocations"), and
 * then the on-failure queue, so a bounce is kept and alarmed rather than dropped.
 */
export const MAIL_EVENTS_ASYNC = { retryAttempts: 2, maxEventAge: Duration.hours(6) } as const;

/**
 * How long the on-failure queue keeps a record: 14 days, SQS's longest ("MessageRetentionPeriod ... from 60
 * seconds (1 minute) to 1,209,600 seconds (14 days)"; SQS API Reference, CreateQueue).
 */
export const FAILED_MAIL_EVENTS_RETENTION = Duration.days(14);

export interface MailEventsProps {
  readonly projectRoot: string;
  readonly logRetention: logs.RetentionDays;
  readonly archive: ArchiveTable;
  /** The archive's variables (table, retention, configuration set), shared by its functions. */
  readonly environment: (configurationSetName: string) => Record<string, string>;
}

/**
 * The configuration set every contact mail is sent through, and what happens to its events: SES
 * publishes send, delivery, bounce, complaint and reject to the account's default event bus; a rule that
 * matches this set's events alone invokes the mail-events function, which may update an archived
 * message's status and nothing else.
 *
 * EventBridge rather than an SNS topic: SES publishes to the default bus without a resource policy,
 * so there is no topic to encrypt, no publish permission to scope and nothing to subscribe; the only
 * grant is the rule's permission to invoke the function, scoped to the rule.
 */
export class MailEvents extends Construct {
  readonly configurationSet: ses.ConfigurationSet;
  readonly fn: nodejs.NodejsFunction;
  readonly logGroup: logs.LogGroup;
  readonly rule: events.Rule;
  /** SES events the function could not apply after Lambda's retries (Lambda's invocation records). */
  readonly failedEvents: sqs.Queue;

  constructor(scope: Construct, id: string, props: MailEventsProps) {
    super(scope, id);
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      // Require TLS to the owner's mail server: "If the value is Require, messages are only delivered if a
      // TLS connection can be established"; Optional (SES's default) falls back to plain text (SES API
      // Reference, DeliveryOptions: https://docs.aws.amazon.com/ses/latest/APIReference/API_DeliveryOptions.html).
      // A server that cannot take TLS then bounces the mail; the message stays in the archive, never in clear text.
      tlsPolicy: ses.ConfigurationSetTlsPolicy.REQUIRE,
    });
    const defaultBus = events.EventBus.fromEventBusArn(
      this,
      'DefaultBus',
      Stack.of(this).formatArn({ service: 'events', resource: 'event-bus', resourceName: 'default' }),
    );
    this.configurationSet.addEventDestination('ToDefaultEventBus', {
      destination: ses.EventDestination.eventBus(defaultBus),
      events: Object.keys(MAIL_EVENT_DETAIL_TYPES) as ses.EmailSendingEvent[],
    });

    const spec = ARCHIVE_FUNCTIONS.mailEvents;
    ({ fn: this.fn, logGroup: this.logGroup } = createPortfolioFunction(this, 'MailEvents', {
      projectRoot: props.projectRoot,
      logRetention: props.logRetention,
      entry: spec.entry,
      description: `SES send, delivery, bounce, complaint and reject events: archived message status (${spec.entry})`,
      roleDescription: 'mail-events: its own log group, updates of archived messages and its on-failure queue, nothing else',
      timeoutSeconds: spec.timeoutSeconds,
      serviceName: SERVICE_NAMES.mailEvents,
      memorySize: 128,
      environment: props.environment(this.configurationSet.configurationSetName),
    }));
    props.archive.grantItems(this.fn, ['UpdateItem'], 'UpdateArchivedMessageStatusOnly');

    // Lambda's record of each event it gave up on (the event itself, so the mail's headers: the visitor's
    // name in the subject and address in Reply-To), for the owner to read after the alarm.
    this.failedEvents = new sqs.Queue(this, 'FailedEvents', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: FAILED_MAIL_EVENTS_RETENTION,
    });
    Validations.of(this.failedEvents).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself the end of the line: the on-failure destination of the mail-events function and the ' +
        'dead-letter queue of its EventBridge target; nothing consumes it, an alarm tells the owner to read it.',
    });
    new lambda.EventInvokeConfig(this, 'AsyncInvoke', {
      function: this.fn,
      ...MAIL_EVENTS_ASYNC,
      onFailure: new destinations.SqsDestination(this.failedEvents),
    });

    this.rule = new events.Rule(this, 'Rule', {
      description: 'SES events of the contact mails (this configuration set only) to the mail-events function',
      eventPattern: {
        source: ['aws.ses'],
        detailType: Object.values(MAIL_EVENT_DETAIL_TYPES),
        // SES tags every event with the configuration set it was sent through.
        detail: { mail: { tags: { 'ses:configuration-set': [this.configurationSet.configurationSetName] } } },
      },
      // EventBridge's own retries (24 hours here) cover only handing the event to Lambda; an event it
      // cannot hand over goes to the same queue ("How EventBridge retries delivering events").
      targets: [new targets.LambdaFunction(this.fn, { maxEventAge: Duration.hours(24), deadLetterQueue: this.failedEvents })],
    });
  }
}
