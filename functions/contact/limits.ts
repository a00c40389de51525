/**
 * The contact form's counters: requests per visitor address in fixed windows, and siteverify calls
 * per calendar month. Each is one item of the message archive's table, bumped by one conditional
 * UpdateItem (atomic in DynamoDB, so two Lambdas at once never both take the last slot) and expired
 * by the table's time-to-live. They live in the archive's table rather than a table of their own:
 * the table, its time-to-live and the contact function's UpdateItem grant already exist, a quiet
 * month's few writes cost nothing, and an item without a `status` is neither in the redelivery's
 * index nor in `npm run messages`. Addresses are never stored: the key holds a keyed hash of one,
 * under a key of the day's own (counterKeys, functions/shared/counters.ts), so no hash outlives the day it was counted in.
 */
import { CAPTCHA_BUDGET_WARNING_SHARE, CONTACT_ADDRESS_LIMITS, CONTACT_NETWORK_LIMITS } from '../../contract/limits';
import type { CallOptions } from '../archive/store';
import { hashAddress, type CounterStore } from '../shared/counters';

export { counterKeys, dynamoCounters, hashAddress, memoryCounters, utcDay, type CounterStore } from '../shared/counters';

export interface AddressWindow {
  windowSeconds: number;
  maxRequests: number;
}

export type AddressVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Counts one request from `address` in each window (shortest first) and says whether it may go on.
 * A full window stops the count there: a flooding address writes one item per request, not one per window.
 * `hashKey` keys the hash, so the stored ids cannot be matched against a list of addresses.
 */
export async function takeAddressSlot(
  store: CounterStore,
  address: string,
  hashKey: string,
  nowMs: number,
  options?: CallOptions,
  windows: readonly AddressWindow[] = CONTACT_ADDRESS_LIMITS,
): Promise<AddressVerdict> {
  const hashed = hashAddress(address, hashKey);
  const now = Math.floor(nowMs / 1000);
  for (const window of windows) {
    const start = now - (now % window.windowSeconds);
    const end = start + window.windowSeconds;
    const count = await store.take(`limit#${window.windowSeconds}#${hashed}#${start}`, window.maxRequests, end, options);
    if (count === undefined) return { ok: false, retryAfterSeconds: Math.max(1, end - now) };
  }
  return { ok: true };
}

/** "2001:db8:0:1::/64" → "2001:db8:0::/48"; undefined for anything that is not a /64 of limitAddress. */
export function ipv6Prefix48(prefix64: string): string | undefined {
  const match = /^([0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}):[0-9a-f]{1,4}::\/64$/.exec(prefix64);
  return match ? `${match[1]}::/48` : undefined;
}

/**
 * A visitor's slot: its address (an IPv6 address by its /64) under CONTACT_ADDRESS_LIMITS and, for
 * IPv6, its /48 under the larger CONTACT_NETWORK_LIMITS. The first full count answers.
 */
export async function takeVisitorSlot(
  store: CounterStore,
  address: string,
  hashKey: string,
  nowMs: number,
  options?: CallOptions,
): Promise<AddressVerdict> {
  const own = await takeAddressSlot(store, address, hashKey, nowMs, options, CONTACT_ADDRESS_LIMITS);
  const network = ipv6Prefix48(address);
  if (!own.ok || !network) return own;
  return takeAddressSlot(store, network, hashKey, nowMs, options, CONTACT_NETWORK_LIMITS);
}

export type BudgetVerdict = { ok: true; used: number; warn: boolean } | { ok: false; used: number; spent: 'day' | 'month' };

/** The calendar month (UTC) a siteverify call counts in, e.g. "2026-11". */
export function budgetMonth(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}

/**
 * The calls the month may have made by the end of the current UTC day: the budget in equal daily
 * portions, ceil(budget × day / days in the month), so what a quiet day leaves unspent carries on and
 * a flood closes the form until midnight UTC at most, never for the rest of the month.
 */
export function budgetSoFar(budget: number, nowMs: number): number {
  const date = new Date(nowMs);
  const days = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  return Math.min(budget, Math.ceil((budget * date.getUTCDate()) / days));
}

/**
 * Takes one siteverify call from the month's budget, within what the days so far allow
 * (budgetSoFar): refused once that many calls were counted, until the UTC day turns ('day') or, on
 * the month's last day, until the month does ('month'). `warn` from the call that reaches the
 * warning share of the month on.
 */
export async function takeBudgetSlot(store: CounterStore, budget: number, nowMs: number, options?: CallOptions): Promise<BudgetVerdict> {
  const month = budgetMonth(nowMs);
  const date = new Date(nowMs);
  // Kept a month past its own, so the owner can still read last month's count.
  const expiresAt = Math.floor(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 2, 1) / 1000);
  const allowed = budgetSoFar(budget, nowMs);
  const count = await store.take(`siteverify#${month}`, allowed, expiresAt, options);
  if (count === undefined) return { ok: false, used: allowed, spent: allowed >= budget ? 'month' : 'day' };
  return { ok: true, used: count, warn: count >= Math.ceil(budget * CAPTCHA_BUDGET_WARNING_SHARE) };
}
