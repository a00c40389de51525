/**
 * The message archive on DynamoDB: one item per accepted contact message. Every write is
 * conditional, so the archive itself decides races: a put never overwrites (the first of two
 * requests with one Idempotency-Key wins), and only the holder of a claim (its `claimedUntil`
 * value) may settle a message, so no two senders ever send one message. Nothing here scans or
 * deletes: the functions may put, get, update and query the status index only.
 */
import { ConditionalCheckFailedException, DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ARCHIVE_STATUS_INDEX, type ArchivedMessage, type MessageStatus } from '../../contract/archive';

export type { ArchivedMessage };

/** How each call may be cut short: the caller's remaining budget. */
export interface CallOptions {
  abortSignal?: AbortSignal;
}

/** The status SES's own events set. */
export type EventStatus = Extract<MessageStatus, 'sent' | 'delivered' | 'bounced' | 'complained' | 'failed'>;

export interface ArchiveStore {
  /** Writes a new message; 'exists' when the id is taken (nothing is overwritten). */
  put(message: ArchivedMessage, options?: CallOptions): Promise<'created' | 'exists'>;
  get(id: string, options?: CallOptions): Promise<ArchivedMessage | undefined>;
  /**
   * Takes the right to send a pending message until `until` (epoch ms) and counts the attempt.
   * Undefined when the message is not pending or another sender's claim still runs.
   */
  claim(id: string, now: number, until: number, options?: CallOptions): Promise<ArchivedMessage | undefined>;
  /** Settles a claimed message; false when the claim is no longer ours (nothing is written then). */
  markSent(id: string, claim: number, sesMessageId: string, options?: CallOptions): Promise<boolean>;
  markFailed(id: string, claim: number, reason: string, options?: CallOptions): Promise<boolean>;
  /** Gives the claim up: the message stays pending for the redelivery, with the reason it was not sent. */
  release(id: string, claim: number, reason: string, options?: CallOptions): Promise<boolean>;
  /** Keeps the claim (SES may have sent it): pending, with the reason, until SES's event or the claim's end. */
  hold(id: string, claim: number, reason: string, options?: CallOptions): Promise<boolean>;
  /**
   * SES's word on a mail. `delivered` never replaces a later word (bounced, complained); false when the
   * message is unknown or already has a word that outranks this one. Every word but `sent` ends a claim;
   * `sent` (SES's Send event) leaves it, so the sender still waiting for SES's answer can record it.
   */
  setEventStatus(id: string, status: EventStatus, detail: string | undefined, options?: CallOptions): Promise<boolean>;
  /** Pending messages, oldest first, through the status index. */
  listPending(limit: number, options?: CallOptions): Promise<ArchivedMessage[]>;
}

/**
 * The statuses an event may replace (a complaint may follow a delivery; a delivery never undoes a bounce;
 * Send only settles a message still pending, so a late Send changes nothing).
 */
export const EVENT_STATUS_FROM: Record<EventStatus, readonly MessageStatus[]> = {
  sent: ['pending'],
  delivered: ['pending', 'sent'],
  bounced: ['pending', 'sent', 'delivered'],
  complained: ['pending', 'sent', 'delivered', 'bounced'],
  failed: ['pending', 'sent'],
};

/** The longest reason kept in `lastError`: SES's reasons are short; a long one is cut. */
export const MAX_REASON_CHARS = 300;
export const clipReason = (reason: string): string =>
  reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS - 1)}…` : reason;

export interface DynamoArchiveOptions {
  table: string;
  /** A client built by the caller (endpoint, region, timeouts). */
  client: DynamoDBClient;
}

/** The client the functions use: a short timeout per call and one retry at most (every write is conditional, so a retry is safe). */
export function createDynamoClient(config: DynamoDBClientConfig & { requestTimeoutMs?: number }): DynamoDBClient {
  const { requestTimeoutMs = 1_000, ...rest } = config;
  return new DynamoDBClient({
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 500, requestTimeout: requestTimeoutMs },
    ...rest,
  });
}

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException || (error as { name?: unknown } | null)?.name === 'ConditionalCheckFailedException';

/** An update of one item, less the table and key it goes to. */
type ItemUpdate = Omit<UpdateCommandInput, 'TableName' | 'Key'>;

/** Runs a conditional write; false when the condition did not hold. */
async function conditional(run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Settles a claimed message: its new status and fields, the claim removed, only while the claim is still this one. */
function settleUpdate(claim: number, status: MessageStatus, set: Record<string, unknown>): ItemUpdate {
  const names: Record<string, string> = { '#status': 'status', '#claim': 'claimedUntil' };
  const values: Record<string, unknown> = { ':status': status, ':claim': claim };
  const sets = ['#status = :status'];
  for (const [key, value] of Object.entries(set)) {
    names[`#${key}`] = key;
    values[`:${key}`] = value;
    sets.push(`#${key} = :${key}`);
  }
  return {
    UpdateExpression: `SET ${sets.join(', ')} REMOVE #claim`,
    ConditionExpression: '#claim = :claim',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** What an SES event records: its status, only from the statuses it may follow (EVENT_STATUS_FROM). */
function eventUpdate(status: EventStatus, detail: string | undefined): ItemUpdate {
  const from = EVENT_STATUS_FROM[status];
  const values: Record<string, unknown> = { ':status': status };
  from.forEach((s, i) => (values[`:from${i}`] = s));
  const sets = ['#status = :status'];
  if (detail !== undefined) {
    values[':detail'] = clipReason(detail);
    sets.push('lastError = :detail');
  }
  return {
    UpdateExpression: `SET ${sets.join(', ')}${status === 'sent' ? '' : ' REMOVE claimedUntil'}`,
    ConditionExpression: `attribute_exists(id) AND #status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: values,
  };
}

/** The pending messages, oldest first, at most `limit`, read page by page from the status index. */
async function listPending(doc: DynamoDBDocumentClient, table: string, limit: number, options?: CallOptions): Promise<ArchivedMessage[]> {
  const items: ArchivedMessage[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new QueryCommand({
        TableName: table,
        IndexName: ARCHIVE_STATUS_INDEX,
        KeyConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending' },
        ScanIndexForward: true,
        Limit: limit - items.length,
        ExclusiveStartKey: start,
      }),
      options,
    );
    items.push(...((page.Items ?? []) as ArchivedMessage[]));
    start = page.LastEvaluatedKey;
  } while (start && items.length < limit);
  return items;
}

export function dynamoArchive({ table, client }: DynamoArchiveOptions): ArchiveStore {
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  const update = (id: string, input: ItemUpdate, options?: CallOptions) =>
    conditional(() => doc.send(new UpdateCommand({ TableName: table, Key: { id }, ...input }), options));
  return {
    async put(message, options) {
      const created = await conditional(() =>
        doc.send(new PutCommand({ TableName: table, Item: message, ConditionExpression: 'attribute_not_exists(id)' }), options),
      );
      return created ? 'created' : 'exists';
    },

    async get(id, options) {
      const result = await doc.send(new GetCommand({ TableName: table, Key: { id }, ConsistentRead: true }), options);
      return result.Item as ArchivedMessage | undefined;
    },

    async claim(id, now, until, options) {
      try {
        const result = await doc.send(
          new UpdateCommand({
            TableName: table,
            Key: { id },
            UpdateExpression: 'SET #claim = :until ADD attempts :one',
            ConditionExpression: '#status = :pending AND (attribute_not_exists(#claim) OR #claim < :now)',
            ExpressionAttributeNames: { '#status': 'status', '#claim': 'claimedUntil' },
            ExpressionAttributeValues: { ':until': until, ':one': 1, ':pending': 'pending', ':now': now },
            ReturnValues: 'ALL_NEW',
          }),
          options,
        );
        return result.Attributes as ArchivedMessage;
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
    },

    markSent: (id, claim, sesMessageId, options) => update(id, settleUpdate(claim, 'sent', { sesMessageId }), options),
    markFailed: (id, claim, reason, options) => update(id, settleUpdate(claim, 'failed', { lastError: clipReason(reason) }), options),
    release: (id, claim, reason, options) => update(id, settleUpdate(claim, 'pending', { lastError: clipReason(reason) }), options),
    hold: (id, claim, reason, options) =>
      update(
        id,
        {
          UpdateExpression: 'SET lastError = :reason',
          ConditionExpression: '#claim = :claim',
          ExpressionAttributeNames: { '#claim': 'claimedUntil' },
          ExpressionAttributeValues: { ':reason': clipReason(reason), ':claim': claim },
        },
        options,
      ),
    setEventStatus: (id, status, detail, options) => update(id, eventUpdate(status, detail), options),
    listPending: (limit, options) => listPending(doc, table, limit, options),
  };
}
