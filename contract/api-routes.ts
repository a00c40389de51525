/**
 * The HTTP API's routes, one list for the CDK stack and the local API Gateway stand-in.
 * Paths are relative to the repository root.
 */
export interface ApiRoute {
  /** API Gateway route key, e.g. 'POST /api/contact'. */
  routeKey: `${'POST' | 'GET'} /api/${string}`;
  method: 'POST' | 'GET';
  path: `/api/${string}`;
  /** Short name: function and log names. */
  name: 'contact' | 'events' | 'vitals';
  /** The handler module (exports `handler`), relative to the repository root. */
  entry: string;
  /** Lambda timeout: the contact handler waits for siteverify (5 s) and SES. */
  timeoutSeconds: number;
}

export const API_ROUTES: readonly ApiRoute[] = [
  {
    routeKey: 'POST /api/contact',
    method: 'POST',
    path: '/api/contact',
    name: 'contact',
    entry: 'functions/contact/handler.ts',
    timeoutSeconds: 15,
  },
  {
    routeKey: 'POST /api/events',
    method: 'POST',
    path: '/api/events',
    name: 'events',
    entry: 'functions/events/handler.ts',
    timeoutSeconds: 5,
  },
  {
    routeKey: 'POST /api/vitals',
    method: 'POST',
    path: '/api/vitals',
    name: 'vitals',
    entry: 'functions/vitals/handler.ts',
    timeoutSeconds: 5,
  },
];

/** CloudFront path pattern of the API behavior. */
export const API_PATH_PATTERN = '/api/*';
