/**
 * The archive through the real local stack: HTTP → the contact handler → dynalite → SES (the real
 * aws-ses-v2-local, behind a stand-in that fails when told) → the mailbox; the redelivery inside the
 * stack; and a restart with a message still pending, which then arrives exactly once.
 */
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoClient } from '../../functions/archive/store';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './archive';
import { startFakeSiteverify, type FakeSiteverify } from '../../tools/fake-siteverify';
import { startFlakySes, type FlakySes, type SesDecision } from '../../tools/flaky-ses';
import { clearMailbox, fetchMails, startMailbox } from './mailbox';
import { startLocalStack, type LocalStack } from './stack';
import { fixtureBuild, send } from './test-support';
import { scratchDir } from '../../tools/scratch';

const fixture = fixtureBuild();
const dataDirs: string[] = [];
let verifier: FakeSiteverify;
let mailbox: Awaited<ReturnType<typeof startMailbox>>;
let ses: FlakySes;
let decision: SesDecision = 'pass';
const stacks: LocalStack[] = [];

beforeAll(async () => {
  verifier = await startFakeSiteverify('pass');
  mailbox = await startMailbox('127.0.0.1', 0);
  ses = await startFlakySes(mailbox.url, () => decision);
});

afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.stop()));
  await clearMailbox(mailbox.url);
  decision = 'pass';
});

afterAll(async () => {
  await Promise.all([verifier.stop(), mailbox.stop(), ses.stop()]);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function stack(archiveDir?: string): Promise<LocalStack> {
  const started = await startLocalStack({
    port: 0,
    archivePort: 0,
    archiveDir,
    sesEndpoint: ses.url,
    clientDir: fixture.clientDir,
    recaptchaVerifyUrl: verifier.url,
    quiet: true,
    redeliveryIntervalMs: 60_000, // the tests run it when they want it
    floodGuards: false, // many messages from 127.0.0.1, and the table's items read as messages (flood.test.ts covers the guards)
  });
  stacks.push(started);
  return started;
}

const BODY = {
  fullName: 'Ada Lovelace',
  email: 'ada@example.org',
  message: 'Hello from the archive test',
  'g-recaptcha-response': 'token',
};

function post(s: LocalStack, body: unknown, headers: Record<string, string> = {}) {
  return send(s.url, {
    method: 'POST',
    path: '/api/contact',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function archived(s: LocalStack): Promise<Record<string, unknown>[]> {
  const client = createDynamoClient({ endpoint: s.archive!.url, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    const doc = DynamoDBDocumentClient.from(client);
    return ((await doc.send(new ScanCommand({ TableName: s.archive!.table }))).Items ?? []) as Record<string, unknown>[];
  } finally {
    client.destroy();
  }
}

const mailsWith = async (marker: string) => (await fetchMails(mailbox.url)).filter((m) => (m.body.text ?? '').includes(marker));

describe('the local archive through the local stack', () => {
  it('archives a message, mails it once naming the page language, and marks it sent', async () => {
    const s = await stack();
    const reply = await post(s, { ...BODY, message: 'Marker one: hello' }, { 'content-language': 'es' });
    expect(reply.status).toBe(200);
    const mails = await mailsWith('Marker one');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body.text).toContain('Written from the Spanish page (es)');
    const [item] = await archived(s);
    expect(item).toMatchObject({ status: 'sent', language: 'es', attempts: 1, message: 'Marker one: hello' });
    expect(item!.sesMessageId).toEqual(expect.any(String));
    expect(item!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 364 * 86_400);
  });

  it('SES throttling: answered 200, kept pending; the redelivery mails it once', async () => {
    const s = await stack();
    decision = 'Throttling';
    expect((await post(s, { ...BODY, message: 'Marker two: pending' })).status).toBe(200);
    expect(await mailsWith('Marker two')).toHaveLength(0);
    expect((await archived(s))[0]).toMatchObject({ status: 'pending', lastError: expect.stringContaining('Throttling') });
    decision = 'pass';
    expect(await s.redeliver()).toMatchObject({ sent: 1 });
    expect(await s.redeliver()).toMatchObject({ pending: 0, sent: 0 });
    expect(await mailsWith('Marker two')).toHaveLength(1);
    expect((await archived(s))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('SES refusing: answered 200, kept as failed with the reason, never mailed', async () => {
    const s = await stack();
    decision = 'MessageRejected';
    expect((await post(s, { ...BODY, message: 'Marker three: refused' })).status).toBe(200);
    expect((await archived(s))[0]).toMatchObject({ status: 'failed', lastError: expect.stringContaining('MessageRejected') });
    decision = 'pass';
    await s.redeliver();
    expect(await mailsWith('Marker three')).toHaveLength(0);
  });

  it('the same Idempotency-Key sent five times at once: one message, one mail, five 200s; another body gets 422', async () => {
    const s = await stack();
    const headers = { 'idempotency-key': '"4f7d4b5c-1a2b-4c3d-8e9f-0a1b2c3d4e5f"' };
    const replies = await Promise.all(Array.from({ length: 5 }, () => post(s, { ...BODY, message: 'Marker four: once' }, headers)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const conflict = await post(s, { ...BODY, message: 'Marker four: another' }, headers);
    expect(conflict.status).toBe(422);
    expect(JSON.parse(conflict.body.toString())).toEqual({ error: expect.stringContaining('Idempotency-Key') });
    expect((await post(s, BODY, { 'idempotency-key': '"bad\\key"' })).status).toBe(400);
    expect(await mailsWith('Marker four')).toHaveLength(1);
    expect(await archived(s)).toHaveLength(1);
  });

  it('a restart with a message still pending keeps it and mails it exactly once', async () => {
    const dir = scratchDir('archive-restart-');
    dataDirs.push(dir);
    const first = await stack(dir);
    decision = 'ServiceUnavailable';
    expect((await post(first, { ...BODY, message: 'Marker five: across a restart' })).status).toBe(200);
    const [before] = await archived(first);
    expect(before).toMatchObject({ status: 'pending' });
    await first.stop();
    stacks.splice(stacks.indexOf(first), 1);

    decision = 'pass';
    const second = await stack(dir);
    await second.redeliver(); // the run at start, or this one: either way one send
    await second.redeliver();
    expect(await mailsWith('Marker five')).toHaveLength(1);
    const client = createDynamoClient({ endpoint: second.archive!.url, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    const after = (
      await DynamoDBDocumentClient.from(client).send(new GetCommand({ TableName: second.archive!.table, Key: { id: before!.id } }))
    ).Item;
    client.destroy();
    expect(after).toMatchObject({ status: 'sent', attempts: 2 });
  });
});
