/** The month's figures the docs state: within the ceilings, and moved by the numbers they come from. */
import { describe, expect, it } from 'vitest';
import { dailyNumberFloor, EDGE_DAILY_MAX_PER_ADDRESS, PAST_SHARE_DAILY_REQUESTS } from './breaker';
import { CLOUDFRONT_PLAN_TIERS, CLOUDFRONT_PLANS, DEFAULT_CLOUDFRONT_PLAN } from './cloudfront-plans';
import {
  cloudFrontFlood,
  dailyRequestsFromBudget,
  defaultMonthlyBudgetUsd,
  describePlanMonths,
  FLOOD_CEILING_USD,
  floodMonth,
  planMonths,
  quietMonth,
  requestCost,
} from './cost-model';

describe('the cost model', () => {
  it('keeps the worst month within $10 of a quiet one on every plan, with its default budget, CloudFront included on a flat-rate plan', () => {
    for (const plan of CLOUDFRONT_PLAN_TIERS) {
      const m = planMonths(plan);
      expect(m.worst - m.quiet, plan).toBeLessThanOrEqual(FLOOD_CEILING_USD);
      expect(m.flood.routes.map((r) => r.route)).toEqual(['contact', 'events', 'vitals']);
      expect(m.cloudFront.capped, plan).toBe(CLOUDFRONT_PLANS[plan].monthlyUsd !== undefined);
    }
  });

  it("gives each route a daily number from the budget, never one a single address's share could reach", () => {
    const plan = DEFAULT_CLOUDFRONT_PLAN;
    const numbers = dailyRequestsFromBudget(defaultMonthlyBudgetUsd(plan), plan);
    for (const [route, n] of Object.entries(numbers) as [keyof typeof numbers, number][])
      expect(n, route).toBeGreaterThanOrEqual(dailyNumberFloor(route));
    // More budget, larger numbers; a budget below a quiet month leaves the floors, and the model says what they cost.
    const richer = dailyRequestsFromBudget(defaultMonthlyBudgetUsd(plan) + 30, plan);
    expect(richer.contact).toBeGreaterThan(numbers.contact);
    expect(richer.vitals).toBeGreaterThan(numbers.vitals);
    expect(dailyRequestsFromBudget(1, plan)).toEqual({
      contact: dailyNumberFloor('contact'),
      events: dailyNumberFloor('events'),
      vitals: dailyNumberFloor('vitals'),
    });
    expect(floodMonth(richer).total).toBeGreaterThan(floodMonth(numbers).total);
  });

  it('sets the past-share number above what one address can send through the edge in a day', () => {
    expect(PAST_SHARE_DAILY_REQUESTS).toBeGreaterThan(EDGE_DAILY_MAX_PER_ADDRESS);
    expect(floodMonth({ contact: 0, events: 0, vitals: 0 }).pastShare.requestsPerDay).toBe(PAST_SHARE_DAILY_REQUESTS);
  });

  it('prices a request refused for its share below a counted one', () => {
    for (const route of ['contact', 'events', 'vitals'] as const)
      expect(requestCost(route, 'refused')).toBeLessThan(requestCost(route, 'counted') + 1e-9);
  });

  it("adds each distribution's plan price to a quiet month, and states pay-as-you-go's CloudFront as uncapped", () => {
    // The site's and the previews' distributions, each its own subscription: the previews on Free unless told.
    expect(quietMonth('pro').total - quietMonth('free').total).toBeCloseTo(CLOUDFRONT_PLANS.pro.monthlyUsd!, 6);
    expect(quietMonth('pro', 'pro').total - quietMonth('free').total).toBeCloseTo(2 * CLOUDFRONT_PLANS.pro.monthlyUsd!, 6);
    expect(quietMonth('payAsYouGo')).toEqual(quietMonth('payAsYouGo', 'payAsYouGo'));
    const payg = cloudFrontFlood('payAsYouGo');
    expect(payg.capped).toBe(false);
    // 30 days of one request a second: 2,592,000 requests at $0.01 per 10,000.
    if (!payg.capped) expect(payg.perRequestPerSecondMonth).toBeCloseTo(2.592, 6);
    expect(describePlanMonths('payAsYouGo')).toMatch(/uncapped/);
    expect(describePlanMonths('pro')).toMatch(/^Pro: quiet month \$\d+\.\d\d, worst month \$\d+\.\d\d \(CloudFront included\)$/);
  });
});
