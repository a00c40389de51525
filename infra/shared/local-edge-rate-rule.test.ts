/** The local stand-in of the edge's rate rule: the same numbers, per address, over a sliding window. */
import { describe, expect, it } from 'vitest';
import { EDGE_RATE_RULE } from '../../contract/edge-rate-rule';
import { createEdgeRateRule } from './local-edge-rate-rule';

describe('the edge rate rule, locally', () => {
  it('blocks an address past the limit within the window, never another address, never a page, and lets it back as its window empties', () => {
    const clock = { now: Date.UTC(2026, 10, 22, 9) };
    const rule = createEdgeRateRule(EDGE_RATE_RULE, () => clock.now);
    const sent = Array.from({ length: EDGE_RATE_RULE.limit + 50 }, () => rule.admit('198.51.100.1', '/api/vitals'));
    expect(sent.filter(Boolean)).toHaveLength(EDGE_RATE_RULE.limit);
    expect(rule.admit('198.51.100.2', '/api/contact')).toBe(true);
    expect(rule.admit('198.51.100.1', '/projects/')).toBe(true);
    expect(rule.blockStatus).toBe(EDGE_RATE_RULE.blockStatus);
    // Blocked requests count too: still blocked just before the window has passed, back once it has.
    clock.now += (EDGE_RATE_RULE.evaluationWindowSeconds - 1) * 1000;
    expect(rule.admit('198.51.100.1', '/api/vitals')).toBe(false);
    clock.now += EDGE_RATE_RULE.evaluationWindowSeconds * 1000;
    expect(rule.admit('198.51.100.1', '/api/vitals')).toBe(true);
  });

  it('lets one address send at most its limit in every window of a day', () => {
    const clock = { now: Date.UTC(2026, 10, 22) };
    const rule = createEdgeRateRule(EDGE_RATE_RULE, () => clock.now);
    let passed = 0;
    // Ten requests a second, all day.
    for (let s = 0; s < 86_400; s += 1, clock.now += 1000)
      for (let i = 0; i < 10; i++) passed += rule.admit('198.51.100.1', '/api/events') ? 1 : 0;
    expect(passed).toBeLessThanOrEqual(EDGE_RATE_RULE.limit * (86_400 / EDGE_RATE_RULE.evaluationWindowSeconds));
    expect(passed).toBeGreaterThan(0);
  });
});
