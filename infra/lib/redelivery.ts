import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
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
 * The scheduled redelivery: every REDELIVERY_INTERVAL.awsMinutes it lists the pending messages
 * through the status index and sends each one it can claim, as the sender, through the
 * configuration set.
 *
 * No reserved concurrency: reserving even 1 fails the deploy on the new accounts whose whole quota
 * is 10 (Lambda keeps 100 units unreserved; Lambda developer guide, "Configuring reserved
 * concurrency"), and the conditional claim on each message already keeps two runs (or a run and
 * the contact function) from sending it twice. A run that fails is not retried: the next one comes
 * within the interval, and a retry could only overlap it.
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

    this.schedule = new events.Rule(this, 'Schedule', {
      description: `Runs the redelivery every ${REDELIVERY_INTERVAL.awsMinutes} minutes`,
      schedule: events.Schedule.rate(Duration.minutes(REDELIVERY_INTERVAL.awsMinutes)),
      targets: [new targets.LambdaFunction(this.fn, { retryAttempts: 0 })],
    });
  }
}
