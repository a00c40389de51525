/**
 * What `npm run visitors` prints: page views per day and route, and the 75th percentile of each
 * Core Web Vital per route and device class, rated by Google's thresholds (contract/vitals.ts). The
 * rows come from CloudWatch Logs Insights (the dashboard's own queries) or, for `--local`, from the
 * page views `npm start` kept, aggregated here the same way.
 */
import { VITALS_METRICS, VITALS_THRESHOLDS, type VitalsBeacon, type VitalsMetric } from '../../../contract/vitals';

export interface DayRow {
  /** YYYY-MM-DD (UTC). */
  day: string;
  route: string;
  views: number;
}

export interface VitalsRow extends Partial<Record<VitalsMetric, number>> {
  route: string;
  device: string;
  views: number;
}

export interface VisitorsReport {
  days: number;
  source: string;
  pageViewsByDay: DayRow[];
  vitals: VitalsRow[];
  /** The deployed API's route breakers (kit/breakers.ts), one line; absent when not read. */
  breakers?: string;
}

/** A page view as the local file keeps it: the log line's time and its pageView. */
export interface KeptPageView {
  timestamp: string;
  pageView: VitalsBeacon;
}

/** The nearest-rank percentile (p of 100) of the values; undefined for none. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The same rows the Logs Insights queries give, from page views kept in a file. */
export function aggregate(views: readonly KeptPageView[]): Pick<VisitorsReport, 'pageViewsByDay' | 'vitals'> {
  const byDay = new Map<string, DayRow>();
  const byRoute = new Map<string, { route: string; device: string; views: number; values: Record<VitalsMetric, number[]> }>();
  for (const { timestamp, pageView } of views) {
    const day = timestamp.slice(0, 10);
    const dayKey = `${day} ${pageView.route}`;
    const dayRow = byDay.get(dayKey) ?? { day, route: pageView.route, views: 0 };
    dayRow.views += 1;
    byDay.set(dayKey, dayRow);
    const key = `${pageView.route} ${pageView.device}`;
    const group = byRoute.get(key) ?? {
      route: pageView.route,
      device: pageView.device,
      views: 0,
      values: Object.fromEntries(VITALS_METRICS.map((m) => [m, [] as number[]])) as Record<VitalsMetric, number[]>,
    };
    group.views += 1;
    for (const metric of VITALS_METRICS) {
      const value = pageView[metric];
      if (typeof value === 'number') group.values[metric].push(value);
    }
    byRoute.set(key, group);
  }
  const pageViewsByDay = [...byDay.values()].sort((a, b) => b.day.localeCompare(a.day) || b.views - a.views);
  const vitals = [...byRoute.values()]
    .map(({ route, device, views: count, values }) => {
      const row: VitalsRow = { route, device, views: count };
      for (const metric of VITALS_METRICS) {
        const p75 = percentile(values[metric], 75);
        if (p75 !== undefined) row[metric] = p75;
      }
      return row;
    })
    .sort((a, b) => b.views - a.views || a.route.localeCompare(b.route));
  return { pageViewsByDay, vitals };
}

/** good, needs improvement or poor by Google's thresholds. */
export function rating(metric: VitalsMetric, value: number): 'good' | 'needs improvement' | 'poor' {
  const { good, poor } = VITALS_THRESHOLDS[metric];
  return value <= good ? 'good' : value <= poor ? 'needs improvement' : 'poor';
}

function shown(metric: VitalsMetric, value: number | undefined): string {
  if (value === undefined) return '–';
  const text = metric === 'cls' ? value.toFixed(2) : value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
  const mark = { good: '', 'needs improvement': ' ~', poor: ' !' }[rating(metric, value)];
  return `${text}${mark}`;
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function formatReport(report: VisitorsReport): string {
  const period = `the last ${report.days} day${report.days === 1 ? '' : 's'}`;
  const total = report.pageViewsByDay.reduce((sum, row) => sum + row.views, 0);
  // A tripped vitals breaker drops beacons: the counts below are short by what it dropped.
  const breakers = report.breakers ? `\nRoute breakers: ${report.breakers}` : '';
  if (total === 0) return `No page views in ${period} (${report.source}).${breakers}`;
  const { lcp, inp, cls } = VITALS_THRESHOLDS;
  return [
    ...(breakers ? [breakers.trim(), ''] : []),
    `Page views in ${period}: ${total} (${report.source})`,
    '',
    table(
      ['day', 'route', 'views'],
      report.pageViewsByDay.map((row) => [row.day, row.route, String(row.views)]),
    ),
    '',
    `Core Web Vitals, 75th percentile per route and device (good: LCP ≤ ${lcp.good / 1000} s, INP ≤ ${inp.good} ms, ` +
      `CLS ≤ ${cls.good}; ~ needs improvement, ! poor; – not measured)`,
    '',
    table(
      ['route', 'device', 'views', 'LCP', 'INP', 'CLS', 'FCP', 'TTFB'],
      report.vitals.map((row) => [row.route, row.device, String(row.views), ...VITALS_METRICS.map((m) => shown(m, row[m]))]),
    ),
  ].join('\n');
}
