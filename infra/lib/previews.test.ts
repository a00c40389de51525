/**
 * Pull-request previews as the live stack holds them: one private bucket whose pr-* files expire, one
 * distribution with the live site's security headers and functions of its own, created by main's stack
 * only, with one not-found page at its root that main's deploy writes; and the preview distribution's
 * viewer-request function, run as CloudFront runs it: stateless, each preview under its own path, never
 * leaving its prefix.
 */
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CfRequest,
  type CfResponse,
  type CfViewerRequestEvent,
  isCfResponse,
  loadViewerRequestHandler,
} from '../cloudfront/viewer-request-loader';
import { STACK_OUTPUT_KEYS } from '../shared/stack-output-keys';
import {
  PREVIEW_EXPIRY_DAYS,
  PREVIEW_NOT_FOUND_HTML,
  PREVIEW_NOT_FOUND_KEY,
  previewBucketName,
  previewPath,
  previewViewerRequestCode,
} from './preview-site';
import { fixtureConfig, type Json, synthPortfolio, type Synthesized } from './testing';

let live: Synthesized;
let stage: Synthesized;

beforeAll(() => {
  live = synthPortfolio();
  stage = synthPortfolio(fixtureConfig({ stage: 'staging' }));
}, 120_000);

const resources = (synth: Synthesized, type: string): [string, Json][] => Object.entries(synth.template.findResources(type));

describe('the preview bucket', () => {
  it('is private, encrypted, TLS-only, named after the stack, account and region, and expires pr-* files', () => {
    const [, bucket] = resources(live, 'AWS::S3::Bucket').find(([id]) => id.startsWith('Previews'))!;
    expect(bucket!.Properties).toMatchObject({
      BucketName: previewBucketName('Portfolio', '123456789012', 'eu-west-1'),
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    expect(bucket!.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Prefix: 'pr-', ExpirationInDays: PREVIEW_EXPIRY_DAYS, Status: 'Enabled' }),
    );
  });

  it('exists in the live stack only (a stage gets none), with its name and address as outputs', () => {
    expect(live.template.toJSON().Outputs[STACK_OUTPUT_KEYS.previewBucket]).toBeDefined();
    expect(live.template.toJSON().Outputs[STACK_OUTPUT_KEYS.previewUrl]).toBeDefined();
    expect(resources(stage, 'AWS::S3::Bucket').filter(([id]) => id.startsWith('Previews'))).toEqual([]);
    expect(stage.template.toJSON().Outputs[STACK_OUTPUT_KEYS.previewBucket]).toBeUndefined();
  });

  it('previewBucketName and previewPath refuse what is not a pull request and a commit', () => {
    expect(previewPath(12, 'abc1234def')).toBe('pr-12/abc1234');
    expect(() => previewPath(12, 'ABC1234')).toThrow(/commit SHA/);
    expect(() => previewPath(0, 'abc1234')).toThrow(/pull request/);
    expect(() => previewPath(3, '../../x')).toThrow(/commit SHA/);
  });
});

describe('the preview distribution', () => {
  const distributions = () =>
    resources(live, 'AWS::CloudFront::Distribution').map(([id, d]) => [id, d.Properties.DistributionConfig] as const);

  it('serves the preview bucket through origin access control, with the live security headers and no /api/*', () => {
    const all = distributions();
    expect(all).toHaveLength(2);
    const [, preview] = all.find(([id]) => id.startsWith('Previews'))!;
    const [, site] = all.find(([id]) => id.startsWith('Cdn'))!;
    expect(preview.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual(site.DefaultCacheBehavior.ResponseHeadersPolicyId);
    expect(preview.Origins).toHaveLength(1);
    expect(preview.Origins[0].OriginAccessControlId).toBeDefined();
    expect(preview.CacheBehaviors ?? []).toEqual([]);
    expect(preview.DefaultCacheBehavior.AllowedMethods).toEqual(['GET', 'HEAD']);
    const events = preview.DefaultCacheBehavior.FunctionAssociations.map((f: Json) => f.EventType).sort();
    expect(events).toEqual(['viewer-request', 'viewer-response']);
  });

  it("runs the preview function's code as synthesized: a plain script under CloudFront's 10 KB, the live routing inside", () => {
    const code = resources(live, 'AWS::CloudFront::Function').find(([id]) => id.startsWith('PreviewsViewerRequest'))![1].Properties
      .FunctionCode;
    expect(code).toBe(previewViewerRequestCode());
    expect(() => new vm.Script(code)).not.toThrow();
    expect(Buffer.byteLength(code, 'utf8')).toBeLessThan(10 * 1024);
    expect(code).toContain('function routeHandler(event)');
  });

  it('has functions of its own: the live viewer-request function is not associated with it', () => {
    const [, preview] = distributions().find(([id]) => id.startsWith('Previews'))!;
    const [, site] = distributions().find(([id]) => id.startsWith('Cdn'))!;
    const arns = (config: Json) => JSON.stringify(config.DefaultCacheBehavior.FunctionAssociations.map((f: Json) => f.FunctionARN));
    const siteFunction = JSON.parse(arns(site))[0];
    expect(arns(preview)).not.toContain(JSON.stringify(siteFunction));
  });
});

describe("the preview distribution's not-found page", () => {
  it('answers a missing key (S3 says 403 or 404) with one page at the bucket root and status 404', () => {
    const [, config] = resources(live, 'AWS::CloudFront::Distribution').find(([id]) => id.startsWith('Previews'))!;
    const responses = config!.Properties.DistributionConfig.CustomErrorResponses;
    expect(responses).toEqual(
      [403, 404].map((code) => ({
        ErrorCode: code,
        ResponseCode: 404,
        ResponsePagePath: `/${PREVIEW_NOT_FOUND_KEY}`,
        ErrorCachingMinTTL: 10,
      })),
    );
    // Outside every preview's prefix, so the preview role (pr-* keys only) can neither write nor delete it.
    expect(PREVIEW_NOT_FOUND_KEY.startsWith('pr-')).toBe(false);
  });

  it("is written by main's deploy into the preview bucket, never pruning the previews, with the site's deployment handler", () => {
    const deployments = resources(live, 'Custom::CDKBucketDeployment');
    const [, page] = deployments.find(([id]) => id.startsWith('PreviewsNotFoundPage'))!;
    expect(page!.Properties.Prune).toBe(false);
    expect(JSON.stringify(page!.Properties.DestinationBucketName)).toContain('PreviewsBucket');
    const handlers = new Set(deployments.map(([, d]) => JSON.stringify(d.Properties.ServiceToken)));
    expect(handlers.size).toBe(1);
    expect(resources(stage, 'Custom::CDKBucketDeployment').filter(([id]) => id.startsWith('Previews'))).toEqual([]);
  });

  it('is plain HTML: no script, no style, no asset; says it is not a page of the preview and how to reach one', () => {
    expect(PREVIEW_NOT_FOUND_HTML).not.toMatch(/<script|<style|<link|\ssrc=|\sstyle=/i);
    expect(PREVIEW_NOT_FOUND_HTML).toMatch(/not a page of this pull request's preview/);
    expect(PREVIEW_NOT_FOUND_HTML).toMatch(/\/pr-N\/&lt;commit&gt;\/home/);
  });
});

describe('the preview viewer-request function', () => {
  const handler = loadViewerRequestHandler(previewViewerRequestCode());
  const event = (uri: string, querystring: CfRequest['querystring'] = {}): CfViewerRequestEvent => ({
    version: '1.0',
    context: { distributionDomainName: 'd2.cloudfront.net', distributionId: 'E2', eventType: 'viewer-request', requestId: 'r' },
    viewer: { ip: '192.0.2.1' },
    request: { method: 'GET', uri, querystring, headers: {}, cookies: {} },
  });
  const request = async (uri: string) => {
    const result = await handler(event(uri));
    expect(isCfResponse(result)).toBe(false);
    return result as CfRequest;
  };
  const response = async (uri: string, querystring?: CfRequest['querystring']) => {
    const result = await handler(event(uri, querystring));
    expect(isCfResponse(result)).toBe(true);
    return result as CfResponse;
  };

  it('maps pages and files under /pr-N/<sha>/ inside that prefix, as the live function maps them at the root', async () => {
    expect((await request('/pr-12/abc1234/projects/3')).uri).toBe('/pr-12/abc1234/projects/3/index.html');
    expect((await request('/pr-12/abc1234/blogs/')).uri).toBe('/pr-12/abc1234/blogs/index.html');
    expect((await request('/pr-12/abc1234/assets/entry-AbC.js')).uri).toBe('/pr-12/abc1234/assets/entry-AbC.js');
    expect((await request('/pr-3/0123456/es/home')).uri).toBe('/pr-3/0123456/es/home/index.html');
  });

  it("keeps no state: two previews' addresses map to their own prefixes whatever came before, and no cookie is set", async () => {
    const first = await request('/pr-12/abc1234/home');
    const second = await request('/pr-13/fedcba9/home');
    expect([first.uri, second.uri]).toEqual(['/pr-12/abc1234/home/index.html', '/pr-13/fedcba9/home/index.html']);
    expect((await request('/pr-12/abc1234/home')).uri).toBe('/pr-12/abc1234/home/index.html');
    expect(previewViewerRequestCode()).not.toMatch(/\.cookies\b|cookies:/);
  });

  it("keeps the live routing's redirects inside the preview, with the query", async () => {
    const home = await response('/pr-12/abc1234/', { ref: { value: 'pr' } });
    expect(home.statusCode).toBe(302);
    expect(home.headers!.location!.value).toBe('/pr-12/abc1234/home?ref=pr');
  });

  it.each([
    '/home',
    '/',
    '/assets/entry-AbC.js',
    '/api/contact',
    '/pr-0/abc1234/home',
    '/pr-12/ABC1234/home',
    '/pr-12/abc123/home',
    '/pr-1x/abc1234/home',
    '/pr-12/zzzzzzz/home',
    '/pr-12/abc1234/../../x',
    '/pr-12/abc1234/./home',
    '/pr-12/abc1234/home/..',
  ])('outside a preview prefix (%s): a short 404 from the function, nothing asked of the bucket', async (uri) => {
    const answer = await response(uri);
    expect(answer.statusCode).toBe(404);
    expect(String(answer.body)).toMatch(/Not a preview: open the address in the pull request's preview comment/);
    expect(Buffer.byteLength(String(answer.body))).toBeLessThan(200);
  });

  it('lets the not-found page through as it is (CloudFront fetches it for a missing key), and nothing else at the root', async () => {
    expect((await request(`/${PREVIEW_NOT_FOUND_KEY}`)).uri).toBe(`/${PREVIEW_NOT_FOUND_KEY}`);
    expect((await response(`/x/${PREVIEW_NOT_FOUND_KEY}`)).statusCode).toBe(404);
    expect((await response(`/${PREVIEW_NOT_FOUND_KEY}/`)).statusCode).toBe(404);
  });

  it('sends /pr-N/<sha> without its slash to the preview root', async () => {
    const answer = await response('/pr-12/abc1234', { a: { value: '1' } });
    expect(answer.statusCode).toBe(302);
    expect(answer.headers!.location!.value).toBe('/pr-12/abc1234/?a=1');
  });
});
