/**
 * Counters in the message archive's table, shared by the contact form's limits (functions/contact/limits.ts)
 * and the beacons' daily count (beacon-limit.ts): one conditional UpdateItem per count (atomic in
 * DynamoDB), expired by the table's time-to-live; and the day's random key addresses are hashed with,
 * so no address is ever stored and no hash outlives its day.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { CallOptions } from '../archive/store';

export interface CounterStore {
  /**
   * Adds one to counter `id` unless it already stands at `max`: the new count, or undefined when
   * the counter was full (nothing is written then). `expiresAt` (epoch seconds) is set on creation.
   */
  take(id: string, max: number, expiresAt: number, options?: CallOptions): Promise<number | undefined>;
  /**
   * The value stored under `id`, or `candidate` stored there first when there is none (one atomic
   * write, so concurrent Lambdas all end up with the same value). `expiresAt` is set on creation.
   */
  keep(id: string, candidate: string, expiresAt: number, options?: CallOptions): Promise<string>;
  /** Adds `n` to counter `id` with no ceiling; `expiresAt` (epoch seconds) is set on creation. */
  add(id: string, n: number, expiresAt: number, options?: CallOptions): Promise<void>;
  /** The count stored under `id` (0 when there is none). */
  read(id: string, options?: CallOptions): Promise<number>;
  /** Deletes item `id` now (nothing happens when there is none). */
  forget(id: string, options?: CallOptions): Promise<void>;
}

/** Full counters one container remembers at most (a few MB at most; past it, full ones are asked again). */
const MAX_REMEMBERED_FULL = 50_000;

const isConditionFailure = (error: unknown) => (error as { name?: unknown } | null)?.name === 'ConditionalCheckFailedException';

export function dynamoCounters({ table, client }: { table: string; client: DynamoDBClient }): CounterStore {
  const doc = DynamoDBDocumentClient.from(client);
  // Counters found full at a ceiling, until they expire: a count never goes down, so one full at `max` stays
  // full for any ceiling up to it (the siteverify budget's ceiling grows by the day, so a higher one is
  // asked again), and a flooding address past its share costs this container no write after its first refusal.
  const full = new Map<string, { until: number; max: number }>();
  return {
    async take(id, max, expiresAt, options) {
      const known = full.get(id);
      if (known && known.max >= max && known.until * 1000 > Date.now()) return undefined;
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
        if (!isConditionFailure(error)) throw error;
        if (full.size >= MAX_REMEMBERED_FULL) for (const [key, { until }] of full) if (until * 1000 <= Date.now()) full.delete(key);
        if (full.size < MAX_REMEMBERED_FULL) full.set(id, { until: expiresAt, max });
        return undefined;
      }
    },
    async add(id, n, expiresAt, options) {
      await doc.send(
        new UpdateCommand({
          TableName: table,
          Key: { id },
          UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :n, #expires = if_not_exists(#expires, :expires)',
          ExpressionAttributeNames: { '#count': 'count', '#expires': 'expiresAt' },
          ExpressionAttributeValues: { ':zero': 0, ':n': n, ':expires': expiresAt },
        }),
        options,
      );
    },
    async keep(id, candidate, expiresAt, options) {
      const { Attributes } = await doc.send(
        new UpdateCommand({
          TableName: table,
          Key: { id },
          UpdateExpression: 'SET #value = if_not_exists(#value, :value), #expires = if_not_exists(#expires, :expires)',
          ExpressionAttributeNames: { '#value': 'value', '#expires': 'expiresAt' },
          ExpressionAttributeValues: { ':value': candidate, ':expires': expiresAt },
          ReturnValues: 'ALL_NEW',
        }),
        options,
      );
      const value: unknown = Attributes?.value;
      if (typeof value !== 'string' || value === '') throw new Error(`Counter item ${id} holds no value`);
      return value;
    },
    async read(id, options) {
      // Strongly consistent: a breaker must not read a count older than the writes it follows.
      const { Item } = await doc.send(
        new GetCommand({
          TableName: table,
          Key: { id },
          ConsistentRead: true,
          ProjectionExpression: '#count',
          ExpressionAttributeNames: { '#count': 'count' },
        }),
        options,
      );
      const count: unknown = Item?.count;
      if (Item === undefined) return 0;
      if (typeof count !== 'number' || !Number.isFinite(count)) throw new Error(`Counter item ${id} holds no count`);
      return count;
    },
    async forget(id, options) {
      await doc.send(new DeleteCommand({ TableName: table, Key: { id } }), options);
    },
  };
}

/** A counter store in memory, for tests (the same contract as DynamoDB's). */
export function memoryCounters(): CounterStore & {
  items: Map<string, { count: number; expiresAt: number }>;
  values: Map<string, { value: string; expiresAt: number }>;
} {
  const items = new Map<string, { count: number; expiresAt: number }>();
  const values = new Map<string, { value: string; expiresAt: number }>();
  return {
    items,
    values,
    async keep(id, candidate, expiresAt) {
      const item = values.get(id) ?? { value: candidate, expiresAt };
      values.set(id, item);
      return item.value;
    },
    async read(id) {
      return items.get(id)?.count ?? 0;
    },
    async add(id, n, expiresAt) {
      const item = items.get(id) ?? { count: 0, expiresAt };
      item.count += n;
      items.set(id, item);
    },
    async forget(id) {
      items.delete(id);
      values.delete(id);
    },
    async take(id, max, expiresAt) {
      const item = items.get(id) ?? { count: 0, expiresAt };
      if (item.count >= max) return undefined;
      item.count += 1;
      items.set(id, item);
      return item.count;
    },
  };
}

const DAY_SECONDS = 24 * 60 * 60;

/** The UTC day a moment falls in, e.g. "2026-11-22". */
export const utcDay = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 10);

/** The id of the item that holds a UTC day's hash key. */
export const counterKeyId = (day: string) => `counterkey#${day}`;

/** The UTC day before `day` ("2026-11-22" → "2026-11-21"). */
export const previousUtcDay = (day: string) => utcDay(Date.parse(`${day}T00:00:00Z`) - DAY_SECONDS * 1000);

/**
 * The key the day's address hashes are made with: 32 random bytes made by the first request of the
 * UTC day and stored in the counters' table (never in a template, an environment variable or a
 * log), so nothing a deploy prints can reverse a hash, and one address has unrelated hashes on two
 * days. Every window of CONTACT_ADDRESS_LIMITS ends by the day's end (10 minutes and a day divide
 * a day), so a key is dropped when its day ends: its item carries a time-to-live at the day's end,
 * but DynamoDB deletes expired items only within a few days, so the key would lie beside the day's
 * hashes meanwhile. The circuit breaker, every few minutes, deletes the finished day's key
 * (functions/breaker/run.ts), and so does this Lambda's first request of a new day; this Lambda
 * also forgets its copy.
 */
export function counterKeys(store: CounterStore, random: () => string = () => randomBytes(32).toString('base64url')) {
  let cached: { day: string; key: string } | undefined;
  return async (nowMs: number, options?: CallOptions): Promise<string> => {
    const day = utcDay(nowMs);
    if (cached?.day === day) return cached.key;
    const dayEnd = Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + DAY_SECONDS;
    const key = await store.keep(counterKeyId(day), random(), dayEnd, options);
    if (cached) await store.forget(counterKeyId(previousUtcDay(day)), options).catch(() => undefined);
    cached = { day, key };
    return key;
  };
}

/** The keyed hash an address is counted under (never the address itself). */
export const hashAddress = (address: string, hashKey: string) =>
  createHmac('sha256', hashKey).update(address).digest('base64url').slice(0, 32);
