/**
 * The counters against DynamoDB's own semantics (dynalite): the conditional take, the batch add, the read,
 * the delete, and the container's memory of a full counter, which saves a flooding address's writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoCounters } from '../../functions/shared/counters';
import { startLocalArchive, type LocalArchive } from './archive';

let archive: LocalArchive;

beforeAll(async () => {
  archive = await startLocalArchive({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await archive?.stop();
});

describe('the counters in DynamoDB', () => {
  it('takes up to the ceiling, adds without one, reads and deletes', async () => {
    const counters = dynamoCounters({ table: archive.table, client: archive.client });
    const until = Math.floor(Date.now() / 1000) + 3600;
    expect(await counters.take('test#take', 2, until)).toBe(1);
    expect(await counters.take('test#take', 2, until)).toBe(2);
    expect(await counters.take('test#take', 2, until)).toBeUndefined();
    await counters.add('test#add', 10, until);
    await counters.add('test#add', 10, until);
    expect(await counters.read('test#add')).toBe(20);
    expect(await counters.read('test#none')).toBe(0);
    await counters.forget('test#add');
    expect(await counters.read('test#add')).toBe(0);
  });

  it('remembers a full counter until it expires, for any ceiling up to the one it was full at', async () => {
    const counters = dynamoCounters({ table: archive.table, client: archive.client });
    const until = Math.floor(Date.now() / 1000) + 3600;
    await counters.take('test#full', 1, until);
    expect(await counters.take('test#full', 1, until)).toBeUndefined();
    // Deleted behind its back: this container still answers full without asking (no write).
    await counters.forget('test#full');
    expect(await counters.take('test#full', 1, until)).toBeUndefined();
    expect(await counters.read('test#full')).toBe(0);
    // A higher ceiling (the siteverify budget's grows by the day) is asked again.
    expect(await counters.take('test#full', 2, until)).toBe(1);
    // Another container has no memory of it and asks DynamoDB, which now holds 1: full at a ceiling of 1.
    expect(await dynamoCounters({ table: archive.table, client: archive.client }).take('test#full', 1, until)).toBeUndefined();
    // An expired memory is not trusted.
    const past = Math.floor(Date.now() / 1000) - 1;
    await counters.take('test#old', 1, past);
    expect(await counters.take('test#old', 1, past)).toBeUndefined();
    await counters.forget('test#old');
    expect(await counters.take('test#old', 1, past)).toBe(1);
  });
});
