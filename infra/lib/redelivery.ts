import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ARCHIVE_FUNCTIONS, REDELIVERY_INTERVAL } from '../../contract/archive';
import { SERVICE_NAMES } from '../../contract/metrics';
import type { ArchiveTable } from './archive-table';
import { grantSendAsSender, type SendPermissionsProps } from './contact-permissions';
import { createPortfolioFunction } from './route-functions';

export interface RedeliveryProps {
  readonly projectRoot: string;
  readonly logRetention: logs.RetentionDays;
  readonly archive: ArchiveTable;
  readonly send: SendPermissionsProps;
  /** Everything the function reads besides Powertools' variables: addresses and the archive's. */
  readonly environment: Record<string, string>;
}

/**
 * What Lambda does with a failed run. EventBridge invokes Lambda asynchronously, and Lambda retries a
 * failed asynchronous invocation twice by default, whatever the rule's retry policy says (that one
 * covers only handing the event to Lambda; Lambda Developer Guide, "How Lambda handles errors and
 * retries with asynchronous invocation":
 * https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-error-handling.html). So: no retry (the
 * next run comes within the interval, and a retry could only overlap it), and an invocation still
 * queued (throttled) when the next run is due is dropped.
 */
export const REDELIVERY_ASYNC = { retryAttempts: 0, maxEventAge: Duration.minutes(REDELIVERY_INTERVAL.awsMinutes) } as const;

/**
 * The scheduled redelivery: every REDELIVERY_INTERVAL.awsMinutes it lists the pending messages
 * through the status index and sends each one it can claim, as the sender, through the
 * configuration set. A failed run is neither retried nor kept (REDELIVERY_ASYNC).
 *
 * No reserved concurrency: reserving even 1 fails the deploy on the new accounts whose whole quota
 * is 10 (Lambda keeps 100 units unreserved; Lambda developer guide, "Configuring reserved
 * concurrency"), and the conditional claim on each message already keeps two runs (or a run and
 * the contact function) from sending it twice.
 */
export class Redelivery extends Construct {
  readonly fn: nodejs.NodejsFunction;
  readonly logGroup: logs.LogGroup;
  readonly schedule: events.Rule;

  constructor(scope: Construct, id: string, props: RedeliveryProps) {
    super(scope, id);
    const spec = ARCHIVE_FUNCTIONS.redelivery;
    ({ fn: this.fn, logGroup: this.logGroup } = createPortfolioFunction(this, 'Redelivery', {
      projectRoot: props.projectRoot,
      logRetention: props.logRetention,
      entry: spec.entry,
      description: `Every ${REDELIVERY_INTERVAL.awsMinutes} minutes: send the archived messages still pending (${spec.entry})`,
      roleDescription: 'redelivery: its own log group, pending messages by status, sending as the sender, nothing else',
      timeoutSeconds: spec.timeoutSeconds,
      serviceName: SERVICE_NAMES.redelivery,
      memorySize: 256,
      environment: props.environment,
    }));
    props.archive.grantQueryByStatus(this.fn, 'ListMessagesByStatusOnly');
    props.archive.grantItems(this.fn, ['GetItem', 'UpdateItem'], 'ClaimAndUpdateArchivedMessages');
    grantSendAsSender(this.fn, props.send);
    new lambda.EventInvokeConfig(this, 'AsyncInvoke', { function: this.fn, ...REDELIVERY_ASYNC });

    this.schedule = new events.Rule(this, 'Schedule', {
      description: `Runs the redelivery every ${REDELIVERY_INTERVAL.awsMinutes} minutes`,
      schedule: events.Schedule.rate(Duration.minutes(REDELIVERY_INTERVAL.awsMinutes)),
      // EventBridge's retry policy: handing the event to Lambda, not a failed run (REDELIVERY_ASYNC above).
      targets: [new targets.LambdaFunction(this.fn, { retryAttempts: 0 })],
    });
  }
}
