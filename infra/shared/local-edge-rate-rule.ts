/**
 * The edge's per-address rate rule (contract/edge-rate-rule.ts) as `npm start` (infra/local) applies it, in front of
 * the API stand-in: each viewer address's requests to /api/* over the rule's sliding evaluation window;
 * while an address's count is at the limit, its further requests get the rule's block answer and never
 * reach the API, as CloudFront's WAF answers them at the edge. Blocked requests are counted too (WAF
 * counts every request the rule's scope matches), so an address that keeps flooding stays blocked.
 * Exact here; AWS WAF blocks near the limit, not exactly at it (same contract file).
 */
import { EDGE_RATE_RULE } from '../../contract/edge-rate-rule';

export interface EdgeRateRule {
  /** True when the request may go on to the API; false: answer with `blockStatus`. */
  admit(address: string, path: string): boolean;
  readonly blockStatus: number;
}

/** Addresses kept at most: past it the quietest are forgotten (a stand-in, not a store). */
const MAX_ADDRESSES = 100_000;

export function createEdgeRateRule(
  rule: { pathPrefix: string; evaluationWindowSeconds: number; limit: number; blockStatus: number } = EDGE_RATE_RULE,
  now: () => number = Date.now,
): EdgeRateRule {
  const window = rule.evaluationWindowSeconds;
  // Per address, one count per second of the window (a ring) and the second last written.
  const seen = new Map<string, { counts: Uint32Array; second: number }>();
  const total = (entry: { counts: Uint32Array; second: number }, second: number) => {
    // Seconds that fell out of the window since the last request are emptied first.
    const stale = Math.min(window, second - entry.second);
    for (let s = 1; s <= stale; s++) entry.counts[(entry.second + s) % window] = 0;
    entry.second = second;
    return entry.counts.reduce((sum, n) => sum + n, 0);
  };
  return {
    blockStatus: rule.blockStatus,
    admit(address, path) {
      if (!path.startsWith(rule.pathPrefix)) return true;
      const second = Math.floor(now() / 1000);
      let entry = seen.get(address);
      if (!entry) {
        if (seen.size >= MAX_ADDRESSES) seen.delete(seen.keys().next().value!);
        entry = { counts: new Uint32Array(window), second };
        seen.set(address, entry);
      }
      const before = total(entry, second);
      entry.counts[second % window]! += 1;
      return before < rule.limit;
    },
  };
}
