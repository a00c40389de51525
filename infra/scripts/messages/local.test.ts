/**
 * `npm run messages -- --local` against a real DynamoDB-compatible server (dynalite, in memory, on
 * an ephemeral port) holding the table the local stack creates: the real SDK, real requests.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ARCHIVE_TABLE } from '../../../contract/archive';
import { ensureTable } from '../../local/archive';
import { claimDataDir } from '../../shared/running-stack';
import { runMessages } from './run';
import { scratchDir } from '../../../tools/scratch';

// dynalite ships no types: a server factory whose result is a node:http server.
const dynalite = createRequire(import.meta.url)('dynalite') as (options: Record<string, number>) => Server;

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts');

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

const instant = { createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 };
let server: Server;
let emptyServer: Server;
let port: number;
let emptyPort: number;
let doc: DynamoDBDocumentClient;

const message = (id: string, receivedAt: string, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  receivedAt,
  name: `Visitor ${id}`,
  email: `${id}@example.org`,
  message: `Message ${id}\nsecond line`,
  status,
  attempts: 1,
  expiresAt: 1_800_000_000,
  ...extra,
});

beforeAll(async () => {
  server = dynalite(instant);
  port = await listen(server);
  emptyServer = dynalite(instant);
  emptyPort = await listen(emptyServer);
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // The table as the local stack creates it: key id, status index sorted by time received.
  // ensureTable also waits until dynalite has made it ACTIVE (it refuses items while CREATING).
  await ensureTable(client, LOCAL_ARCHIVE_TABLE);
  doc = DynamoDBDocumentClient.from(client);
  for (const item of [
    message('m1', '2026-11-20T10:00:00.000Z', 'delivered', { sesMessageId: 'ses-1' }),
    message('m2', '2026-11-25T10:00:00.000Z', 'failed', { attempts: 4, lastError: 'MessageRejected: not verified', claimedUntil: 1 }),
    message('m3', '2026-11-22T10:00:00.000Z', 'failed', { language: 'es' }),
    message('m4', '2026-11-24T10:00:00.000Z', 'pending'),
  ]) {
    await doc.send(new PutCommand({ TableName: LOCAL_ARCHIVE_TABLE, Item: item }));
  }
  // The contact form's flood counters share the table, as functions/contact/limits.ts writes them (id,
  // count, expiresAt, no status): never listed as messages.
  for (const counter of [
    { id: 'limit#600#qL7x1mRkq0yq3cHk9x2oXw#1795000000', count: 5, expiresAt: 1_795_000_600 },
    { id: 'siteverify#2026-11', count: 42, expiresAt: 1_798_761_600 },
  ]) {
    await doc.send(new PutCommand({ TableName: LOCAL_ARCHIVE_TABLE, Item: counter }));
  }
});

afterAll(async () => {
  await Promise.all([close(server), close(emptyServer)]);
});

async function run(argv: string[], env: NodeJS.ProcessEnv = { ARCHIVE_PORT: String(port) }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMessages(['--local', ...argv], { env, stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
const stored = async (id: string) =>
  (await doc.send(new GetCommand({ TableName: LOCAL_ARCHIVE_TABLE, Key: { id }, ConsistentRead: true }))).Item;

describe('npm run messages -- --local', () => {
  it('lists the local archive newest first, as JSON', async () => {
    const { code, out, err } = await run(['--json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const list = JSON.parse(out) as Record<string, unknown>[];
    expect(list.map((m) => m.id)).toEqual(['m2', 'm4', 'm3', 'm1']);
    expect(list[0]).toEqual({
      id: 'm2',
      receivedAt: '2026-11-25T10:00:00.000Z',
      name: 'Visitor m2',
      email: 'm2@example.org',
      message: 'Message m2\nsecond line',
      status: 'failed',
      attempts: 4,
      expiresAt: '2027-01-15T08:00:00.000Z',
      lastError: 'MessageRejected: not verified',
    });
    expect(list[2]!.language).toBe('es');
    expect(list[3]!.sesMessageId).toBe('ses-1');
  });

  it('names the local archive in the table view', async () => {
    const { out } = await run([]);
    expect(out.split('\n')[0]).toBe(
      `4 messages in the local archive at http://127.0.0.1:${port} (table ${LOCAL_ARCHIVE_TABLE}), newest first ` +
        '(`npm run messages -- --local show ID` prints one in full):',
    );
  });

  it('resend puts one message back to pending, attempts kept, claim dropped', async () => {
    const { code, out } = await run(['resend', 'm2']);
    expect(code).toBe(0);
    expect(out).toBe(
      'Message m2 is pending again (was failed, 4 attempts so far): the redelivery sends it within 5 seconds while `npm start` runs.',
    );
    const item = await stored('m2');
    expect(item).toMatchObject({ status: 'pending', attempts: 4, lastError: 'MessageRejected: not verified' });
    expect(item).not.toHaveProperty('claimedUntil');
    expect((await run(['resend', 'm2'])).out).toMatch(/^Message m2 is pending already/);
  });

  it('resend --failed resends what the status index lists as failed', async () => {
    const { code, out } = await run(['resend', '--failed']);
    expect(code).toBe(0);
    expect(out).toBe('1 failed message is pending again: the redelivery sends them within 5 seconds while `npm start` runs.\n  m3');
    expect((await stored('m3'))!.status).toBe('pending');
    expect((await stored('m1'))!.status).toBe('delivered');
    expect((await run(['resend', '--failed'])).out).toMatch(/^No failed messages in the local archive/);
  });

  it('delete erases the message; it is unknown afterwards', async () => {
    expect((await run(['delete', 'm1'])).out).toBe(
      `Deleted message m1 from the local archive at http://127.0.0.1:${port} (table ${LOCAL_ARCHIVE_TABLE}).`,
    );
    expect(await stored('m1')).toBeUndefined();
    for (const command of ['show', 'delete', 'resend']) {
      const { code, err } = await run([command, 'm1']);
      expect(code).toBe(1);
      expect(err).toBe('✗ No message with id m1 in the archive (`npm run messages` lists the ids).');
    }
  });

  it('honours AWS_ENDPOINT_URL_DYNAMODB over ARCHIVE_PORT', async () => {
    const { code, out } = await run(['show', 'm4', '--json'], {
      AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${port}`,
      ARCHIVE_PORT: String(emptyPort),
    });
    expect(code).toBe(0);
    expect(JSON.parse(out).id).toBe('m4');
  });

  it("finds the running stack's archive through the file it writes beside its data folder, whatever its port", async () => {
    const dataDir = path.join(scratchDir('messages-running-'), 'archive');
    const claim = claimDataDir(dataDir);
    try {
      claim.record({ archive: `http://127.0.0.1:${port}` });
      const { code, out, err } = await run(['show', 'm4', '--json'], { ARCHIVE_DIR: dataDir });
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(out).id).toBe('m4');
      // An explicit ARCHIVE_PORT still wins over the file.
      expect((await run([], { ARCHIVE_DIR: dataDir, ARCHIVE_PORT: String(emptyPort) })).code).toBe(1);
    } finally {
      claim.release();
      rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  });

  it('nothing listening: one line asking whether npm start runs', async () => {
    const probe = createServer();
    const closedPort = await listen(probe);
    await close(probe);
    const { code, out, err } = await run([], { ARCHIVE_PORT: String(closedPort) });
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe(`✗ The local archive at http://127.0.0.1:${closedPort} is not reachable: is \`npm start\` running?`);
  });

  it('a server without the table: one line saying so', async () => {
    const { code, err } = await run([], { ARCHIVE_PORT: String(emptyPort) });
    expect(code).toBe(1);
    expect(err).toBe(
      `✗ The local archive at http://127.0.0.1:${emptyPort} has no table ${LOCAL_ARCHIVE_TABLE}: is \`npm start\` running (it creates the table)?`,
    );
  });

  it('a malformed ARCHIVE_PORT is named', async () => {
    const { code, err } = await run([], { ARCHIVE_PORT: 'eighty' });
    expect(code).toBe(1);
    expect(err).toBe('✗ ARCHIVE_PORT="eighty" is not a port number (1-65535).');
  });

  it('works as the npm script runs it: its own process, output JSON alone on stdout', async () => {
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('AWS_')) env[name] = value;
    // Asynchronous: the server answering it lives in this process.
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', CLI, '--local', '--json'],
        { env: { ...env, ARCHIVE_PORT: String(port) }, encoding: 'utf8', timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { id: string }[]).map((m) => m.id)).toEqual(['m2', 'm4', 'm3']);
  }, 60_000);
});
