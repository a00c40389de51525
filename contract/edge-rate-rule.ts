/**
 * The per-address limit on /api/* that CloudFront's WAF applies at the edge (infra/lib/edge-firewall.ts)
 * and the local stand-in applies through `npm start`, so a flood behaves the same in both.
 *
 * A rate-based rule counts the requests of each viewer address over a sliding evaluation window and
 * blocks that address's further requests while its count is above the limit. AWS WAF allows windows
 * of 60, 120, 300 and 600 seconds and a limit of at least 10 ("Rate-based rule high-level settings in
 * AWS WAF": https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based-high-level-settings.html).
 * WAF checks the rate frequently but not on every request, so it blocks "near" the limit, not exactly
 * at it (same page): the local stand-in is exact, production may let a few more through.
 *
 * Sizing, from what one person sends through /api/*:
 * - each page view sends one page-view beacon (POST /api/vitals, the page's vitals in the same body)
 *   and at most a couple of click events (POST /api/events: the link that led away, a menu);
 * - a very fast reader opens a page every 3 s: 300 s / 3 s = 100 pages, × 3 requests = 300 requests
 *   in one window; an ordinary reader (a page every 30 s) sends 10 × 3 = 30;
 * - the contact form allows 5 sends per 10 minutes per address (functions' own counter): 5 more.
 * A limit of 300 per 5 minutes therefore never stops one person, however fast they click, and still
 * leaves room for about ten ordinary readers behind one shared address (an office or a mobile
 * carrier's NAT). An address over it sends at most 300 × 288 windows = 86,400 requests a day to the
 * API; the functions' per-address daily counters, not this rule, keep such an address from spending
 * a route's daily budget.
 */
export const EDGE_RATE_RULE = {
  /** The path prefix the rule counts and blocks; nothing else on the site is counted. */
  pathPrefix: '/api/',
  /** Seconds of history counted each time WAF checks: one of 60, 120, 300, 600. */
  evaluationWindowSeconds: 300,
  /** Requests one viewer address may send to /api/* within the window. */
  limit: 300,
  /** The status a blocked request gets; WAF's default block answer is 403 (same page), 429 says "slow down". */
  blockStatus: 429,
} as const;

/** The windows AWS WAF accepts for a rate-based rule (see above). */
export const WAF_EVALUATION_WINDOWS_SECONDS = [60, 120, 300, 600] as const;

/** The smallest limit AWS WAF accepts for a rate-based rule (see above). */
export const WAF_MIN_RATE_LIMIT = 10;

/** Throws when the rule is one AWS WAF would refuse, so neither the stack nor the stand-in uses it. */
export function assertWafAcceptsRateRule(rule: { evaluationWindowSeconds: number; limit: number }): void {
  if (!(WAF_EVALUATION_WINDOWS_SECONDS as readonly number[]).includes(rule.evaluationWindowSeconds)) {
    throw new Error(
      `A WAF rate-based rule's window is one of ${WAF_EVALUATION_WINDOWS_SECONDS.join(', ')} seconds, not ${rule.evaluationWindowSeconds}.`,
    );
  }
  if (!Number.isInteger(rule.limit) || rule.limit < WAF_MIN_RATE_LIMIT) {
    throw new Error(`A WAF rate-based rule's limit is a whole number of at least ${WAF_MIN_RATE_LIMIT}, not ${rule.limit}.`);
  }
}

assertWafAcceptsRateRule(EDGE_RATE_RULE);
