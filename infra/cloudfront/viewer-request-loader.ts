/**
 * Runs the CloudFront Function's plain-script code in a Node vm, so the local server and the tests
 * (which may take the code out of the synthesized CDK template) execute exactly what CloudFront runs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { REDIRECTS } from '../../contract/site-routes';

export const VIEWER_REQUEST_FUNCTION_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'viewer-request.js');

/** The statement of the function's file that the page table's redirects replace. */
const REDIRECTS_PLACEHOLDER = 'var REDIRECTS = SITE_REDIRECTS;';

/**
 * The function's code as CloudFront and the local server run it: the file, with the page table's
 * redirects (contract/site-routes.ts REDIRECTS) written in as a JSON object. Throws when the file
 * does not hold the placeholder exactly once, so the code never runs without them.
 */
export function viewerRequestFunctionCode(redirects: Readonly<Record<string, string>> = REDIRECTS): string {
  const file = readFileSync(VIEWER_REQUEST_FUNCTION_FILE, 'utf8');
  const parts = file.split(REDIRECTS_PLACEHOLDER);
  if (parts.length !== 2)
    throw new Error(`${VIEWER_REQUEST_FUNCTION_FILE} must hold "${REDIRECTS_PLACEHOLDER}" exactly once (where the redirects go).`);
  return parts.join(`var REDIRECTS = ${JSON.stringify(redirects)};`);
}

/** One header, query parameter or cookie value as cloudfront-js-2.0 shapes it. */
export interface CfValue {
  value: string;
  multiValue?: { value: string }[];
}
export type CfValues = Record<string, CfValue>;

export interface CfRequest {
  method: string;
  uri: string;
  querystring: CfValues;
  headers: CfValues;
  cookies: CfValues;
}

export interface CfResponse {
  statusCode: number;
  statusDescription?: string;
  headers?: CfValues;
  cookies?: CfValues;
  body?: string | { data: string; encoding: 'text' | 'base64' };
}

export interface CfViewerRequestEvent {
  version: '1.0';
  context: { distributionDomainName: string; distributionId: string; eventType: 'viewer-request'; requestId: string };
  viewer: { ip: string };
  request: CfRequest;
}

export type ViewerRequestHandler = (event: CfViewerRequestEvent) => Promise<CfRequest | CfResponse>;

/**
 * CloudFront stops a function that uses up its compute budget ("Restrictions on CloudFront Functions",
 * Compute utilization: https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/cloudfront-function-restrictions.html).
 * Here the limit only catches a runaway
 * loop: it is wall-clock time, and a busy machine (a browser under test on two cores) can pause
 * this thread for a good fraction of a second, so a tight limit would fail healthy requests.
 */
const HANDLER_TIMEOUT_MS = 2000;

/**
 * Evaluates the function's code (default: viewerRequestFunctionCode()) as a plain script in a
 * fresh context without Node globals, and returns its `handler`. Each call of the returned
 * function gets a deep copy of the event and returns a plain copy of the result.
 */
export function loadViewerRequestHandler(code?: string): ViewerRequestHandler {
  const source = code ?? viewerRequestFunctionCode();
  // Only what cloudfront-js-2.0 offers a function that uses no modules: no require, process or timers.
  const sandbox: Record<string, unknown> = { console };
  const context = vm.createContext(sandbox, { name: 'cloudfront-function' });
  new vm.Script(source, { filename: VIEWER_REQUEST_FUNCTION_FILE }).runInContext(context, {
    timeout: HANDLER_TIMEOUT_MS,
  });
  if (typeof sandbox.handler !== 'function') {
    throw new Error('The CloudFront Function code defines no top-level `function handler(event)`.');
  }
  const call = new vm.Script('handler(JSON.parse(__eventJson))', { filename: 'cloudfront-function-call' });
  return async (event) => {
    sandbox.__eventJson = JSON.stringify(event);
    const result: unknown = await call.runInContext(context, { timeout: HANDLER_TIMEOUT_MS });
    if (result === null || typeof result !== 'object') {
      throw new Error(`The CloudFront Function returned ${String(result)} instead of a request or a response.`);
    }
    // Copy out of the vm's realm so callers see ordinary objects.
    return JSON.parse(JSON.stringify(result)) as CfRequest | CfResponse;
  };
}

export function isCfResponse(result: CfRequest | CfResponse): result is CfResponse {
  return typeof (result as CfResponse).statusCode === 'number';
}
