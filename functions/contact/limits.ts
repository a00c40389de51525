/**
 * The contact form's counters: requests per visitor address in fixed windows, and siteverify calls
 * per calendar month. Each is one item of the message archive's table, bumped by one conditional
 * UpdateItem (atomic in DynamoDB, so two Lambdas at once never both take the last slot) and expired
 * by the table's time-to-live. They live in the archive's table rather than a table of their own:
 * the table, its time-to-live and the contact function's UpdateItem grant already exist, a quiet
 * month's few writes cost nothing, and an item without a `status` is neither in the redelivery's
 * index nor in `npm run messages`. Addresses are never stored: the key holds a keyed hash of one.
 */
import { createHmac } from 'node:crypto';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CAPTCHA_BUDGET_WARNING_SHARE, CONTACT_ADDRESS_LIMITS } from '../../contract/limits';
import type { CallOptions } from '../archive/store';

export interface CounterStore {
  /**
   * Adds one to counter `id` unless it already stands at `max`: the new count, or undefined when
   * the counter was full (nothing is written then). `expiresAt` (epoch seconds) is set on creation.
   */
  take(id: string, max: number, expiresAt: number, options?: CallOptions): Promise<number | undefined>;
}

const isConditionFailure = (error: unknown) => (error as { name?: unknown } | null)?.name === 'ConditionalCheckFailedException';

export function dynamoCounters({ table, client }: { table: string; client: DynamoDBClient }): CounterStore {
  const doc = DynamoDBDocumentClient.from(client);
  return {
    async take(id, max, expiresAt, options) {
      try {
        const { Attributes } = await doc.send(
          new UpdateCommand({
            TableName: table,
            Key: { id },
            UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, #expires = if_not_exists(#expires, :expires)',
            ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
            ExpressionAttributeNames: { '#count': 'count', '#expires': 'expiresAt' },
            ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': max, ':expires': expiresAt },
            ReturnValues: 'UPDATED_NEW',
          }),
          options,
        );
        return Number(Attributes?.count);
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
    },
  };
}

/** A counter store in memory, for tests (the same contract as DynamoDB's). */
export function memoryCounters(): CounterStore & { items: Map<string, { count: number; expiresAt: number }> } {
  const items = new Map<string, { count: number; expiresAt: number }>();
  return {
    items,
    async take(id, max, expiresAt) {
      const item = items.get(id) ?? { count: 0, expiresAt };
      if (item.count >= max) return undefined;
      item.count += 1;
      items.set(id, item);
      return item.count;
    },
  };
}

export interface AddressWindow {
  windowSeconds: number;
  maxRequests: number;
}

export type AddressVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Counts one request from `address` in each window (shortest first) and says whether it may go on.
 * A full window stops the count there: a flooding address writes one item per request, not one per window.
 * `hashKey` keys the hash, so the stored ids cannot be matched against a list of addresses.
 */
export async function takeAddressSlot(
  store: CounterStore,
  address: string,
  hashKey: string,
  nowMs: number,
  options?: CallOptions,
  windows: readonly AddressWindow[] = CONTACT_ADDRESS_LIMITS,
): Promise<AddressVerdict> {
  const hashed = createHmac('sha256', hashKey).update(address).digest('base64url').slice(0, 32);
  const now = Math.floor(nowMs / 1000);
  for (const window of windows) {
    const start = now - (now % window.windowSeconds);
    const end = start + window.windowSeconds;
    const count = await store.take(`limit#${window.windowSeconds}#${hashed}#${start}`, window.maxRequests, end, options);
    if (count === undefined) return { ok: false, retryAfterSeconds: Math.max(1, end - now) };
  }
  return { ok: true };
}

export type BudgetVerdict =
  | { ok: true; used: number; warn: boolean }
  | { ok: false; used: number };

/** The calendar month (UTC) a siteverify call counts in, e.g. "2026-11". */
export function budgetMonth(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}

/**
 * Takes one siteverify call from the month's budget: refused once `budget` calls were counted, until
 * the month turns (a new item). `warn` from the call that reaches the warning share on.
 */
export async function takeBudgetSlot(
  store: CounterStore,
  budget: number,
  nowMs: number,
  options?: CallOptions,
): Promise<BudgetVerdict> {
  const month = budgetMonth(nowMs);
  const date = new Date(nowMs);
  // Kept a month past its own, so the owner can still read last month's count.
  const expiresAt = Math.floor(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 2, 1) / 1000);
  const count = await store.take(`siteverify#${month}`, budget, expiresAt, options);
  if (count === undefined) return { ok: false, used: budget };
  return { ok: true, used: count, warn: count >= Math.ceil(budget * CAPTCHA_BUDGET_WARNING_SHARE) };
}
