/**
 * POST /api/events: a click event name from the browser's sendBeacon becomes one CloudWatch
 * metric (the contract's click metric, with the event-name dimension). Nothing about the
 * visitor is kept: no IP, no cookie, no header. Bad input gets a 4xx; nothing answers 5xx.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { isValidEventName } from '../../contract/event-names';
import { OTHER_EVENT, postTitlesFromEnvironment, siteEventNames } from '../../contract/event-catalog';
import { blogs } from '../../web/content/blogs';
import { projects } from '../../web/content/projects';
import { EVENT_MAX_BODY_BYTES } from '../../contract/limits';
import { EVENT_METRICS, EVENT_NAME_DIMENSION, SERVICE_NAMES } from '../../contract/metrics';
import { admitBeacon, BEACON_CONTENT_TYPES, beaconGuardsFromEnv, type BeaconGuards } from '../shared/beacon-limit';
import { checkJsonPost, emptyResponse, pickStringFields, rejectRequest, type HttpResult, type RejectedRequest } from '../shared/http';
import {
  createLogger,
  countOrLog,
  createMetricsSink,
  requestIds,
  serviceName,
  withFields,
  type LoggerLike,
  type MetricsSink,
} from '../shared/observability';
import { lazyHandler } from '../shared/entry';

/** Past the guards (functions/shared/beacon-limit.ts), a dropped click is not counted. */
export interface EventsDeps extends BeaconGuards {
  logger: LoggerLike;
  metrics: MetricsSink;
  /**
   * Names that get their own EventName dimension; others are counted as OTHER_EVENT.
   * Left out (unit tests), every well-formed name is its own dimension.
   */
  knownNames?: ReadonlySet<string>;
}

export type EventsHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult>;

export function checkEventRequest(event: APIGatewayProxyEventV2): { ok: true; value: string } | RejectedRequest {
  const parsed = checkJsonPost(event, { contentTypes: BEACON_CONTENT_TYPES, maxBytes: EVENT_MAX_BODY_BYTES });
  if (!parsed.ok) return parsed;
  const fields = pickStringFields(parsed.value, ['name'] as const);
  if (!fields) return rejectRequest(400, 'The request body must be a JSON object with exactly one string field, name.', 'shape');
  if (!isValidEventName(fields.name)) {
    return rejectRequest(400, 'The event name must be 1 to 100 upper-case letters, digits or underscores.', 'name');
  }
  return { ok: true, value: fields.name };
}

export function createEventsHandler(deps: EventsDeps): EventsHandler {
  return async (event, context) => {
    const log = withFields(deps.logger, requestIds(event, context));
    const messages = { rejected: 'Click event rejected', dropped: 'Click event dropped' };
    const admitted = await admitBeacon(event, log, deps, messages, checkEventRequest);
    if (!admitted.ok) return admitted.response;
    const name = admitted.value;
    const known = !deps.knownNames || deps.knownNames.has(name);
    if (!known) log.info('Unknown click event counted as other', { outcome: 'other', eventName: name });
    // The beacon's answer is never read; losing one count must not turn into a 5xx alarm.
    const dimensions = { [EVENT_NAME_DIMENSION]: known ? name : OTHER_EVENT };
    countOrLog(deps.metrics, log, 'Click event could not be recorded', EVENT_METRICS.click, dimensions, { eventName: name });
    return emptyResponse(204);
  };
}

function createEventsHandlerFromEnv(): EventsHandler {
  const service = serviceName(SERVICE_NAMES.events);
  const logger = createLogger(service);
  return createEventsHandler({
    logger,
    metrics: createMetricsSink(service),
    knownNames: siteEventNames({ projects, blogs }, postTitlesFromEnvironment(process.env)),
    ...beaconGuardsFromEnv('events', logger),
  });
}

/** The Lambda entry point (functions/shared/entry.ts). */
export const handler: EventsHandler = lazyHandler(createEventsHandlerFromEnv);
