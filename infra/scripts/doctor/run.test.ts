/**
 * The doctor's one boundary outside the SDK, public DNS: node's resolver, or the DNS server
 * PORTFOLIO_DNS_SERVER names (the spawning tests point it at tools/fake-aws.ts, as AWS_ENDPOINT_URL
 * points the SDK there).
 */
import { resolveNs } from 'node:dns/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeAws, type FakeAws } from '../../../tools/fake-aws';
import { nameServerLookup } from './run';

let aws: FakeAws;
beforeAll(async () => {
  aws = await startFakeAws({ registrar: { 'jane.dev': ['ns1.registrar.example', 'ns2.registrar.example'] } });
});
afterAll(() => aws.stop());

it('without PORTFOLIO_DNS_SERVER: the system resolver', () => {
  expect(nameServerLookup('')).toBe(resolveNs);
});

it('with a server: asks that one, and only it', async () => {
  const lookup = nameServerLookup(aws.dns);
  expect((await lookup('jane.dev')).sort()).toEqual(['ns1.registrar.example', 'ns2.registrar.example']);
  await expect(lookup('unknown.dev')).rejects.toMatchObject({ code: 'ENOTFOUND' });
});
