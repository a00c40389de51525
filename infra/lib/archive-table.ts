import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { ARCHIVE_ATTRIBUTES, ARCHIVE_STATUS_INDEX } from '../../contract/archive';

export interface ArchiveTableProps {
  /** The owner's deleteArchiveOnDestroy: true lets `cdk destroy` delete the messages with the stack. */
  readonly deleteOnDestroy: boolean;
}

/** What a function may do with the archive; the names are DynamoDB's actions without the prefix. */
export type ArchiveItemAction = 'PutItem' | 'GetItem' | 'UpdateItem';

/** One statement on the grantee's own policy. */
const grant = (grantee: iam.IGrantable, statement: iam.PolicyStatementProps) =>
  grantee.grantPrincipal.addToPrincipalPolicy(new iam.PolicyStatement(statement));

/**
 * The message archive: one item per accepted contact message, keyed by its id, with an index on
 * status (sorted by time received) for the redelivery. On-demand, point-in-time recovery, encrypted
 * at rest, expired by DynamoDB's time-to-live. Kept when the stack is destroyed unless the owner asks.
 */
export class ArchiveTable extends Construct {
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: ArchiveTableProps) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Messages', {
      partitionKey: { name: ARCHIVE_ATTRIBUTES.id, type: dynamodb.AttributeType.STRING },
      // A few messages a week: paying per request costs cents, provisioned capacity dollars.
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      // Restores any second of the last 35 days (the default recovery period; DynamoDB Developer Guide,
      // "Point-in-time recovery for DynamoDB"); the owner's erasure text relies on that bound.
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Encrypted at rest with an AWS owned key: free, no key policy to get wrong, and only this
      // account's principals with a DynamoDB grant can read the items anyway.
      encryption: dynamodb.TableEncryption.DEFAULT,
      // Epoch seconds; DynamoDB deletes expired items in the background, typically within a few days
      // (DynamoDB Developer Guide, "Time to Live (TTL)").
      timeToLiveAttribute: ARCHIVE_ATTRIBUTES.expiresAt,
      removalPolicy: props.deleteOnDestroy ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
      // A kept archive is also safe from a stray delete in the console; the owner who asked for
      // deletion on destroy gets a table CloudFormation can delete.
      deletionProtection: !props.deleteOnDestroy,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: ARCHIVE_STATUS_INDEX,
      partitionKey: { name: ARCHIVE_ATTRIBUTES.status, type: dynamodb.AttributeType.STRING },
      sortKey: { name: ARCHIVE_ATTRIBUTES.receivedAt, type: dynamodb.AttributeType.STRING },
      // The redelivery sends what it finds: the whole message, without a read per item.
      projectionType: dynamodb.ProjectionType.ALL,
    });
  }

  /** ARN of the status index (Query is granted on it, never on the table). */
  get statusIndexArn(): string {
    return `${this.table.tableArn}/index/${ARCHIVE_STATUS_INDEX}`;
  }

  /**
   * Lets a function act on single items, by key: never Scan, Query on the table, or DeleteItem.
   * (Only the owner's `npm run messages` reads the whole table, with the owner's own credentials.)
   */
  grantItems(grantee: iam.IGrantable, actions: readonly ArchiveItemAction[], sid: string): void {
    grant(grantee, { sid, actions: actions.map((action) => `dynamodb:${action}`), resources: [this.table.tableArn] });
  }

  /**
   * Lets a beacon function bump its per-address counters and make the day's hash key: UpdateItem on
   * items whose key starts with `beacon#` or `counterkey#` only (the dynamodb:LeadingKeys condition,
   * "Using IAM policy conditions for fine-grained access control", DynamoDB Developer Guide:
   * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html), so it
   * can neither read nor change a message.
   */
  grantBeaconCounters(grantee: iam.IGrantable, sid: string): void {
    grant(grantee, {
      sid,
      actions: ['dynamodb:UpdateItem'],
      resources: [this.table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['beacon#*', 'counterkey#*'] } },
    });
  }

  /** Lets a function list messages by status through the index (the table itself stays unqueried). */
  grantQueryByStatus(grantee: iam.IGrantable, sid: string): void {
    grant(grantee, { sid, actions: ['dynamodb:Query'], resources: [this.statusIndexArn] });
  }
}
