import { describe, expect, it } from 'vitest';
import { TRIPPED_THROTTLES } from '../../contract/breaker';
import { ROUTE_THROTTLES, type RouteThrottle } from '../../contract/limits';
import { parseBreakerEnv } from './env';
import { runBreaker, type BreakerDeps, type BreakerRouteSettings } from './run';

const PAST_SHARE = 1_000;
const ROUTES: BreakerRouteSettings[] = [
  { route: 'contact', routeKey: 'POST /api/contact', dailyRequests: 200, throttle: ROUTE_THROTTLES.contact },
  { route: 'vitals', routeKey: 'POST /api/vitals', dailyRequests: 10_000, throttle: ROUTE_THROTTLES.vitals },
];

/** A stage, the day counters and a mailbox in memory; `counts` maps a route to its counted requests of the day. */
function world(given: Record<string, number>, at: string) {
  const counts: Record<string, number> = { 'past-share': 0, ...given };
  const stage: Record<string, Partial<RouteThrottle>> = {
    'POST /api/contact': { ...ROUTE_THROTTLES.contact },
    'POST /api/vitals': { ...ROUTE_THROTTLES.vitals },
  };
  const mails: string[] = [];
  const asked: Array<[string, number]> = [];
  const forgotten: number[] = [];
  const clock = { now: Date.parse(at) };
  const deps: BreakerDeps = {
    now: () => clock.now,
    countRequests: async (route, now) => {
      asked.push([route, now]);
      const count = counts[route];
      if (count === undefined) throw new Error('DynamoDB did not answer');
      return count;
    },
    forgetYesterdaysKey: async (now) => void forgotten.push(now),
    readThrottles: async () => structuredClone(stage),
    setThrottle: async (key, throttle) => void (stage[key] = { ...throttle }),
    notify: async (subject, message) => void mails.push(`${subject}\n${message}`),
  };
  const w = { stage, mails, asked, forgotten, clock, deps, counts };
  return w;
}

describe('runBreaker', () => {
  it('counts from midnight UTC and leaves routes under their number alone', async () => {
    const w = world({ contact: 200, vitals: 30 }, '2026-11-29T13:45:00Z');
    const outcomes = await runBreaker(ROUTES, w.deps, PAST_SHARE);
    expect(outcomes.map((o) => o.action)).toEqual(['none', 'none']);
    expect(w.asked).toContainEqual(['contact', Date.parse('2026-11-29T13:45:00Z')]);
    expect(w.asked).toContainEqual(['past-share', Date.parse('2026-11-29T13:45:00Z')]);
    expect(w.mails).toEqual([]);
    // Every run deletes the finished day's hash key.
    expect(w.forgotten).toEqual([Date.parse('2026-11-29T13:45:00Z')]);
  });

  it('trips a route past its number, mails once, and resets it when the day turns', async () => {
    const w = world({ contact: 201, vitals: 30 }, '2026-11-29T13:45:00Z');
    await runBreaker(ROUTES, w.deps, PAST_SHARE);
    expect(w.stage['POST /api/contact']).toEqual(TRIPPED_THROTTLES.contact);
    expect(w.stage['POST /api/vitals']).toEqual(ROUTE_THROTTLES.vitals);
    expect(w.mails).toHaveLength(1);
    expect(w.mails[0]).toContain('counted 201 requests today');
    expect(w.mails[0]).toContain('2026-11-30T00:00:00Z');

    // Later the same day: still over, already tripped, no second mail.
    w.counts['contact'] = 9_000;
    w.clock.now = Date.parse('2026-11-29T23:50:00Z');
    expect((await runBreaker(ROUTES, w.deps, PAST_SHARE))[0]!.action).toBe('none');
    expect(w.mails).toHaveLength(1);

    // The day turns: the count starts again and the route gets its own throttle back.
    w.counts['contact'] = 3;
    w.clock.now = Date.parse('2026-11-30T00:05:00Z');
    expect((await runBreaker(ROUTES, w.deps, PAST_SHARE))[0]!.action).toBe('reset');
    expect(w.stage['POST /api/contact']).toEqual(ROUTE_THROTTLES.contact);
    expect(w.mails).toHaveLength(1);
  });

  it('drops the beacons entirely when their route trips', async () => {
    const w = world({ contact: 0, vitals: 10_001 }, '2026-11-29T10:00:00Z');
    await runBreaker(ROUTES, w.deps, PAST_SHARE);
    expect(w.stage['POST /api/vitals']).toEqual({ rateLimit: 0, burstLimit: 0 });
    expect(w.mails[0]).toContain('dropped');
  });

  it('turns every route down when the requests refused for their share pass the number one address cannot reach', async () => {
    const w = world({ contact: 3, vitals: 30, 'past-share': PAST_SHARE }, '2026-11-29T10:00:00Z');
    expect((await runBreaker(ROUTES, w.deps, PAST_SHARE)).map((o) => o.action)).toEqual(['none', 'none']);
    w.counts['past-share'] = PAST_SHARE + 1;
    expect((await runBreaker(ROUTES, w.deps, PAST_SHARE)).map((o) => o.action)).toEqual(['tripped', 'tripped']);
    expect(w.stage['POST /api/contact']).toEqual(TRIPPED_THROTTLES.contact);
    expect(w.mails[0]).toMatch(/1001 requests today \(UTC\) from addresses past their own share/);
    // The next day both come back.
    Object.assign(w.counts, { contact: 0, vitals: 0, 'past-share': 0 });
    w.clock.now = Date.parse('2026-11-30T00:01:00Z');
    expect((await runBreaker(ROUTES, w.deps, PAST_SHARE)).map((o) => o.action)).toEqual(['reset', 'reset']);
  });

  it('fails closed: a count it cannot read changes nothing, and a tripped route stays tripped', async () => {
    const w = world({ vitals: 30 }, '2026-11-30T00:05:00Z');
    w.stage['POST /api/contact'] = { ...TRIPPED_THROTTLES.contact };
    await expect(runBreaker(ROUTES, w.deps, PAST_SHARE)).rejects.toThrow('DynamoDB did not answer');
    expect(w.stage['POST /api/contact']).toEqual(TRIPPED_THROTTLES.contact);
  });
});

describe('parseBreakerEnv', () => {
  it('names every missing or malformed setting', () => {
    expect(() => parseBreakerEnv({ BREAKER_ROUTES: '[{"route":"nope"}]' })).toThrow(
      /API_ID is missing.*STAGE_NAME is missing.*TOPIC_ARN is missing.*ARCHIVE_TABLE is missing.*BREAKER_ROUTES/,
    );
  });

  it('reads what the stack passes', () => {
    const env = parseBreakerEnv({
      API_ID: 'abc',
      STAGE_NAME: '$default',
      TOPIC_ARN: 'arn:aws:sns:us-east-1:1:t',
      ARCHIVE_TABLE: 'archive',
      BREAKER_PAST_SHARE_DAILY: '108000',
      BREAKER_ROUTES: JSON.stringify(ROUTES),
    });
    expect(env.routes).toEqual(ROUTES);
    expect(env.table).toBe('archive');
    expect(env.pastShareDaily).toBe(108_000);
  });
});
