/**
 * The CloudFront Function's own code, run the way the local server runs it (node:vm, no Node
 * globals): its path decisions (redirect, index.html rewrite, files left alone) and the loader's guards.
 */
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { REDIRECTS } from '../../contract/site-routes';
import {
  isCfResponse,
  loadViewerRequestHandler,
  VIEWER_REQUEST_FUNCTION_FILE,
  viewerRequestFunctionCode,
  type CfRequest,
  type CfResponse,
  type CfValues,
  type CfViewerRequestEvent,
} from './viewer-request-loader';

const handler = loadViewerRequestHandler();

function event(uri: string, querystring: CfValues = {}): CfViewerRequestEvent {
  return {
    version: '1.0',
    context: { distributionDomainName: 'd.cloudfront.net', distributionId: 'E1', eventType: 'viewer-request', requestId: 'r' },
    viewer: { ip: '198.51.100.1' },
    request: { method: 'GET', uri, querystring, headers: { host: { value: 'example.com' } }, cookies: {} },
  };
}

async function rewrite(uri: string): Promise<string> {
  const result = await handler(event(uri));
  if (isCfResponse(result)) throw new Error(`expected a request for ${uri}, got ${result.statusCode}`);
  return result.uri;
}

describe('viewer-request function', () => {
  it('redirects / to /home with 302, keeping every query value', async () => {
    const result = await handler(
      event('/', { a: { value: '1' }, flag: { value: '' }, m: { value: 'x', multiValue: [{ value: 'x' }, { value: 'y%20z' }] } }),
    );
    expect(isCfResponse(result)).toBe(true);
    if (!isCfResponse(result)) return;
    expect(result.statusCode).toBe(302);
    expect(result.headers?.location?.value).toBe('/home?a=1&flag&m=x&m=y%20z');
    expect((await handler(event('/'))) as unknown).toMatchObject({ headers: { location: { value: '/home' } } });
  });

  it.each([
    ['/home', '/home/index.html'],
    ['/home/', '/home/index.html'],
    ['/projects', '/projects/index.html'],
    ['/projects/3', '/projects/3/index.html'],
    ['/projects/3/', '/projects/3/index.html'],
    ['/privacy-policy', '/privacy-policy/index.html'],
    ['/no/such/page', '/no/such/page/index.html'],
    ['/assets/entry.client-B6gs079y.js', '/assets/entry.client-B6gs079y.js'],
    ['/videos/demo.mp4', '/videos/demo.mp4'],
    ['/robots.txt', '/robots.txt'],
    ['/sitemap.xml', '/sitemap.xml'],
    ['/home/index.html', '/home/index.html'],
    ['/v1.2/page', '/v1.2/page/index.html'], // only the last segment decides
    ['/caf%C3%A9', '/caf%C3%A9/index.html'], // stays encoded: S3 decodes the key
    ['/a%2Fb', '/a%2Fb/index.html'],
  ])('%s → %s', async (uri, expected) => {
    expect(await rewrite(uri)).toBe(expected);
  });

  it('leaves the query string of a rewritten request alone', async () => {
    const result = (await handler(event('/projects/3', { ref: { value: 'mail' } }))) as CfRequest;
    expect(result.uri).toBe('/projects/3/index.html');
    expect(result.querystring).toEqual({ ref: { value: 'mail' } });
  });

  it('handles very long paths quickly', async () => {
    const long = `/${'segment/'.repeat(1000)}end`;
    const started = performance.now();
    expect(await rewrite(long)).toBe(`${long}/index.html`);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('is a plain script under CloudFront’s 10 KB limit, with no module syntax or Node globals', () => {
    // Maximum function size: CloudFront Developer Guide, "Quotas", CloudFront Functions:
    // https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/cloudfront-limits.html
    const code = viewerRequestFunctionCode();
    expect(Buffer.byteLength(code)).toBeLessThan(10 * 1024);
    expect(() => new vm.Script(code)).not.toThrow();
    expect(code).not.toMatch(/\b(require|import|export|process|module)\b\s*[.(]/);
  });
});

describe('viewerRequestFunctionCode', () => {
  it("writes the page table's redirects into the file, which does not run without them", async () => {
    expect(viewerRequestFunctionCode()).toContain(`var REDIRECTS = ${JSON.stringify(REDIRECTS)};`);
    expect(() => loadViewerRequestHandler(readFileSync(VIEWER_REQUEST_FUNCTION_FILE, 'utf8'))).toThrow(/SITE_REDIRECTS is not defined/);
    const other = loadViewerRequestHandler(viewerRequestFunctionCode({ '/old': '/new' }));
    expect(((await other(event('/old'))) as CfResponse).headers?.location?.value).toBe('/new');
    expect(await other(event('/'))).toMatchObject({ uri: '/index.html' });
    // Only the table's own keys: nothing an object inherits.
    for (const uri of ['/constructor', 'constructor', '__proto__', 'toString'])
      expect(isCfResponse(await handler(event(uri))), uri).toBe(false);
  });
});

describe('loadViewerRequestHandler', () => {
  it('runs code passed in (e.g. taken from the CDK template) instead of the file', async () => {
    const custom = loadViewerRequestHandler('function handler(event) { event.request.uri = "/x"; return event.request; }');
    expect(((await custom(event('/home'))) as CfRequest).uri).toBe('/x');
  });

  it('gives the code no Node globals', async () => {
    const probe = loadViewerRequestHandler(
      'function handler(event) { return { statusCode: 200, body: [typeof require, typeof process, typeof setTimeout].join() }; }',
    );
    expect(await probe(event('/'))).toMatchObject({ body: 'undefined,undefined,undefined' });
  });

  it('refuses code without a handler, or whose handler returns nothing, with a clear error', async () => {
    expect(() => loadViewerRequestHandler('var x = 1;')).toThrow(/no top-level `function handler/);
    const empty = loadViewerRequestHandler('function handler() {}');
    await expect(empty(event('/'))).rejects.toThrow(/returned undefined/);
  });

  it('stops a handler that never returns', async () => {
    const stuck = loadViewerRequestHandler('function handler() { for (;;) {} }');
    await expect(stuck(event('/'))).rejects.toThrow(/timed out/);
  });
});
