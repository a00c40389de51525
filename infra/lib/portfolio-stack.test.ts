/**
 * The main stack without a custom domain, synthesized once (bundling off, asset staging off) with cdk-nag on:
 * reaching beforeAll's end already proves there is no unacknowledged finding.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, SPA_FALLBACK_FILE } from '../shared/build-output';
import { CACHE_IMMUTABLE, CACHE_ONE_DAY, CACHE_REVALIDATE } from '../shared/cache-control';
import { contentTypeFor } from '../shared/content-type';
import { API_REQUEST_HEADERS, ORIGIN_SECRET_ENV, ORIGIN_SECRET_KVS_KEY, ORIGIN_VERIFY_HEADER } from '../../contract/api-headers';
import { DEFAULT_CAPTCHA_MONTHLY_BUDGET } from '../../contract/limits';
import { API_ROUTES } from '../../contract/api-routes';
import { ARCHIVE_METRICS, CONTACT_METRICS, EVENT_METRICS, METRICS_NAMESPACE, VITALS_METRICS_EMF } from '../../contract/metrics';
import { RECAPTCHA_TEST_SECRET } from '../../contract/settings';
import { readPostTitles } from './post-titles';
import { DEFAULT_THROTTLE, ROUTE_THROTTLES } from './http-api';
import { CAPTCHA_REFUSALS_ALARM, SLOW_PAGES_MIN_VIEWS } from './monitoring';
import { PAGE_VIEWS_BY_DAY_QUERY, REFUSED_PAGE_VIEWS_QUERY, VITALS_P75_QUERY } from '../shared/page-view-queries';
import { VITALS_THRESHOLDS } from '../../contract/vitals';
import {
  FIXTURE_CONFIG_INPUT,
  fixtureConfig,
  type Synthesized,
  synthPortfolio,
  type Json,
  roleBoundaries,
  undeployableTypes,
} from './testing';

let synth: Synthesized;
let template: Template;
let resources: Record<string, Json>;

// The live site's own resources: the pull-request previews' bucket and distribution (ids "Previews…")
// are infra/lib/previews.test.ts's.
const ofType = (type: string): [string, Json][] =>
  Object.entries(resources).filter(([id, r]) => r.Type === type && !id.startsWith('Previews'));
const only = (type: string): Json => {
  const found = ofType(type);
  expect(found, type).toHaveLength(1);
  return found[0]![1].Properties;
};
const idOf = (type: string, predicate: (props: Json) => boolean): string => {
  const found = ofType(type).filter(([, r]) => predicate(r.Properties));
  expect(found, type).toHaveLength(1);
  return found[0]![0];
};

/** The owner's own key pair: the secret stays in the owner's parameter (Google's test key: stages.test.ts). */
const contactId = () => idOf('AWS::Lambda::Function', (p) => /^POST \/api\/contact/.test(p.Description ?? ''));
const eventsId = () => idOf('AWS::Lambda::Function', (p) => /^POST \/api\/events/.test(p.Description ?? ''));
const vitalsId = () => idOf('AWS::Lambda::Function', (p) => /^POST \/api\/vitals/.test(p.Description ?? ''));
const OWN_SITE_KEY = '6LcOwnKeyOwnKeyOwnKeyOwnKey';

beforeAll(() => {
  synth = synthPortfolio(fixtureConfig({ recaptchaSiteKey: OWN_SITE_KEY }));
  template = synth.template;
  resources = template.toJSON().Resources;
});

it('holds only resource types the production deploy accepts', () => {
  expect(undeployableTypes(template)).toEqual([]);
});

it('gives every role the boundary setup makes (the execution role may create no other)', () => {
  const boundaries = roleBoundaries(template);
  expect(boundaries.length).toBeGreaterThan(3);
  expect(new Set(boundaries)).toEqual(new Set([JSON.stringify('arn:aws:iam::123456789012:policy/Portfolio-cdk-boundary')]));
});

describe('site bucket', () => {
  it('is private, encrypted, owner-enforced and never public', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    expect(ofType('AWS::S3::Bucket')).toHaveLength(1);
    expect(JSON.stringify(only('AWS::S3::Bucket'))).not.toMatch(/WebsiteConfiguration|PublicRead/);
  });

  it('refuses any request without TLS', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  it('lets only this distribution read and list it, through origin access control', () => {
    const distributionId = idOf('AWS::CloudFront::Distribution', () => true);
    const statements: Json[] = only('AWS::S3::BucketPolicy').PolicyDocument.Statement;
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    const grant = allows[0]!;
    expect(grant.Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    // ListBucket makes S3 answer 404 (not 403) for a missing key.
    expect([grant.Action].flat().sort()).toEqual(['s3:GetObject', 's3:ListBucket']);
    expect(JSON.stringify(grant.Condition.StringEquals['AWS:SourceArn'])).toContain(`"Ref":"${distributionId}"`);
    const oac = only('AWS::CloudFront::OriginAccessControl').OriginAccessControlConfig;
    expect(oac).toMatchObject({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' });
  });
});

describe('distribution', () => {
  let config: Json;
  beforeAll(() => {
    config = only('AWS::CloudFront::Distribution').DistributionConfig;
  });

  it('serves HTTP/2 and HTTP/3 over IPv4 and IPv6, price class 100, on the CloudFront domain', () => {
    expect(config).toMatchObject({ HttpVersion: 'http2and3', IPV6Enabled: true, PriceClass: 'PriceClass_100', Enabled: true });
    expect(config.Aliases).toBeUndefined();
    expect(config.ViewerCertificate).toBeUndefined();
  });

  it('redirects HTTP to HTTPS, compresses, and runs the viewer-request function on the default behavior', () => {
    // The site's function (the other one sets the API's origin header: flood guards below).
    const functionId = idOf('AWS::CloudFront::Function', (f) => !String(f.FunctionCode).includes(ORIGIN_VERIFY_HEADER));
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      Compress: true,
      AllowedMethods: ['GET', 'HEAD'],
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } }],
    });
    template.hasResourceProperties('AWS::CloudFront::Function', {
      AutoPublish: true,
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
  });

  it('maps 404 alone, to the fallback page with status 404 (403 never)', () => {
    expect(config.CustomErrorResponses).toEqual([
      { ErrorCode: 404, ResponseCode: 404, ResponsePagePath: `/${SPA_FALLBACK_FILE}`, ErrorCachingMinTTL: 60 },
    ]);
  });

  it('attaches the security headers policy to every behavior', () => {
    const policyId = idOf('AWS::CloudFront::ResponseHeadersPolicy', () => true);
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    }
  });

  it('caches hashed assets a year and revalidates pages', () => {
    const assets = config.CacheBehaviors.find((b: Json) => b.PathPattern === 'assets/*');
    const assetsPolicy = resources[assets.CachePolicyId.Ref]!.Properties.CachePolicyConfig;
    expect(assetsPolicy).toMatchObject({ MinTTL: 31_536_000, DefaultTTL: 31_536_000, MaxTTL: 31_536_000 });
    expect(assets).toMatchObject({ Compress: true, ViewerProtocolPolicy: 'redirect-to-https' });

    const pagesPolicy = resources[config.DefaultCacheBehavior.CachePolicyId.Ref]!.Properties.CachePolicyConfig;
    // MinTTL 0: "max-age=0, must-revalidate" on the pages is honoured, so a deploy shows at once.
    expect(pagesPolicy.MinTTL).toBe(0);
    expect(pagesPolicy.ParametersInCacheKeyAndForwardedToOrigin).toMatchObject({
      EnableAcceptEncodingGzip: true,
      EnableAcceptEncodingBrotli: true,
      QueryStringsConfig: { QueryStringBehavior: 'none' },
      CookiesConfig: { CookieBehavior: 'none' },
      HeadersConfig: { HeaderBehavior: 'none' },
    });
  });

  it('sends /api/* uncached to the HTTP API, HTTPS only', () => {
    const api = config.CacheBehaviors.find((b: Json) => b.PathPattern === 'api/*');
    expect(api).toMatchObject({
      CachePolicyId: cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId,
      ViewerProtocolPolicy: 'https-only',
    });
    expect([...api.AllowedMethods].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    const origin = config.Origins.find((o: Json) => o.Id === api.TargetOriginId);
    const apiId = idOf('AWS::ApiGatewayV2::Api', () => true);
    expect(origin.DomainName).toEqual({ 'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }] }] });
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
  });
});

describe('/api/* origin request policy', () => {
  const policy = () => {
    const api = only('AWS::CloudFront::Distribution').DistributionConfig.CacheBehaviors.find((b: Json) => b.PathPattern === 'api/*');
    const ref = api.OriginRequestPolicyId.Ref as string;
    expect(ref, 'a policy of this stack, not a managed one').toBeDefined();
    return resources[ref]!.Properties.OriginRequestPolicyConfig as Json;
  };

  it('forwards every header the API reads (contract/api-headers.ts), CloudFront-Viewer-Address among them, and nothing else', () => {
    const config = policy();
    expect(config.HeadersConfig.HeaderBehavior).toBe('whitelist');
    const forwarded = (config.HeadersConfig.Headers as string[]).map((h) => h.toLowerCase());
    for (const header of Object.values(API_REQUEST_HEADERS)) expect(forwarded).toContain(header);
    expect(forwarded).toContain('cloudfront-viewer-address');
    // And the origin header the /api/* viewer-request function sets (never the viewer's own copy).
    expect(forwarded.sort()).toEqual([...Object.values(API_REQUEST_HEADERS), ORIGIN_VERIFY_HEADER].sort());
    expect(config.CookiesConfig).toEqual({ CookieBehavior: 'none' });
    expect(config.QueryStringsConfig).toEqual({ QueryStringBehavior: 'none' });
  });

  it('never forwards Host (API Gateway routes by its own host name)', () => {
    const headers = policy().HeadersConfig;
    expect(headers.HeaderBehavior).not.toMatch(/^all/);
    expect((headers.Headers as string[]).map((h) => h.toLowerCase())).not.toContain('host');
  });
});

describe('upload', () => {
  const deployments = () => ofType('Custom::CDKBucketDeployment').map(([id, r]) => ({ id, ...r.Properties, DependsOn: r.DependsOn ?? [] }));
  const byInclude = (include: string | undefined) => deployments().filter((d) => d.Include?.[0] === include);

  it('sets Cache-Control per kind of object', () => {
    expect(deployments()).toHaveLength(5);
    const [assets] = byInclude('assets/*');
    const [data] = byInclude('*.data');
    const [pages] = byInclude('*.html');
    const [others] = byInclude(undefined);
    expect(assets).toMatchObject({ Exclude: ['*'], SystemMetadata: { 'cache-control': CACHE_IMMUTABLE } });
    expect(data).toMatchObject({ Exclude: ['*'], Include: ['*.data'], SystemMetadata: { 'cache-control': CACHE_REVALIDATE } });
    expect(pages).toMatchObject({ Exclude: ['*'], SystemMetadata: { 'cache-control': CACHE_REVALIDATE } });
    expect(pages!.Include).toEqual(['*.html']);
    expect(others).toMatchObject({
      Exclude: ['assets/*', '*.html', '*.data', 'feed.xml', '*/feed.xml'],
      SystemMetadata: { 'cache-control': CACHE_ONE_DAY },
    });
    expect(byInclude('feed.xml')[0]).toMatchObject({
      Exclude: ['*'],
      Include: ['feed.xml', '*/feed.xml'],
      Prune: true,
      SystemMetadata: { 'cache-control': CACHE_ONE_DAY },
    });
  });

  it("uploads the languages' feeds as application/atom+xml, Atom's own type, after the pages and before the named files", () => {
    const [feeds] = byInclude('feed.xml');
    expect(feeds!.SystemMetadata['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(feeds!.SystemMetadata['content-type']).toBe(contentTypeFor('es/feed.xml'));
    expect(feeds!.DependsOn).toContain(byInclude('*.html')[0]!.id);
    expect(byInclude(undefined)[0]!.DependsOn).toContain(feeds!.id);
  });

  it("uploads the pages' .data files as text/x-script, React Router's own type, which CloudFront compresses", () => {
    const [data] = byInclude('*.data');
    expect(data!.SystemMetadata['content-type']).toBe('text/x-script');
    expect(data!.SystemMetadata['content-type']).toBe(contentTypeFor('/contact.data'));
    const [feeds] = byInclude('feed.xml');
    for (const other of deployments().filter((d) => d.id !== data!.id && d.id !== feeds!.id))
      expect(other.SystemMetadata['content-type']).toBeUndefined();
  });

  it('keeps old hashed assets for open tabs, prunes pages and named files', () => {
    expect(byInclude('assets/*')[0]!.Prune).toBe(false);
    expect(byInclude('*.html')[0]!.Prune).toBe(true);
    expect(byInclude('*.data')[0]!.Prune).toBe(true);
    expect(byInclude(undefined)[0]!.Prune).toBe(true);
  });

  it('uploads pages after assets and invalidates once, at the end, only pages and named files', () => {
    const [assets] = byInclude('assets/*');
    const [data] = byInclude('*.data');
    const [pages] = byInclude('*.html');
    const [others] = byInclude(undefined);
    expect(data!.DependsOn).toContain(assets!.id);
    expect(pages!.DependsOn).toContain(data!.id);
    expect(others!.DependsOn).toContain(byInclude('feed.xml')[0]!.id);
    expect(assets!.DistributionId).toBeUndefined();
    expect(pages!.DistributionId).toBeUndefined();
    expect(data!.DistributionId).toBeUndefined();
    expect(others!.DistributionPaths).toEqual([
      '/__spa-fallback.html',
      '/home/*',
      '/index.html',
      '/projects/*',
      '/robots.txt',
      '/sitemap.xml',
      '/videos/*',
    ]);
    expect(others!.DistributionPaths).not.toContain('/*');
    expect(others!.DistributionPaths.some((p: string) => p.startsWith('/assets'))).toBe(false);
  });
});

/** The origin secret's ARN: what the functions get in place of its value. */
const originSecretArn = () => ({ Ref: idOf('AWS::SecretsManager::Secret', () => true) });

/** Every string in a value, and every CloudFormation function naming something the stack derives. */
function derivedFromIds(value: unknown): string[] {
  const json = JSON.stringify(value);
  return ['AWS::StackId', 'AWS::StackName', 'AWS::AccountId', 'AWS::URLSuffix', 'Fn::GetAtt', 'Fn::Select', 'Fn::Split'].filter((token) =>
    json.includes(token),
  );
}

describe('flood guards', () => {
  it('CloudFront sets the origin header from its key value store: no value in any header, environment variable or output', () => {
    const [, distribution] = ofType('AWS::CloudFront::Distribution')[0]!;
    const config = distribution.Properties.DistributionConfig;
    const origins = config.Origins as Json[];
    // No origin custom header at all: the value is never in the distribution's configuration.
    expect(origins.every((origin) => !origin.OriginCustomHeaders)).toBe(true);
    const api = (config.CacheBehaviors as Json[]).find((behavior) => behavior.PathPattern === 'api/*')!;
    const [functionId, fn] = ofType('AWS::CloudFront::Function').find(([, f]) =>
      String(f.Properties.FunctionCode).includes(ORIGIN_VERIFY_HEADER),
    )!;
    expect(api.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } }]);
    expect(fn.Properties.FunctionConfig).toMatchObject({
      Runtime: 'cloudfront-js-2.0',
      KeyValueStoreAssociations: [{ KeyValueStoreARN: { 'Fn::GetAtt': [idOf('AWS::CloudFront::KeyValueStore', () => true), 'Arn'] } }],
    });
    expect(String(fn.Properties.FunctionCode)).toContain(`store.get('${ORIGIN_SECRET_KVS_KEY}')`);
    expect(String(fn.Properties.FunctionCode)).toContain(`delete request.headers['${ORIGIN_VERIFY_HEADER}']`);
    // The store starts empty (no import source): only the rotation function writes it.
    expect(only('AWS::CloudFront::KeyValueStore').ImportSource).toBeUndefined();
    // The origin request policy forwards the header the function sets.
    const policy = only('AWS::CloudFront::OriginRequestPolicy').OriginRequestPolicyConfig.HeadersConfig;
    expect(policy.Headers).toContain(ORIGIN_VERIFY_HEADER);
    expect(Object.values(API_REQUEST_HEADERS)).not.toContain(ORIGIN_VERIFY_HEADER);
  });

  it('the secret is generated by Secrets Manager and rotated; the functions get its ARN and read it, nothing derivable', () => {
    const secret = only('AWS::SecretsManager::Secret');
    expect(secret.SecretString).toBeUndefined();
    expect(secret.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    const schedule = only('AWS::SecretsManager::RotationSchedule');
    expect(schedule.RotationRules).toEqual({ ScheduleExpression: 'rate(7 days)' });
    for (const id of [contactId(), eventsId(), vitalsId()]) {
      const variables = resources[id]!.Properties.Environment.Variables as Json;
      expect(variables[ORIGIN_SECRET_ENV]).toEqual(originSecretArn());
      expect(variables).not.toHaveProperty('ORIGIN_VERIFY_VALUE');
      // No variable is built from the stack's id, name or account, or from another resource's attribute.
      for (const [name, value] of Object.entries(variables)) {
        if (name === ORIGIN_SECRET_ENV || typeof value === 'string') continue;
        expect(derivedFromIds(value), name).toEqual([]);
      }
    }
    for (const output of Object.values(template.toJSON().Outputs as Json)) {
      expect(JSON.stringify(output.Value)).not.toMatch(/SecretsManager|KeyValueStore|AWS::StackId/);
    }
    const json = JSON.stringify(template.toJSON());
    expect(json).not.toContain('AWS::StackId');
  });

  it('only the three API functions may read the secret; only the rotation function may write it or the store', () => {
    const statements = ofType('AWS::IAM::Policy').flatMap(([, policy]) =>
      (policy.Properties.PolicyDocument.Statement as Json[]).map((statement) => ({ roles: policy.Properties.Roles, statement })),
    );
    const readers = statements.filter(({ statement }) => [statement.Action].flat().includes('secretsmanager:GetSecretValue'));
    const roleOf = (fnId: string) => resources[fnId]!.Properties.Role['Fn::GetAtt'][0];
    const rotationId = idOf('AWS::Lambda::Function', (props) => String(props.Description).includes('origin-rotation'));
    expect(new Set(readers.flatMap(({ roles }) => roles.map((role: Json) => role.Ref)))).toEqual(
      new Set([roleOf(contactId()), roleOf(eventsId()), roleOf(vitalsId()), roleOf(rotationId)]),
    );
    const writers = statements.filter(({ statement }) =>
      JSON.stringify(statement.Action).match(/PutSecretValue|cloudfront-keyvaluestore:PutKey/),
    );
    expect(new Set(writers.flatMap(({ roles }) => roles.map((role: Json) => role.Ref)))).toEqual(new Set([roleOf(rotationId)]));
  });

  it('one alarm mails the owner when the captcha budget or Google needs them', () => {
    const alarm = ofType('AWS::CloudWatch::Alarm').find(([, a]) => a.Properties.MetricName === CONTACT_METRICS.captchaNeedsOwner);
    expect(alarm?.[1].Properties).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [expect.objectContaining({ Ref: expect.any(String) })],
    });
    expect(alarm?.[1].Properties.AlarmDescription).toMatch(/80% of this month's siteverify budget.*billing/s);
  });
});

describe('API', () => {
  it('throttles contact, events and vitals apart, contact tighter, and waits for the routes it throttles', () => {
    const stageEntry = ofType('AWS::ApiGatewayV2::Stage');
    expect(stageEntry).toHaveLength(1);
    const [, stage] = stageEntry[0]!;
    expect(stage.Properties.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: DEFAULT_THROTTLE.rateLimit,
      ThrottlingBurstLimit: DEFAULT_THROTTLE.burstLimit,
    });
    expect(stage.Properties.RouteSettings).toEqual({
      'POST /api/contact': { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
      'POST /api/events': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 50 },
      'POST /api/vitals': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 100 },
    });
    expect(ROUTE_THROTTLES.contact.burstLimit).toBeLessThan(ROUTE_THROTTLES.events.burstLimit);
    // A class of visitors leaving a page together: one beacon each, in one burst.
    expect(ROUTE_THROTTLES.vitals.burstLimit).toBeGreaterThanOrEqual(100);
    // Each routed key must exist when the stage names it ("Unable to find Route by key" otherwise).
    const routeIds = ofType('AWS::ApiGatewayV2::Route').map(([id]) => id);
    expect(routeIds).toHaveLength(API_ROUTES.length);
    expect([stage.DependsOn].flat()).toEqual(expect.arrayContaining(routeIds));
  });

  it('writes JSON access logs without IP addresses', () => {
    const stage = only('AWS::ApiGatewayV2::Stage');
    expect(stage).toMatchObject({ StageName: '$default', AutoDeploy: true });
    const accessLogsId = stage.AccessLogSettings.DestinationArn['Fn::GetAtt'][0];
    expect(resources[accessLogsId]!.Type).toBe('AWS::Logs::LogGroup');
    const format = JSON.parse(stage.AccessLogSettings.Format);
    // Only what the owner reads when the API answers 5xx: no address, no user agent.
    expect(Object.keys(format).sort()).toEqual(['integrationError', 'latencyMs', 'requestId', 'routeKey', 'status']);
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
    expect(stage.AccessLogSettings.Format).not.toContain('sourceIp');
    expect(stage.AccessLogSettings.Format).not.toContain('userAgent');
  });

  it('routes POST /api/contact, /api/events and /api/vitals to their own functions, and nothing else', () => {
    const routes = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties);
    expect(routes.map((r) => r.RouteKey).sort()).toEqual(['POST /api/contact', 'POST /api/events', 'POST /api/vitals']);
    for (const [route, fnDescription] of [
      ['POST /api/contact', /^POST \/api\/contact/],
      ['POST /api/events', /^POST \/api\/events/],
      ['POST /api/vitals', /^POST \/api\/vitals/],
    ] as const) {
      const integrationId = routes.find((r) => r.RouteKey === route)!.Target['Fn::Join'][1][1].Ref;
      const integration = resources[integrationId]!.Properties;
      expect(integration).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
      const functionId = integration.IntegrationUri['Fn::GetAtt'][0];
      expect(resources[functionId]!.Properties.Description).toMatch(fnDescription);
    }
  });
});

describe('functions', () => {
  it('run on nodejs24.x arm64, one per route of the contract, with its entry and timeout', () => {
    for (const id of [contactId(), eventsId()]) {
      expect(resources[id]!.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler' });
    }
    for (const route of API_ROUTES) {
      const id = idOf('AWS::Lambda::Function', (p) => (p.Description ?? '').startsWith(`${route.routeKey} `));
      expect(resources[id]!.Properties.Description).toContain(route.entry);
      expect(resources[id]!.Properties.Timeout).toBe(route.timeoutSeconds);
    }
  });

  it('get the configuration they read, and the secret only by its parameter name', () => {
    expect(resources[contactId()]!.Properties.Environment.Variables).toEqual({
      NODE_OPTIONS: '--enable-source-maps',
      OWNER_EMAIL: FIXTURE_CONFIG_INPUT.ownerEmail,
      SENDER_EMAIL: FIXTURE_CONFIG_INPUT.senderEmail,
      RECAPTCHA_SECRET_PARAMETER: FIXTURE_CONFIG_INPUT.recaptchaSecretParameter,
      ARCHIVE_TABLE: { Ref: idOf('AWS::DynamoDB::Table', () => true) },
      MESSAGE_RETENTION_DAYS: '365',
      SES_CONFIGURATION_SET: { Ref: idOf('AWS::SES::ConfigurationSet', () => true) },
      POWERTOOLS_SERVICE_NAME: 'contact',
      POWERTOOLS_METRICS_NAMESPACE: 'Portfolio',
      [ORIGIN_SECRET_ENV]: originSecretArn(),
      CAPTCHA_MONTHLY_BUDGET: String(DEFAULT_CAPTCHA_MONTHLY_BUDGET),
    });
    expect(resources[eventsId()]!.Properties.Environment.Variables).toEqual({
      NODE_OPTIONS: '--enable-source-maps',
      POWERTOOLS_SERVICE_NAME: 'events',
      POWERTOOLS_METRICS_NAMESPACE: 'Portfolio',
      // The posts' titles, read at synth (the bundle has no Markdown files); the repository ships none.
      POST_EVENT_TITLES: JSON.stringify(readPostTitles(REPO_ROOT)),
      [ORIGIN_SECRET_ENV]: originSecretArn(),
      ARCHIVE_TABLE: { Ref: idOf('AWS::DynamoDB::Table', () => true) },
    });
    const json = JSON.stringify(template.toJSON());
    expect(json).not.toContain('RECAPTCHA_SECRET"');
    expect(json).not.toContain(RECAPTCHA_TEST_SECRET);
  });
});

describe('IAM', () => {
  const policyOfRole = (roleId: string): Json[] =>
    ofType('AWS::IAM::Policy')
      .filter(([, r]) => r.Properties.Roles.some((role: Json) => role.Ref === roleId))
      .flatMap(([, r]) => r.Properties.PolicyDocument.Statement);
  const roleOf = (fnDescription: RegExp) =>
    ofType('AWS::Lambda::Function').find(([, r]) => fnDescription.test(r.Properties.Description ?? ''))![1].Properties.Role[
      'Fn::GetAtt'
    ][0] as string;

  it('lets the contact function send only from the sender address, on the address and domain identities', () => {
    const statements = policyOfRole(roleOf(/^POST \/api\/contact/));
    const ses = statements.find((s) => [s.Action].flat().includes('ses:SendEmail'))!;
    expect([ses.Action].flat().sort()).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
    // SES authorizes against the identity it matched: the address if verified itself, else its domain;
    // in the sandbox also the recipient's (owner@portfolio.dev or portfolio.dev).
    const identities = [ses.Resource].flat().map((arn: Json) => {
      const text = JSON.stringify(arn);
      expect(text).toContain(':ses:eu-west-1:123456789012:identity/');
      return /identity\/([^"]+)"/.exec(text)![1];
    });
    expect(identities.sort()).toEqual(
      [FIXTURE_CONFIG_INPUT.senderEmail, 'mail.portfolio.dev', FIXTURE_CONFIG_INPUT.ownerEmail, 'portfolio.dev'].sort(),
    );
    expect(ses.Condition).toEqual({ StringEquals: { 'ses:FromAddress': FIXTURE_CONFIG_INPUT.senderEmail } });
    // A send that names a configuration set is authorized against the set too, under the same condition.
    const configurationSet = statements.find((s) => JSON.stringify(s.Resource).includes(':configuration-set/'))!;
    expect([configurationSet.Action].flat().sort()).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
    expect(configurationSet.Condition).toEqual(ses.Condition);
    expect(configurationSet.Resource).toEqual({
      'Fn::Join': ['', ['arn:aws:ses:eu-west-1:123456789012:configuration-set/', { Ref: idOf('AWS::SES::ConfigurationSet', () => true) }]],
    });
    const ssm = statements.find((s) => [s.Action].flat().some((a: string) => a.startsWith('ssm:')))!;
    expect(ssm.Action).toBe('ssm:GetParameter');
    expect(JSON.stringify(ssm.Resource)).toContain(':ssm:eu-west-1:123456789012:parameter/portfolio/recaptcha-secret"');
    expect(statements).toHaveLength(6); // + its own log group, + the archive (its own test), + the origin secret (flood guards)
  });

  it('has no wildcard resource for any function of the app, and no managed policy on them', () => {
    for (const role of [roleOf(/^POST \/api\/contact/), roleOf(/^POST \/api\/events/)]) {
      for (const statement of policyOfRole(role)) {
        for (const resource of [statement.Resource].flat()) {
          expect(JSON.stringify(resource)).not.toMatch(/^"\*"$|identity\/\*|parameter\/\*/);
        }
      }
      expect(resources[role]!.Properties.ManagedPolicyArns).toBeUndefined();
    }
    expect(policyOfRole(roleOf(/^POST \/api\/events/)).map((s) => s.Action)).toEqual([
      ['logs:CreateLogStream', 'logs:PutLogEvents'],
      ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'],
      'dynamodb:UpdateItem',
    ]);
    // The beacon functions may bump their counters and nothing else in the archive's table.
    const beacon = policyOfRole(roleOf(/^POST \/api\/events/)).find((s) => s.Action === 'dynamodb:UpdateItem')!;
    expect(beacon.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['beacon#*', 'counterkey#*'] } });
  });

  it('grants SES and SSM nowhere on "*"', () => {
    for (const [, policy] of ofType('AWS::IAM::Policy')) {
      for (const statement of policy.Properties.PolicyDocument.Statement) {
        const actions: string[] = [statement.Action].flat();
        if (actions.some((a) => /^(ses|ssm|kms):/.test(a))) expect([statement.Resource].flat()).not.toContain('*');
      }
    }
  });
});

describe('logs', () => {
  it('sets retention on every log group, and every function logs to one of them', () => {
    const groups = ofType('AWS::Logs::LogGroup');
    expect(groups.length).toBe(9); // contact, events, vitals, redelivery, mail events, breaker, origin rotation, API access, deploy handler
    for (const [, group] of groups) expect(group.Properties.RetentionInDays).toBe(30);
    const groupIds = new Set(groups.map(([id]) => id));
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      expect(groupIds.has(fn.Properties.LoggingConfig?.LogGroup?.Ref), id).toBe(true);
    }
  });
});

describe('operations', () => {
  it('e-mails the owner through an SSL-only topic', () => {
    const topicId = idOf('AWS::SNS::Topic', () => true);
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: FIXTURE_CONFIG_INPUT.ownerEmail,
      TopicArn: { Ref: topicId },
    });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });

  it('lets CloudWatch publish to the topic for this account and these alarms only', () => {
    // An explicit topic policy replaces SNS's default one: without an Allow, alarm mails never arrive.
    const topicId = idOf('AWS::SNS::Topic', () => true);
    const policy = only('AWS::SNS::TopicPolicy');
    expect(policy.Topics).toEqual([{ Ref: topicId }]);
    const allows = (policy.PolicyDocument.Statement as Json[]).filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    const allow = allows[0]!;
    expect(allow).toMatchObject({
      Principal: { Service: 'cloudwatch.amazonaws.com' },
      Action: 'sns:Publish',
      Resource: { Ref: topicId },
    });
    expect(allow.Condition.StringEquals).toEqual({ 'aws:SourceAccount': '123456789012' });
    const alarmIds = ofType('AWS::CloudWatch::Alarm')
      .map(([id]) => id)
      .sort();
    expect(alarmIds).toHaveLength(13);
    const sourceArns: Json[] = allow.Condition.ArnEquals['aws:SourceArn'];
    expect(sourceArns.map((arn) => arn['Fn::GetAtt'][0]).sort()).toEqual(alarmIds);
    expect(sourceArns.every((arn) => arn['Fn::GetAtt'][1] === 'Arn')).toBe(true);
  });

  it('alarms on captcha refusals above a threshold, to the topic', () => {
    const topicId = idOf('AWS::SNS::Topic', () => true);
    const alarm = ofType('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .find((a) => a.MetricName === CONTACT_METRICS.captchaRefused)!;
    expect(alarm).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [{ Name: 'service', Value: 'contact' }],
      Statistic: 'Sum',
      Period: 3600,
      Threshold: CAPTCHA_REFUSALS_ALARM.threshold,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
      OKActions: [{ Ref: topicId }],
    });
    expect(CAPTCHA_REFUSALS_ALARM.threshold).toBeGreaterThan(1);
    expect(alarm.AlarmDescription).toMatch(/site key .* secret/);
  });

  it('reads only metric names the contract lists, in its namespace, on the dashboard and in alarms', () => {
    const contractNames = new Set<string>([
      ...Object.values(CONTACT_METRICS),
      ...Object.values(EVENT_METRICS),
      ...Object.values(ARCHIVE_METRICS),
      ...Object.values(VITALS_METRICS_EMF),
    ]);
    const ours: string[] = [];
    for (const alarm of ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties)) {
      // A plain metric, or metric math over several (each in Metrics[].MetricStat).
      const metrics: Json[] = alarm.Metrics
        ? (alarm.Metrics as Json[]).filter((m) => m.MetricStat).map((m) => m.MetricStat.Metric)
        : [alarm];
      for (const metric of metrics) {
        if (!String(metric.Namespace).startsWith('AWS/')) {
          expect(metric.Namespace).toBe(METRICS_NAMESPACE);
          ours.push(metric.MetricName);
        }
      }
    }
    // The body is a Fn::Join around tokens (function names, region): stand-ins make it plain JSON.
    const join = only('AWS::CloudWatch::Dashboard').DashboardBody['Fn::Join'][1] as (string | Json)[];
    const body = JSON.parse(join.map((part) => (typeof part === 'string' ? part : 'TOKEN')).join(''));
    for (const widget of body.widgets as Json[]) {
      for (const metric of (widget.properties.metrics ?? []) as Json[][]) {
        const expression = metric.find((part): part is Json => typeof part === 'object' && 'expression' in part);
        if (expression && String(expression.expression).startsWith('SEARCH(')) {
          const search = /^SEARCH\('\{([^,}]+)[^}]*\} MetricName="([^"]+)"/.exec(expression.expression)!;
          expect(search[1]).toBe(METRICS_NAMESPACE);
          ours.push(search[2]!);
        } else if (expression) {
          // Metric math (SUM over services): the series it reads are listed beside it.
          expect(expression.expression).toMatch(/^SUM\(\[[a-zA-Z0-9_,]+\]\)$/);
        } else if (!String(metric[0]).startsWith('AWS/')) {
          expect(metric[0]).toBe(METRICS_NAMESPACE);
          ours.push(String(metric[1]));
        }
      }
    }
    expect(ours.length).toBeGreaterThanOrEqual(6);
    for (const name of ours) expect(contractNames, name).toContain(name);
    // The archive's alarms and dashboard row read every archive metric.
    for (const name of Object.values(ARCHIVE_METRICS)) expect(ours, name).toContain(name);
  });

  it('alarms on contact function errors and API 5xx, to the topic', () => {
    const topicId = idOf('AWS::SNS::Topic', () => true);
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    expect(alarms).toHaveLength(13); // + the archive's five, the visitors' two and the breaker's (their own tests), the captcha's quota or budget, the counters
    const errors = alarms.find((a) => a.MetricName === 'Errors')!;
    expect(errors).toMatchObject({ Namespace: 'AWS/Lambda', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    const contactFn = idOf('AWS::Lambda::Function', (p) => /^POST \/api\/contact/.test(p.Description ?? ''));
    expect(errors.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: contactFn } }]);
    const serverErrors = alarms.find((a) => a.MetricName === '5xx')!;
    expect(serverErrors).toMatchObject({ Namespace: 'AWS/ApiGateway', Threshold: 1 });
    for (const alarm of alarms) {
      expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.TreatMissingData).toBe('notBreaching');
    }
  });

  it("docs/deploy.md's costs count the alarms and the alarm metrics CloudWatch bills (each metric an alarm reads)", () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const alarmMetrics = alarms.reduce((sum, a) => sum + (a.Metrics ? (a.Metrics as Json[]).filter((m) => m.MetricStat).length : 1), 0);
    const costs = readFileSync(path.join(REPO_ROOT, 'docs/deploy.md'), 'utf8').replace(/\s+/g, ' ');
    expect(costs).toContain(`CloudWatch: ${alarms.length} alarms reading ${alarmMetrics} alarm metrics`);
    expect(costs).toContain(`so ${Math.max(0, alarmMetrics - 10)} are billed`);
    expect(costs).toContain(
      `${['Zero', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve', 'Thirteen'][alarms.length]} alarms mail`,
    );
  });

  it('has a dashboard with messages sent, errors, latency and click events by name', () => {
    const body = JSON.stringify(only('AWS::CloudWatch::Dashboard').DashboardBody);
    for (const text of ['ContactMessageSent', 'ContactMessageFailed', 'Errors', 'Latency', 'Duration', '5xx']) {
      expect(body).toContain(text);
    }
    expect(body).toContain(
      `SEARCH('{Portfolio,EventName,service} MetricName=\\\\\\"ClickEvent\\\\\\" service=\\\\\\"events\\\\\\"', 'Sum', 3600)`,
    );
  });
});

describe('visitors (page views and Core Web Vitals)', () => {
  // The body is a Fn::Join around tokens: each token becomes TOKEN_<its index>, so the log group can be told.
  const parts = () => only('AWS::CloudWatch::Dashboard').DashboardBody['Fn::Join'][1] as (string | Json)[];
  const dashboard = () =>
    JSON.parse(
      parts()
        .map((part, i) => (typeof part === 'string' ? part : `TOKEN_${i}`))
        .join(''),
    ) as { widgets: Json[] };
  const vitalsFunctionId = () => idOf('AWS::Lambda::Function', (p) => /^POST \/api\/vitals/.test(p.Description ?? ''));

  it("runs the page-view queries (per day and route; p75 per route and device) on the vitals function's log group", () => {
    const logGroupId = resources[vitalsFunctionId()]!.Properties.LoggingConfig.LogGroup.Ref;
    const queries = dashboard().widgets.filter((w) => w.type === 'log');
    expect(queries).toHaveLength(3);
    const texts = queries.map((w) => String(w.properties.query));
    for (const text of texts) {
      const token = /^SOURCE 'TOKEN_(\d+)'/.exec(text);
      expect(parts()[Number(token?.[1])]).toEqual({ Ref: logGroupId });
      expect(text).toMatch(/filter message = "Page view( rejected)?"/);
    }
    expect(queries.map((w) => String(w.properties.query)).some((t) => t.includes(REFUSED_PAGE_VIEWS_QUERY))).toBe(true);
    expect(REFUSED_PAGE_VIEWS_QUERY).toContain('stats count(*) as refused by day, outcome');
    expect(texts.some((t) => t.includes(PAGE_VIEWS_BY_DAY_QUERY))).toBe(true);
    expect(texts.some((t) => t.includes(VITALS_P75_QUERY))).toBe(true);
    expect(VITALS_P75_QUERY).toMatch(/pct\(pageView\.lcp, 75\).*pct\(pageView\.inp, 75\).*pct\(pageView\.cls, 75\).*by route, device/s);
    expect(PAGE_VIEWS_BY_DAY_QUERY).toMatch(/datefloor\(@timestamp, 1d\) as day.*count\(\*\) as views by day, route/s);
    // Google's lines for CLS are in the table's title (a table draws no line).
    const table = queries.find((w) => String(w.properties.query).includes('pct('))!;
    expect(table.properties.title).toContain('CLS ≤ 0.1');
  });

  it("draws Google's good and poor lines on the daily p75 LCP and INP graphs", () => {
    const graphs = dashboard().widgets.filter((w) => /^Visitors: p75 (LCP|INP)/.test(String(w.properties.title)));
    expect(graphs).toHaveLength(2);
    const annotations = graphs.map((g) => (g.properties.annotations.horizontal as Json[]).map((a) => a.value));
    expect(annotations).toEqual([
      [VITALS_THRESHOLDS.lcp.good, VITALS_THRESHOLDS.lcp.poor],
      [VITALS_THRESHOLDS.inp.good, VITALS_THRESHOLDS.inp.poor],
    ]);
    for (const graph of graphs)
      expect(graph.properties.metrics[0]).toEqual(expect.arrayContaining([METRICS_NAMESPACE, 'service', 'vitals']));
  });

  it("alarms when the last day's p75 LCP or INP is poor, leaving a day of too few page views alone, to the topic", () => {
    const topicId = idOf('AWS::SNS::Topic', () => true);
    const alarms = ofType('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .filter((a) => String(a.MetricName).startsWith('PageView'));
    expect(alarms.map((a) => [a.MetricName, a.Threshold])).toEqual([
      [VITALS_METRICS_EMF.lcp, VITALS_THRESHOLDS.lcp.poor],
      [VITALS_METRICS_EMF.inp, VITALS_THRESHOLDS.inp.poor],
    ]);
    for (const alarm of alarms) {
      expect(alarm).toMatchObject({
        Namespace: METRICS_NAMESPACE,
        Dimensions: [{ Name: 'service', Value: 'vitals' }],
        ExtendedStatistic: 'p75',
        Period: 86400,
        EvaluationPeriods: 1,
        ComparisonOperator: 'GreaterThanThreshold',
        TreatMissingData: 'notBreaching',
        EvaluateLowSampleCountPercentile: 'ignore',
        AlarmActions: [{ Ref: topicId }],
      });
      expect(alarm.AlarmDescription).toContain(`at least ${SLOW_PAGES_MIN_VIEWS} page views`);
    }
    // Google's "poor" lines and CloudWatch's low-sample rule for a p75 (10 / (1 - 0.75)).
    expect([VITALS_THRESHOLDS.lcp.poor, VITALS_THRESHOLDS.inp.poor, SLOW_PAGES_MIN_VIEWS]).toEqual([4000, 500, 40]);
  });
});

describe('outputs', () => {
  it('gives the site URL on the CloudFront domain, and no DNS records without a domain', () => {
    const outputs = template.toJSON().Outputs;
    const distributionId = idOf('AWS::CloudFront::Distribution', () => true);
    expect(outputs.SiteUrl.Value).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] });
    expect(ofType('AWS::Route53::RecordSet')).toHaveLength(0);
    expect(ofType('AWS::CertificateManager::Certificate')).toHaveLength(0);
    expect(synth.certificateTemplate).toBeUndefined();
  });
});

describe('fixture', () => {
  it('used the prebuilt site', () => {
    expect(synth.stacks.main.web.invalidationPaths).toContain('/projects/*');
  });
});
