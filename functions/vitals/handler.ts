/**
 * POST /api/vitals: one page view from the browser (its route pattern, language, device class,
 * first load or client-side navigation, and the Core Web Vitals it measured) becomes one structured
 * log line, read with CloudWatch Logs Insights (percentiles per route and device, page views per
 * day), and LCP and INP also become the two custom metrics the alarm reads. Nothing about the visitor
 * is kept: no IP, no header, no identifier. Anything malformed gets a 4xx and is counted in the log
 * (outcome rejected-…), never stored as a page view; nothing answers 5xx.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { VITALS_ALARM_VIEWS_PER_ADDRESS, VITALS_MAX_BODY_BYTES } from '../../contract/limits';
import { METRICS_NAMESPACE, SERVICE_NAMES, VITALS_METRICS_EMF } from '../../contract/metrics';
import { checkVitalsBeacon, PAGE_VIEW_LOG_MESSAGE, PAGE_VIEW_REJECTED_LOG_MESSAGE, type VitalsBeacon } from '../../contract/vitals';
import { LOCALE_CODES } from '../../web/content/locales';
import { admitBeacon, BEACON_CONTENT_TYPES, beaconGuardsFromEnv, type BeaconGuards } from '../shared/beacon-limit';
import { checkJsonPost, emptyResponse, rejectRequest, type HttpResult, type RejectedRequest } from '../shared/http';
import {
  createLogger,
  describeError,
  emfFields,
  requestIds,
  serviceName,
  withFields,
  type LoggerLike,
  type MeasureSink,
} from '../shared/observability';
import { lazyHandler } from '../shared/entry';

/**
 * Where page views are kept: a log line in Lambda, a line in a file under .local/ in `npm start`.
 * `feedsAlarms`: whether this view's LCP and INP count toward the slow-page alarms (an address's first
 * few views of the day only); in Lambda the page-view line then carries them as embedded metrics.
 */
export type PageViewLog = (pageView: VitalsBeacon, feedsAlarms: boolean) => void;

/** Past the guards (functions/shared/beacon-limit.ts), a dropped page view is not kept. */
export interface VitalsDeps extends BeaconGuards {
  logger: LoggerLike;
  measures: MeasureSink;
  pageViews: PageViewLog;
}

export type VitalsHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult>;

export function checkVitalsRequest(event: APIGatewayProxyEventV2): { ok: true; value: VitalsBeacon } | RejectedRequest {
  const parsed = checkJsonPost(event, { contentTypes: BEACON_CONTENT_TYPES, maxBytes: VITALS_MAX_BODY_BYTES });
  if (!parsed.ok) return parsed;
  const checked = checkVitalsBeacon(parsed.value, LOCALE_CODES);
  if (!checked.ok) return rejectRequest(400, checked.error, checked.reason);
  return { ok: true, value: checked.beacon };
}

export function createVitalsHandler(deps: VitalsDeps): VitalsHandler {
  return async (event, context) => {
    const log = withFields(deps.logger, requestIds(event, context));
    const messages = { rejected: PAGE_VIEW_REJECTED_LOG_MESSAGE, dropped: PAGE_VIEW_REJECTED_LOG_MESSAGE };
    const admitted = await admitBeacon(event, log, deps, messages, checkVitalsRequest);
    if (!admitted.ok) return admitted.response;
    const { value: beacon, verdict } = admitted;
    try {
      // Only an address's first few page views of the day feed the slow-page alarms, so those need
      // views from many different addresses (contract/limits.ts).
      const feedsAlarms = !verdict || verdict.count <= VITALS_ALARM_VIEWS_PER_ADDRESS;
      deps.pageViews(beacon, feedsAlarms);
      if (feedsAlarms) deps.measures.measure(alarmValues(beacon));
    } catch (error) {
      // The beacon's answer is never read; losing one page view must not turn into a 5xx alarm.
      log.error('Page view could not be recorded', describeError(error));
    }
    return emptyResponse(204);
  };
}

/** The page view's LCP and INP under the alarms' metric names (what was not measured is left out). */
function alarmValues(pageView: VitalsBeacon): Record<string, number> {
  return {
    ...(pageView.lcp !== undefined ? { [VITALS_METRICS_EMF.lcp]: pageView.lcp } : {}),
    ...(pageView.inp !== undefined ? { [VITALS_METRICS_EMF.inp]: pageView.inp } : {}),
  };
}

/** LCP and INP of a page view as embedded-metric fields (none measured: no fields, no metric). */
export function pageViewMetrics(namespace: string, pageView: VitalsBeacon): Record<string, unknown> {
  const values = alarmValues(pageView);
  return Object.keys(values).length > 0 ? emfFields(namespace, values, 'Milliseconds') : {};
}

function createVitalsHandlerFromEnv(): VitalsHandler {
  const service = serviceName(SERVICE_NAMES.vitals);
  const logger = createLogger(service);
  const namespace = process.env.POWERTOOLS_METRICS_NAMESPACE?.trim() || METRICS_NAMESPACE;
  return createVitalsHandler({
    logger,
    // The page-view line carries the two measured metrics itself (embedded metric format): one line per view.
    measures: { measure: () => undefined },
    // One JSON line per page view: Logs Insights discovers pageView.route, pageView.lcp, …
    pageViews: (pageView, feedsAlarms) =>
      logger.info(PAGE_VIEW_LOG_MESSAGE, { pageView, ...(feedsAlarms ? pageViewMetrics(namespace, pageView) : {}) }),
    ...beaconGuardsFromEnv('vitals', logger),
  });
}

/** The Lambda entry point (functions/shared/entry.ts). */
export const handler: VitalsHandler = lazyHandler(createVitalsHandlerFromEnv);
