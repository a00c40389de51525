/**
 * Pull-request previews as the live stack holds them: one private bucket whose pr-* files expire, one
 * distribution with the live site's security headers and functions of its own, created by main's stack
 * only; and the preview distribution's viewer-request function, run as CloudFront runs it, choosing a
 * preview by cookie and never leaving its prefix.
 */
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CfRequest, type CfResponse, type CfViewerRequestEvent, isCfResponse, loadViewerRequestHandler } from '../cloudfront/viewer-request-loader';
import { STACK_OUTPUT_KEYS } from '../shared/stack-output-keys';
import { PREVIEW_EXPIRY_DAYS, previewBucketName, previewPath, previewViewerRequestCode } from './preview-site';
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
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
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
    expect(() => previewPath(0, 'abc1234')).toThrow(/pull request/);
    expect(() => previewPath(3, '../../x')).toThrow(/commit SHA/);
  });
});

describe('the preview distribution', () => {
  const distributions = () => resources(live, 'AWS::CloudFront::Distribution').map(([id, d]) => [id, d.Properties.DistributionConfig] as const);

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
    const code = resources(live, 'AWS::CloudFront::Function').find(([id]) => id.startsWith('PreviewsViewerRequest'))![1].Properties.FunctionCode;
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

describe('the preview viewer-request function', () => {
  const handler = loadViewerRequestHandler(previewViewerRequestCode());
  const event = (uri: string, cookie?: string): CfViewerRequestEvent => ({
    version: '1.0',
    context: { distributionDomainName: 'd2.cloudfront.net', distributionId: 'E2', eventType: 'viewer-request', requestId: 'r' },
    viewer: { ip: '192.0.2.1' },
    request: { method: 'GET', uri, querystring: {}, headers: {}, cookies: cookie === undefined ? {} : { 'portfolio-preview': { value: cookie } } },
  });
  const request = async (uri: string, cookie?: string) => (await handler(event(uri, cookie))) as CfRequest;
  const response = async (uri: string, cookie?: string) => {
    const result = await handler(event(uri, cookie));
    expect(isCfResponse(result)).toBe(true);
    return result as CfResponse;
  };

  it("enters a preview from its comment's address: sets the cookie and redirects to the same page at the root", async () => {
    const entered = await response('/pr-12/abc1234/projects/3');
    expect(entered.statusCode).toBe(302);
    expect(entered.headers!.location!.value).toBe('/projects/3');
    expect(entered.cookies!['portfolio-preview']).toEqual({ value: 'pr-12/abc1234', attributes: 'Path=/; Secure; HttpOnly; SameSite=Lax' });
    expect((await response('/pr-12/abc1234/')).headers!.location!.value).toBe('/');
  });

  it("maps pages and files inside the chosen preview's prefix, as the live function maps them at the root", async () => {
    expect((await request('/projects/3', 'pr-12/abc1234')).uri).toBe('/pr-12/abc1234/projects/3/index.html');
    expect((await request('/assets/entry-AbC.js', 'pr-12/abc1234')).uri).toBe('/pr-12/abc1234/assets/entry-AbC.js');
    expect((await request('/blogs/', 'pr-3/0123456')).uri).toBe('/pr-3/0123456/blogs/index.html');
    expect((await response('/', 'pr-12/abc1234')).headers!.location!.value).toBe('/home');
  });

  it.each([undefined, '', '../live', 'pr-12/abc1234/../../x', 'pr-0/abc1234', 'pr-12/ABC1234', 'pr-12/abc123'])(
    'without a valid preview cookie (%j): 404 and a line saying how to open one, never a key outside pr-*',
    async (cookie) => {
      const answer = await response('/home', cookie);
      expect(answer.statusCode).toBe(404);
      expect(String(answer.body)).toMatch(/open the address in the pull request's preview comment/);
    },
  );

  it('refuses an entry path that is not pr-N/<7 hex>', async () => {
    expect((await response('/pr-12/zzzzzzz/home')).statusCode).toBe(404);
    expect((await response('/pr-1x/abc1234/home')).statusCode).toBe(404);
  });
});
