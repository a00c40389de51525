/** The month's figures the docs state: within the ceilings, and moved by the numbers they come from. */
import { describe, expect, it } from 'vitest';
import { cloudFrontRequests, quietMonthAdded, worstMonth, worstRouteMonth } from './cost-model';

describe('the cost model', () => {
  it('keeps every route held at its throttle for a month within $10 beyond a quiet month', () => {
    const worst = worstMonth();
    expect(worst.routes.map((r) => r.route)).toEqual(['contact', 'events', 'vitals']);
    expect(worst.total).toBeLessThanOrEqual(10);
    expect(worst.total).toBeGreaterThan(1);
  });

  it('adds at most $0.20 to a quiet month, even past CloudWatch\'s free API requests', () => {
    const quiet = quietMonthAdded();
    expect(quiet.alarm + quiet.metricReadsPastFreeTier).toBeLessThanOrEqual(0.2);
  });

  it('grows with the day number: a breaker set to a million a day no longer caps the month', () => {
    expect(worstRouteMonth('vitals', 5_000).requestsPerDay).toBe(5_000 + 10 * 1200);
    // Past what the throttle lets through in a day, the throttle is the only limit left.
    expect(worstRouteMonth('vitals', 1_000_000).requestsPerDay).toBe(10 * 86_400);
    expect(worstRouteMonth('contact', 1_000_000).total).toBeGreaterThan(10);
  });

  it("states CloudFront's request charge apart, past its free 10 million", () => {
    expect(cloudFrontRequests(10_000_000)).toBe(0);
    expect(cloudFrontRequests(20_000_000)).toBeCloseTo(10, 5);
  });
});
