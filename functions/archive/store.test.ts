/**
 * The archive's conditions, one suite run against the in-memory fake the handler tests use and
 * against the real DynamoDB code talking to dynalite: what the fake promises, the table keeps.
 */
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveTableDefinition } from '../../contract/archive';
import { FakeArchive } from './fake-store';
import { dynamoArchive, MAX_REASON_CHARS, type ArchivedMessage, type ArchiveStore } from './store';

let server: Server;
let client: DynamoDBClient;
let tables = 0;

beforeAll(async () => {
  server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});

afterAll(async () => {
  client.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function dynamoStore(): Promise<ArchiveStore> {
  const table = `messages-${++tables}`;
  await client.send(new CreateTableCommand(archiveTableDefinition(table)));
  // dynalite answers CreateTable while the table is CREATING and refuses items until a timer makes it
  // ACTIVE; on a busy machine the first put can come first (ResourceNotFoundException), so wait for it.
  for (let i = 0; i < 100; i++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
    if (Table?.TableStatus === 'ACTIVE') break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return dynamoArchive({ table, client });
}

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

function message(id: string, overrides: Partial<ArchivedMessage> = {}): ArchivedMessage {
  return {
    id,
    receivedAt: new Date(NOW).toISOString(),
    name: 'Ada Lovelace',
    email: 'ada@example.org',
    message: 'Hello there',
    status: 'pending',
    attempts: 0,
    expiresAt: Math.floor(NOW / 1000) + 365 * 86_400,
    ...overrides,
  };
}

describe.each([
  ['the in-memory fake', async (): Promise<ArchiveStore> => new FakeArchive()],
  ['DynamoDB code on dynalite', dynamoStore],
])('archive store: %s', (_name, make) => {
  it('puts a message once: a second put with the same id changes nothing', async () => {
    const store = await make();
    expect(await store.put(message('a', { language: 'es' }))).toBe('created');
    expect(await store.put(message('a', { name: 'Someone Else' }))).toBe('exists');
    expect(await store.get('a')).toEqual(message('a', { language: 'es' }));
    expect(await store.get('missing')).toBeUndefined();
  });

  it('lets one of many concurrent puts with one id win', async () => {
    const store = await make();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store.put(message('race', { message: `try ${i}` }))));
    expect(results.filter((r) => r === 'created')).toHaveLength(1);
  });

  it('claims a pending message for one sender at a time, counting attempts; a run-out claim can be taken over', async () => {
    const store = await make();
    await store.put(message('c'));
    const first = await store.claim('c', NOW, NOW + 60_000);
    expect(first).toMatchObject({ id: 'c', attempts: 1, claimedUntil: NOW + 60_000, name: 'Ada Lovelace' });
    expect(await store.claim('c', NOW + 1_000, NOW + 61_000)).toBeUndefined();
    // The first sender died: once its claim ran out, another takes the message.
    const second = await store.claim('c', NOW + 60_001, NOW + 120_001);
    expect(second).toMatchObject({ attempts: 2, claimedUntil: NOW + 120_001 });
    // The first sender's late write is refused: the claim is no longer its.
    expect(await store.markSent('c', NOW + 60_000, 'ses-late')).toBe(false);
    expect(await store.markSent('c', NOW + 120_001, 'ses-1')).toBe(true);
    expect(await store.get('c')).toMatchObject({ status: 'sent', sesMessageId: 'ses-1', attempts: 2 });
    expect((await store.get('c'))?.claimedUntil).toBeUndefined();
    expect(await store.claim('c', NOW + 200_000, NOW + 260_000)).toBeUndefined(); // not pending any more
  });

  it('lets exactly one of many concurrent claims win', async () => {
    const store = await make();
    await store.put(message('cc'));
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => store.claim('cc', NOW, NOW + 60_000 + i)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await store.get('cc'))?.attempts).toBe(1);
  });

  it('releases a claim (still pending, with the reason) and marks a refusal failed, cutting long reasons', async () => {
    const store = await make();
    await store.put(message('r'));
    await store.put(message('f'));
    await store.claim('r', NOW, NOW + 1);
    expect(await store.release('r', NOW + 1, 'Throttling: Maximum sending rate exceeded.')).toBe(true);
    expect(await store.get('r')).toMatchObject({ status: 'pending', lastError: 'Throttling: Maximum sending rate exceeded.' });
    expect((await store.get('r'))?.claimedUntil).toBeUndefined();
    expect(await store.claim('r', NOW + 2, NOW + 3)).toBeDefined(); // free again at once
    // A hold keeps the claim: nobody else sends it before the claim runs out.
    expect(await store.hold('r', NOW + 3, 'No answer from SES: TimeoutError')).toBe(true);
    expect(await store.get('r')).toMatchObject({ status: 'pending', claimedUntil: NOW + 3, lastError: 'No answer from SES: TimeoutError' });
    expect(await store.hold('r', NOW + 999, 'not ours')).toBe(false);
    await store.claim('f', NOW, NOW + 1);
    expect(await store.markFailed('f', NOW + 1, `MessageRejected: ${'x'.repeat(1000)}`)).toBe(true);
    const failed = await store.get('f');
    expect(failed?.status).toBe('failed');
    expect(failed?.lastError).toHaveLength(MAX_REASON_CHARS);
  });

  it("sets SES's word, never letting a delivery undo a bounce or a complaint", async () => {
    const store = await make();
    await store.put(message('e', { status: 'sent' }));
    expect(await store.setEventStatus('e', 'delivered', undefined)).toBe(true);
    expect(await store.setEventStatus('e', 'complained', 'Complaint: abuse')).toBe(true);
    expect(await store.setEventStatus('e', 'delivered', undefined)).toBe(false);
    expect(await store.get('e')).toMatchObject({ status: 'complained', lastError: 'Complaint: abuse' });
    expect(await store.setEventStatus('unknown-id', 'bounced', 'Bounce: Permanent/General')).toBe(false);
    expect(await store.get('unknown-id')).toBeUndefined(); // an event never creates a message
  });

  it("takes SES's Send event for a pending message as sent, keeping the sender's claim; a late Send changes nothing", async () => {
    const store = await make();
    await store.put(message('s'));
    const claimed = await store.claim('s', NOW, NOW + 60_000);
    expect(claimed?.status).toBe('pending');
    expect(await store.setEventStatus('s', 'sent', undefined)).toBe(true);
    expect(await store.get('s')).toMatchObject({ status: 'sent', claimedUntil: NOW + 60_000 });
    expect(await store.markSent('s', NOW + 60_000, 'ses-1')).toBe(true);
    expect(await store.setEventStatus('s', 'delivered', undefined)).toBe(true);
    expect(await store.setEventStatus('s', 'sent', undefined)).toBe(false);
    expect(await store.get('s')).toMatchObject({ status: 'delivered', sesMessageId: 'ses-1' });
    expect(await store.listPending(10)).toEqual([]);
  });

  it('lists pending messages oldest first, and only those', async () => {
    const store = await make();
    const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();
    await store.put(message('late', { receivedAt: at(3) }));
    await store.put(message('early', { receivedAt: at(1) }));
    await store.put(message('done', { receivedAt: at(2), status: 'sent' }));
    await store.put(message('middle', { receivedAt: at(2) }));
    expect((await store.listPending(10)).map((m) => m.id)).toEqual(['early', 'middle', 'late']);
    expect((await store.listPending(2)).map((m) => m.id)).toEqual(['early', 'middle']);
  });
});
