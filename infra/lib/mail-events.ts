import { Duration, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { ARCHIVE_FUNCTIONS } from '../../contract/archive';
import { SERVICE_NAMES } from '../../contract/metrics';
import type { ArchiveTable } from './archive-table';
import { createPortfolioFunction } from './route-functions';

/**
 * SES's word on each mail, as EventBridge names its events (EventBridge events reference, "Amazon
 * Simple Email Service events"); one per configuration-set event type the archive cares about.
 */
export const MAIL_EVENT_DETAIL_TYPES = {
  [ses.EmailSendingEvent.DELIVERY]: 'Email Delivered',
  [ses.EmailSendingEvent.BOUNCE]: 'Email Bounced',
  [ses.EmailSendingEvent.COMPLAINT]: 'Email Complaint Received',
  [ses.EmailSendingEvent.REJECT]: 'Email Rejected',
} as const;

export interface MailEventsProps {
  readonly projectRoot: string;
  readonly logRetention: logs.RetentionDays;
  readonly archive: ArchiveTable;
  /** The archive's variables (table, retention, configuration set), shared by its functions. */
  readonly environment: (configurationSetName: string) => Record<string, string>;
}

/**
 * The configuration set every contact mail is sent through, and what happens to its events: SES
 * publishes delivery, bounce, complaint and reject to the account's default event bus; a rule that
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
      description: `SES delivery, bounce, complaint and reject events: archived message status (${spec.entry})`,
      roleDescription: 'mail-events: its own log group and updates of archived messages, nothing else',
      timeoutSeconds: spec.timeoutSeconds,
      serviceName: SERVICE_NAMES.mailEvents,
      memorySize: 128,
      environment: props.environment(this.configurationSet.configurationSetName),
    }));
    props.archive.grantItems(this.fn, ['UpdateItem'], 'UpdateArchivedMessageStatusOnly');

    this.rule = new events.Rule(this, 'Rule', {
      description: 'SES events of the contact mails (this configuration set only) to the mail-events function',
      eventPattern: {
        source: ['aws.ses'],
        detailType: Object.values(MAIL_EVENT_DETAIL_TYPES),
        // SES tags every event with the configuration set it was sent through.
        detail: { mail: { tags: { 'ses:configuration-set': [this.configurationSet.configurationSetName] } } },
      },
      targets: [new targets.LambdaFunction(this.fn, { maxEventAge: Duration.hours(24) })],
    });
  }
}
