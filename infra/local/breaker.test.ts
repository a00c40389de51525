/**
 * The circuit breaker through the local stack `npm start` runs, on a clock the test moves: a route
 * past its day's number of counted requests meets its trickle (the contact form's failure answer, the
 * beacons dropped), the owner is told once, and midnight UTC gives the route its own throttle back.
 * Requests one address sends past its own share never count, so one address cannot trip a route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBreaker } from '../../functions/breaker/local';
import { fetchMails, startMailbox } from './mailbox';
import { startLocalStack, type LocalStack } from './stack';
import { fixtureBuild, send } from './test-support';

const fixture = fixtureBuild();
let mailbox: Awaited<ReturnType<typeof startMailbox>>;
let stack: LocalStack;
const told: string[] = [];
const clock = { now: Date.parse('2026-11-29T23:58:00Z') };
const breaker = createLocalBreaker({
  dailyRequests: { contact: 2, vitals: 3 },
  now: () => clock.now,
  onTrip: (message) => told.push(message),
});

beforeAll(async () => {
  mailbox = await startMailbox('127.0.0.1', 0);
  stack = await startLocalStack({
    port: 0,
    archivePort: 0,
    sesEndpoint: mailbox.url,
    clientDir: fixture.clientDir,
    quiet: true,
    redeliveryIntervalMs: 60_000,
    guards: { now: () => clock.now },
    breaker,
  });
});

afterAll(async () => {
  await stack?.stop();
  await mailbox?.stop();
});

const view = { route: '/projects/:projectId', lang: 'en', device: 'desktop', nav: 'client', inp: 40 };
const post = (path: string, body: unknown) =>
  send(stack.url, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the local circuit breaker', () => {
  it('drops the beacons past their day number, tells once, and reopens at midnight UTC', async () => {
    for (let i = 0; i < 3; i++) expect((await post('/api/vitals', view)).status).toBe(204);
    const dropped = await post('/api/vitals', view);
    expect(dropped.status).toBe(429);
    expect(JSON.parse(dropped.body.toString())).toEqual({ message: 'Too Many Requests' });
    expect((await post('/api/vitals', view)).status).toBe(429);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/vitals reached its 3 counted requests today \(UTC\).*until 2026-11-30T00:00:00.000Z/);
    expect(breaker.state().vitals).toEqual({ count: 3, dailyRequests: 3, trippedUntil: '2026-11-30T00:00:00.000Z' });
    // Another route keeps its own count and throttle.
    expect((await post('/api/events', { name: 'HOME_EXPLORE_PROJECTS_CLICK' })).status).toBe(204);

    clock.now = Date.parse('2026-11-30T00:00:01Z');
    expect((await post('/api/vitals', view)).status).toBe(204);
    // The new day's counter had nothing yet when the request came.
    expect(breaker.state().vitals).toEqual({ count: 0, dailyRequests: 3, trippedUntil: undefined });
    expect(told).toHaveLength(1);
  });

  it('lets the contact route trickle: one request through, the rest refused with a 429 the form shows as its failure', async () => {
    // Two requests reach the function (each refused by it: no captcha), then the trickle's one token, then 429.
    for (let i = 0; i < 3; i++) expect((await post('/api/contact', { fullName: 'A' })).status).not.toBe(429);
    expect((await post('/api/contact', { fullName: 'A' })).status).toBe(429);
    expect(told.at(-1)).toMatch(/contact reached its 2 counted requests/);
    // Ten seconds later (the trickle's rate, 0.1 a second) one more gets through.
    clock.now += 10_000;
    expect((await post('/api/contact', { fullName: 'A' })).status).not.toBe(429);
    expect((await post('/api/contact', { fullName: 'A' })).status).toBe(429);
    expect(await fetchMails(stack.sesUrl)).toHaveLength(0);
  });
});

describe('the local breaker on the past-share number', () => {
  it("turns every route down once the day's requests past their share reach the number one address cannot pass", () => {
    const messages: string[] = [];
    const at = { now: Date.parse('2026-11-29T12:00:00Z') };
    const local = createLocalBreaker({ pastShareDaily: 50, now: () => at.now, onTrip: (message) => messages.push(message) });
    expect(local.admit('vitals', { counted: 10, pastShare: 49 })).toBe(true);
    expect(local.admit('vitals', { counted: 10, pastShare: 50 })).toBe(false);
    expect(local.admit('events', { counted: 0, pastShare: 50 })).toBe(false);
    expect(messages[0]).toMatch(
      /50 requests past their address's share today \(UTC\) reached the 50 one address cannot pass; vitals turned down/,
    );
    at.now = Date.parse('2026-11-30T00:00:01Z');
    expect(local.admit('vitals', { counted: 0, pastShare: 0 })).toBe(true);
  });
});
