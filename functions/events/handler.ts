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
import { beaconLimitFromEnv, type BeaconLimit } from '../shared/beacon-limit';
import { originFromEnv, originRefused, type OriginCheck } from '../shared/origin';
import { checkJsonPost, emptyResponse, pickStringFields, rejectRequest, type HttpResult, type RejectedRequest } from '../shared/http';
import {
  createLogger,
  createMetricsSink,
  describeError,
  requestIds,
  serviceName,
  withFields,
  type LoggerLike,
  type MetricsSink,
} from '../shared/observability';
import { lazyHandler } from '../shared/entry';

/** sendBeacon sends a Blob's own type, or text/plain for a string: both are accepted. */
export const EVENT_CONTENT_TYPES = ['application/json', 'text/plain'] as const;

export interface EventsDeps {
  logger: LoggerLike;
  metrics: MetricsSink;
  /**
   * Names that get their own EventName dimension; others are counted as OTHER_EVENT.
   * Left out (unit tests), every well-formed name is its own dimension.
   */
  knownNames?: ReadonlySet<string>;
  /** CloudFront's origin check (functions/shared/origin.ts): set, a request without the value is refused (403) first. */
  origin?: OriginCheck;
  /** The per-address daily count (functions/shared/beacon-limit.ts): past it, a click is dropped, not counted. */
  limit?: BeaconLimit;
}

export type EventsHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult>;

type Checked = { ok: true; name: string } | RejectedRequest;

export function checkEventRequest(event: APIGatewayProxyEventV2): Checked {
  const parsed = checkJsonPost(event, { contentTypes: EVENT_CONTENT_TYPES, maxBytes: EVENT_MAX_BODY_BYTES });
  if (!parsed.ok) return parsed;
  const fields = pickStringFields(parsed.value, ['name'] as const);
  if (!fields) return rejectRequest(400, 'The request body must be a JSON object with exactly one string field, name.', 'shape');
  if (!isValidEventName(fields.name)) {
    return rejectRequest(400, 'The event name must be 1 to 100 upper-case letters, digits or underscores.', 'name');
  }
  return { ok: true, name: fields.name };
}

export function createEventsHandler(deps: EventsDeps): EventsHandler {
  return async (event, context) => {
    const log = withFields(deps.logger, requestIds(event, context));
    if (deps.origin && !(await deps.origin(event))) {
      log.info('Click event rejected', { outcome: 'rejected-origin', statusCode: 403 });
      return originRefused();
    }
    // The address's share first, malformed or not: every request past the origin check takes a slot
    // (and counts toward the route's breaker), so an address's junk cannot run on uncounted.
    const verdict = deps.limit ? await deps.limit(event) : undefined;
    if (verdict && !verdict.ok) {
      log.info('Click event dropped', { outcome: `dropped-${verdict.reason}`, statusCode: 204 });
      return emptyResponse(204);
    }
    const checked = checkEventRequest(event);
    if (!checked.ok) {
      log.info('Click event rejected', { outcome: `rejected-${checked.reason}`, statusCode: checked.response.statusCode });
      return checked.response;
    }
    const known = !deps.knownNames || deps.knownNames.has(checked.name);
    if (!known) log.info('Unknown click event counted as other', { outcome: 'other', eventName: checked.name });
    try {
      deps.metrics.count(EVENT_METRICS.click, { [EVENT_NAME_DIMENSION]: known ? checked.name : OTHER_EVENT });
    } catch (error) {
      // The beacon's answer is never read; losing one count must not turn into a 5xx alarm.
      log.error('Click event could not be recorded', { eventName: checked.name, ...describeError(error) });
    }
    return emptyResponse(204);
  };
}

function createEventsHandlerFromEnv(): EventsHandler {
  const service = serviceName(SERVICE_NAMES.events);
  const logger = createLogger(service);
  const origin = originFromEnv(logger);
  return createEventsHandler({
    logger,
    metrics: createMetricsSink(service),
    knownNames: siteEventNames({ projects, blogs }, postTitlesFromEnvironment(process.env)),
    ...origin,
    ...beaconLimitFromEnv('events', origin.origin !== undefined, (problem) => logger.error(problem)),
  });
}

/** The Lambda entry point (functions/shared/entry.ts). */
export const handler: EventsHandler = lazyHandler(createEventsHandlerFromEnv);
