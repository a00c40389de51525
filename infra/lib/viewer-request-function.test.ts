/**
 * The CloudFront Function exactly as the synthesized template carries it, run in a Node vm through the
 * loader the local server uses; plus the proof that the stack and the local server share the
 * function code and the security headers.
 */
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CfRequest,
  type CfResponse,
  type CfValues,
  isCfResponse,
  loadViewerRequestHandler,
  viewerRequestFunctionCode,
  type ViewerRequestHandler,
} from '../cloudfront/viewer-request-loader';
import { pathOf, REDIRECT_ROUTE, REDIRECT_TARGET, REDIRECTS } from '../../contract/site-routes';
import { tablePagePaths } from '../../contract/page-paths';
import { DEFAULT_LOCALE, LOCALE_CODES } from '../../web/content/locales';
import { projects } from '../../web/content/projects';
import { INLINE_SCRIPT_HASHES, securityHeaders } from '../shared/security-headers';
import { synthPortfolio, type Json } from './testing';
import { ORIGIN_VERIFY_HEADER } from '../../contract/api-headers';

let templateCode: string;
let headersPolicy: Json;
let handler: ViewerRequestHandler;

beforeAll(() => {
  const resources: Record<string, Json> = synthPortfolio().template.toJSON().Resources;
  // The live site's function: not the pull-request previews' own (infra/lib/previews.test.ts), nor the one
  // that sets the API's origin header (infra/cloudfront/api-origin.js).
  const functions = Object.entries(resources)
    .filter(
      ([id, r]) =>
        r.Type === 'AWS::CloudFront::Function' &&
        !id.startsWith('Previews') &&
        !String(r.Properties.FunctionCode).includes(ORIGIN_VERIFY_HEADER),
    )
    .map(([, r]) => r);
  expect(functions).toHaveLength(1);
  templateCode = functions[0]!.Properties.FunctionCode;
  const policies = Object.values(resources).filter((r) => r.Type === 'AWS::CloudFront::ResponseHeadersPolicy');
  expect(policies).toHaveLength(1);
  headersPolicy = policies[0]!.Properties.ResponseHeadersPolicyConfig;
  handler = loadViewerRequestHandler(templateCode);
});

function request(uri: string, querystring: CfValues = {}, method = 'GET') {
  return handler({
    version: '1.0',
    context: {
      distributionDomainName: 'd111111abcdef8.cloudfront.net',
      distributionId: 'EDFDVBD6EXAMPLE',
      eventType: 'viewer-request',
      requestId: 'test',
    },
    viewer: { ip: '198.51.100.7' },
    request: { method, uri, querystring, headers: { host: { value: 'd111111abcdef8.cloudfront.net' } }, cookies: {} },
  });
}

async function uriFor(uri: string, querystring: CfValues = {}): Promise<string> {
  const result = await request(uri, querystring);
  if (isCfResponse(result)) throw new Error(`${uri} answered ${result.statusCode} instead of passing through`);
  return result.uri;
}

describe('the function code in the template', () => {
  it('is the very code the local server loads', () => {
    expect(templateCode).toBe(viewerRequestFunctionCode());
  });

  it('parses as a plain script (no modules) and stays under 10 KB', () => {
    expect(() => new vm.Script(templateCode)).not.toThrow();
    expect(templateCode).not.toMatch(/^\s*(import|export)\s/m);
    expect(Buffer.byteLength(templateCode, 'utf8')).toBeLessThan(10 * 1024);
  });
});

describe('routing, as CloudFront runs it', () => {
  // Every page of the site's page table (each project's, a post's and a tag's too) maps to the file the prerender writes for it.
  it.each([...tablePagePaths('visited', projects), pathOf('post', 'a-post'), pathOf('tag', 'css')])(
    '%s → its prerendered index.html',
    async (route) => {
      expect(await uriFor(route)).toBe(`${route}/index.html`);
    },
  );

  it('answers / with a 302 to /home, keeping the query string, and uncached', async () => {
    expect(REDIRECTS).toEqual({ [REDIRECT_ROUTE]: REDIRECT_TARGET });
    const plain = (await request('/')) as CfResponse;
    expect(plain.statusCode).toBe(302);
    expect(plain.headers?.location?.value).toBe('/home');
    expect(plain.headers?.['cache-control']?.value).toBe('no-cache');
    const withQuery = (await request('/', {
      utm_source: { value: 'cv' },
      tag: { value: 'a', multiValue: [{ value: 'a' }, { value: 'b' }] },
      flag: { value: '' },
    })) as CfResponse;
    expect(withQuery.headers?.location?.value).toBe('/home?utm_source=cv&tag=a&tag=b&flag');
  });

  // A language's root is its prerendered redirect page (web/app/routes/index-redirect.tsx, docs/decisions.md):
  // the function finds it by its usual mapping and knows no language.
  it("maps each language's root, with or without its slash, to that language's prerendered index.html", async () => {
    const others = LOCALE_CODES.filter((code) => code !== DEFAULT_LOCALE);
    expect(others.length).toBeGreaterThan(0);
    for (const code of others) {
      expect(await uriFor(`/${code}`)).toBe(`/${code}/index.html`);
      expect(await uriFor(`/${code}/`)).toBe(`/${code}/index.html`);
      expect(templateCode).not.toMatch(new RegExp(`['"/]${code}['"/]`));
    }
  });

  it('treats a trailing slash like the bare path', async () => {
    expect(await uriFor('/projects/')).toBe('/projects/index.html');
    expect(await uriFor('/projects/3/')).toBe('/projects/3/index.html');
  });

  it('leaves files with an extension alone: hashed assets and named files', async () => {
    for (const uri of [
      '/assets/entry-AbC123.js',
      '/assets/root-9x8y.css',
      '/robots.txt',
      '/sitemap.xml',
      '/favicon.ico',
      '/__spa-fallback.html',
      '/videos/demo.mp4',
    ]) {
      expect(await uriFor(uri)).toBe(uri);
    }
  });

  it('keeps the query string on the request and never puts it in the path', async () => {
    const result = (await request('/contact', { ref: { value: 'mail' } })) as CfRequest;
    expect(result.uri).toBe('/contact/index.html');
    expect(result.querystring).toEqual({ ref: { value: 'mail' } });
    expect(await uriFor('/assets/a.js', { v: { value: '2' } })).toBe('/assets/a.js');
  });

  it('maps unknown paths to a file that does not exist, so S3 says 404 and the fallback answers', async () => {
    expect(await uriFor('/projects/99')).toBe('/projects/99/index.html');
    expect(await uriFor('/no/such/page')).toBe('/no/such/page/index.html');
  });

  it('handles percent-encoded paths as CloudFront passes them (still encoded)', async () => {
    expect(await uriFor('/caf%C3%A9')).toBe('/caf%C3%A9/index.html');
    expect(await uriFor('/projects/%33')).toBe('/projects/%33/index.html');
    // An encoded dot is not an extension: the key does not exist, S3 answers 404.
    expect(await uriFor('/evil%2Ejs')).toBe('/evil%2Ejs/index.html');
    // Dots in the last segment pass unchanged; S3 keys are flat, so "../" climbs nowhere: no such key, 404.
    expect(await uriFor('/..%2F..%2Fetc%2Fpasswd')).toBe('/..%2F..%2Fetc%2Fpasswd');
  });

  it('only looks at the last segment for an extension', async () => {
    expect(await uriFor('/v1.2/page')).toBe('/v1.2/page/index.html');
    expect(await uriFor('/.well-known/security.txt')).toBe('/.well-known/security.txt');
  });

  it('copes with very long paths quickly', async () => {
    const long = `/${'segment/'.repeat(900)}end`; // ~8 KB, CloudFront's URI limit
    const started = performance.now();
    expect(await uriFor(long)).toBe(`${long}/index.html`);
    expect(await uriFor(`${long}.js`)).toBe(`${long}.js`);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('treats HEAD like GET', async () => {
    const result = (await request('/about', {}, 'HEAD')) as CfRequest;
    expect(result.uri).toBe('/about/index.html');
  });
});

/** Renders a CloudFront response-headers policy into the headers CloudFront adds to a response. */
function headersFromPolicy(config: Json): Record<string, string> {
  const security = config.SecurityHeadersConfig;
  const hsts = security.StrictTransportSecurity;
  const headers: Record<string, string> = {
    'Content-Security-Policy': security.ContentSecurityPolicy.ContentSecurityPolicy,
    'Strict-Transport-Security': `max-age=${hsts.AccessControlMaxAgeSec}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}${hsts.Preload ? '; preload' : ''}`,
    ...(security.ContentTypeOptions ? { 'X-Content-Type-Options': 'nosniff' } : {}),
    'X-Frame-Options': security.FrameOptions.FrameOption,
    'Referrer-Policy': security.ReferrerPolicy.ReferrerPolicy,
  };
  for (const custom of config.CustomHeadersConfig.Items) headers[custom.Header] = custom.Value;
  return headers;
}

describe('security headers: one definition for the stack and the local server', () => {
  it('adds exactly the headers securityHeaders() gives, computed from source, over HTTPS', () => {
    expect(headersFromPolicy(headersPolicy)).toEqual(securityHeaders({ upgradeInsecureRequests: true }));
  });

  it('differs from the plain-http local server only by upgrade-insecure-requests', () => {
    const local = securityHeaders({ upgradeInsecureRequests: false });
    const cdn = headersFromPolicy(headersPolicy);
    expect(cdn['Content-Security-Policy']).toBe(`${local['Content-Security-Policy']}; upgrade-insecure-requests`);
    expect({ ...cdn, 'Content-Security-Policy': '' }).toEqual({ ...local, 'Content-Security-Policy': '' });
  });

  it('admits the inline scripts by hash, forbids framing, and sets HSTS, nosniff, DENY and the referrer policy', () => {
    const headers = headersFromPolicy(headersPolicy);
    const csp = headers['Content-Security-Policy']!;
    for (const hash of INLINE_SCRIPT_HASHES) expect(csp).toContain(`'${hash}'`);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headers['Strict-Transport-Security']).toBe('max-age=63072000; includeSubDomains; preload');
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
    expect(headers['X-Frame-Options']).toBe('DENY');
    expect(headers['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['Permissions-Policy']).toMatch(/camera=\(\).*geolocation=\(\).*microphone=\(\)/);
    // Every security header overrides whatever an origin might send.
    const security = headersPolicy.SecurityHeadersConfig;
    for (const key of ['ContentSecurityPolicy', 'StrictTransportSecurity', 'ContentTypeOptions', 'FrameOptions', 'ReferrerPolicy']) {
      expect(security[key].Override, key).toBe(true);
    }
  });
});
