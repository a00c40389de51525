/** Figures the benchmark scripts (scripts/bench, e2e/engines) share. */

/**
 * The median of the finite values (a run that lacked a figure has NaN there), NaN when there are none;
 * an even count's middle two averaged and rounded to 1/100 (12.85, not 12.850000000000001).
 */
export function median(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round(((sorted[mid - 1]! + sorted[mid]!) / 2) * 100) / 100;
}
