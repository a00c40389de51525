/**
 * The parts of the vitals beacon's contract the inline boot script needs (web/boot/boot.ts): the
 * metrics, their bounds and rounding, and the endpoint. Kept apart from contract/vitals.ts, which
 * imports the page table and the languages, so the boot script's text never depends on the content
 * (its CSP hash stays the same when a language is added or removed).
 */
export const VITALS_METRICS = ['lcp', 'inp', 'cls', 'fcp', 'ttfb'] as const;
export type VitalsMetric = (typeof VITALS_METRICS)[number];

/**
 * The largest value accepted per metric: times in whole milliseconds up to 10 minutes (a page left
 * open in a background tab can report a late LCP; anything longer is noise), CLS up to 10 (a score,
 * not a time: values above 1 are already extreme). Outside these, or negative, the beacon is refused.
 */
export const VITALS_MAX: Readonly<Record<VitalsMetric, number>> = {
  lcp: 600_000,
  inp: 600_000,
  cls: 10,
  fcp: 600_000,
  ttfb: 600_000,
};

/** Rounds a metric as the beacon carries it: whole milliseconds, CLS to four decimals. */
export function roundMetric(metric: VitalsMetric, value: number): number {
  return metric === 'cls' ? Math.round(value * 10_000) / 10_000 : Math.round(value);
}

/**
 * Where page views go: beside the click events, the last path segment replaced (/api/events →
 * /api/vitals, https://api.example.com/prod/events → https://api.example.com/prod/vitals), so an
 * owner who points VITE_EVENTS_ENDPOINT at another API points both, and the CSP's connect-src that
 * admits one admits the other.
 */
export function vitalsEndpointOf(eventsEndpoint: string): string {
  return eventsEndpoint.replace(/[^/]*$/, 'vitals');
}
