/**
 * The owner's operations on the message archive, on a DynamoDB document client: list (a Scan: only
 * the owner's tool reads the whole table), show, resend and delete one message by id.
 */
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, paginateQuery, paginateScan, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ARCHIVE_ATTRIBUTES as A, ARCHIVE_STATUS_INDEX, type ArchivedMessage, type MessageStatus } from '../../../contract/archive';
import { errorName } from '../kit/aws';

/**
 * A message as the owner's tool reads it: the archive's shape (contract/archive.ts), tolerant of an
 * item another version wrote (any status text, no time-to-live), without the functions' bookkeeping.
 */
export type ReadMessage = Omit<ArchivedMessage, 'status' | 'expiresAt' | 'idempotencyHash' | 'claimedUntil' | 'pendingSince'> & {
  status: MessageStatus | string;
  /** Epoch seconds (the table's time-to-live). */
  expiresAt?: number;
};

/** The id names no message (never written, expired, or deleted). */
export class UnknownMessageError extends Error {
  constructor(readonly id: string) {
    super(`No message with id ${id} in the archive (\`npm run messages\` lists the ids).`);
    this.name = 'UnknownMessageError';
  }
}

export interface Archive {
  readonly doc: DynamoDBDocumentClient;
  readonly table: string;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}

/** An item read from the table, with the types the CLI relies on (a malformed attribute never throws). */
export function toMessage(item: Record<string, unknown>): ReadMessage {
  const message: ReadMessage = {
    id: text(item[A.id]),
    receivedAt: text(item[A.receivedAt]),
    name: text(item[A.name]),
    email: text(item[A.email]),
    message: text(item[A.message]),
    status: text(item[A.status]),
    attempts: Number(item[A.attempts] ?? 0) || 0,
  };
  const expiresAt = Number(item[A.expiresAt]);
  if (item[A.expiresAt] !== undefined && Number.isFinite(expiresAt)) message.expiresAt = expiresAt;
  for (const key of ['language', 'lastError', 'sesMessageId'] as const) {
    if (typeof item[A[key]] === 'string' && item[A[key]]) message[key] = item[A[key]] as string;
  }
  return message;
}

/** Every message, newest first. The contact form's counters share the table but have no status: they are left out. */
export async function listMessages(archive: Archive): Promise<ReadMessage[]> {
  const messages: ReadMessage[] = [];
  for await (const page of paginateScan({ client: archive.doc }, { TableName: archive.table })) {
    for (const item of page.Items ?? []) if (item[A.status] !== undefined) messages.push(toMessage(item));
  }
  // ISO 8601 in UTC sorts as text; the id breaks ties so the order is stable.
  return messages.sort((a, b) => b.receivedAt.localeCompare(a.receivedAt) || a.id.localeCompare(b.id));
}

export async function getMessage(archive: Archive, id: string): Promise<ReadMessage> {
  const { Item } = await archive.doc.send(new GetCommand({ TableName: archive.table, Key: { [A.id]: id }, ConsistentRead: true }));
  if (!Item) throw new UnknownMessageError(id);
  return toMessage(Item);
}

/**
 * Puts a message back in the redelivery's queue: status pending, attempts kept, any old claim
 * dropped, and the give-up time counted afresh from now (`pendingSince`). Returns the status it had.
 * A message that is pending already is left as it is: it may be in a sender's hands right now, and
 * dropping that claim could mail it twice.
 */
export async function resendMessage(archive: Archive, id: string, now: Date = new Date()): Promise<MessageStatus | string> {
  try {
    const { Attributes } = await archive.doc.send(
      new UpdateCommand({
        TableName: archive.table,
        Key: { [A.id]: id },
        UpdateExpression: 'SET #status = :pending, #pendingSince = :now REMOVE #claimedUntil',
        ConditionExpression: 'attribute_exists(#id) AND #status <> :pending',
        ExpressionAttributeNames: {
          '#id': A.id,
          '#status': A.status,
          '#claimedUntil': A.claimedUntil,
          '#pendingSince': A.pendingSince,
        },
        ExpressionAttributeValues: { ':pending': 'pending' satisfies MessageStatus, ':now': now.toISOString() },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    return text(Attributes?.[A.status]);
  } catch (error) {
    // Either no such message, or it is pending already: tell the two apart.
    if (errorName(error) === 'ConditionalCheckFailedException') return (await getMessage(archive, id)).status;
    throw error;
  }
}

/** Every failed message back to pending (through the status index); returns their ids. */
export async function resendFailed(archive: Archive): Promise<string[]> {
  const failed: MessageStatus = 'failed';
  const ids: string[] = [];
  const query = {
    TableName: archive.table,
    IndexName: ARCHIVE_STATUS_INDEX,
    KeyConditionExpression: '#status = :failed',
    ExpressionAttributeNames: { '#status': A.status },
    ExpressionAttributeValues: { ':failed': failed },
  };
  for await (const page of paginateQuery({ client: archive.doc }, query)) for (const item of page.Items ?? []) ids.push(text(item[A.id]));
  const resent: string[] = [];
  for (const id of ids) {
    try {
      await resendMessage(archive, id);
      resent.push(id);
    } catch (error) {
      // Deleted between the query and the update: nothing to resend.
      if (!(error instanceof UnknownMessageError)) throw error;
    }
  }
  return resent;
}

/**
 * Erases one message for good (erasure on request). The table's point-in-time recovery can restore
 * any second of the last 35 days (its default recovery period; DynamoDB Developer Guide,
 * "Point-in-time recovery for DynamoDB"), so a copy ages out of the backups within 35 days.
 */
export async function deleteMessage(archive: Archive, id: string): Promise<void> {
  try {
    await archive.doc.send(
      new DeleteCommand({
        TableName: archive.table,
        Key: { [A.id]: id },
        ConditionExpression: 'attribute_exists(#id)',
        ExpressionAttributeNames: { '#id': A.id },
      }),
    );
  } catch (error) {
    throw errorName(error) === 'ConditionalCheckFailedException' ? new UnknownMessageError(id) : error;
  }
}
