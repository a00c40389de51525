/**
 * The CloudWatch Logs Insights queries over the vitals function's page-view lines (contract/vitals.ts
 * PAGE_VIEW_LOG_MESSAGE, fields under `pageView`): the dashboard's widgets run them, and
 * `npm run visitors` runs the same text through StartQuery. pct(field, 75) is Logs Insights' percentile
 * ("stats", functions to use with stats:
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/CWL_QuerySyntax-Stats.html); each group is named
 * with `fields … as` first, so every column has a plain name.
 */
import { PAGE_VIEW_LOG_MESSAGE, PAGE_VIEW_REJECTED_LOG_MESSAGE } from '../../contract/vitals';

const pageViews = `filter message = "${PAGE_VIEW_LOG_MESSAGE}"`;

/** Page views per day and route, newest day first. */
export const PAGE_VIEWS_BY_DAY_QUERY = [
  pageViews,
  'fields datefloor(@timestamp, 1d) as day, pageView.route as route',
  'stats count(*) as views by day, route',
  'sort day desc, views desc',
].join('\n| ');

/** p75 of each vital per route and device class, with the number of page views behind it. */
export const VITALS_P75_QUERY = [
  pageViews,
  'fields pageView.route as route, pageView.device as device',
  'stats count(*) as views, pct(pageView.lcp, 75) as lcp_p75, pct(pageView.inp, 75) as inp_p75, ' +
    'pct(pageView.cls, 75) as cls_p75, pct(pageView.fcp, 75) as fcp_p75, pct(pageView.ttfb, 75) as ttfb_p75 ' +
    'by route, device',
  'sort views desc',
].join('\n| ');

/** Refused beacons per day and reason (`rejected-route`, `rejected-range`, `too-large`, …): what strangers send. */
export const REFUSED_PAGE_VIEWS_QUERY = [
  `filter message = "${PAGE_VIEW_REJECTED_LOG_MESSAGE}"`,
  'fields datefloor(@timestamp, 1d) as day',
  'stats count(*) as refused by day, outcome',
  'sort day desc, refused desc',
].join('\n| ');
