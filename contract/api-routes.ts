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

/** A POST route on /api/<name>, handled by functions/<name>/handler.ts. */
const post = (name: ApiRoute['name'], timeoutSeconds: number): ApiRoute => ({
  routeKey: `POST /api/${name}`,
  method: 'POST',
  path: `/api/${name}`,
  name,
  entry: `functions/${name}/handler.ts`,
  timeoutSeconds,
});

export const API_ROUTES: readonly ApiRoute[] = [post('contact', 15), post('events', 5), post('vitals', 5)];
