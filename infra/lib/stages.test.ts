/**
 * Preview stages: `--stage NAME` gives a second, independent copy of the site (own stack, bucket,
 * distribution, API, alarms), sharing no physical name and exporting nothing the other could import.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureConfig, synthPortfolio, type Json, roleBoundaries, type Synthesized, undeployableTypes } from './testing';

const DOMAIN = { domainName: 'www.portfolio.dev', hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'portfolio.dev' };
let live: Synthesized;
let preview: Synthesized;

beforeAll(() => {
  live = synthPortfolio(fixtureConfig({ region: 'us-east-1', domain: DOMAIN }));
  preview = synthPortfolio(fixtureConfig({ region: 'us-east-1', domain: DOMAIN, stage: 'preview' }));
});

/**
 * Properties that name a resource in the account (two stacks giving the same one would collide or be
 * confused): bucket, topic, function, role, log group, dashboard, alarm names; "Name" of CloudFront
 * policies, functions and origin access controls, and of the API. A metric dimension's Name is not one.
 */
const PHYSICAL_NAME =
  /^(BucketName|TopicName|FunctionName|RoleName|ManagedPolicyName|LogGroupName|DashboardName|AlarmName|Name|DisplayName)$/;

/** Every literal physical name in a template's resources, with where it sits. */
function literalNames(node: unknown, at: string, found: Map<string, string>): Map<string, string> {
  if (Array.isArray(node)) node.forEach((item, i) => literalNames(item, `${at}[${i}]`, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Json)) {
      if (PHYSICAL_NAME.test(key) && !at.includes('Dimensions') && typeof value === 'string') found.set(value, `${at}.${key}`);
      literalNames(value, `${at}.${key}`, found);
    }
  }
  return found;
}

describe('a preview stage', () => {
  it('holds only resource types a deploy of a built assembly accepts, as the live stack does', () => {
    expect(undeployableTypes(live.template, preview.template)).toEqual([]);
  });

  it("gives its roles the live site's boundary (setup makes one, named after the live stack)", () => {
    const boundaries = new Set(roleBoundaries(preview.template));
    expect(boundaries.size).toBe(1);
    expect([...boundaries][0]).toContain(':policy/Portfolio-cdk-boundary');
  });

  it('is its own stack, named after the stage; the live stack keeps its name', () => {
    expect(live.stacks.main.stackName).toBe('Portfolio');
    expect(preview.stacks.main.stackName).toBe('Portfolio-preview');
  });

  it('has its own bucket, distribution, API, functions and alarms', () => {
    for (const type of ['AWS::S3::Bucket', 'AWS::CloudFront::Distribution', 'AWS::ApiGatewayV2::Api', 'AWS::CloudWatch::Alarm']) {
      expect(Object.keys(preview.template.findResources(type)).length, type).toBeGreaterThan(0);
    }
    // All the live stack's functions, the origin secret's rotation among them: a stage has its own secret.
    expect(Object.keys(preview.template.findResources('AWS::Lambda::Function')).length).toBe(
      Object.keys(live.template.findResources('AWS::Lambda::Function')).length,
    );
    expect(Object.keys(preview.template.findResources('AWS::SecretsManager::Secret'))).toHaveLength(1);
  });

  it('shares no physical name with the live stack', () => {
    const liveNames = literalNames(live.template.toJSON().Resources, 'live', new Map());
    const previewNames = literalNames(preview.template.toJSON().Resources, 'preview', new Map());
    expect(previewNames.size).toBeGreaterThan(0); // cache policies, the CloudFront function, …
    const shared = [...previewNames.keys()].filter((name) => liveNames.has(name)).map((name) => previewNames.get(name));
    expect(shared).toEqual([]);
  });

  it('exports nothing, so neither stack can hold the other', () => {
    for (const synth of [live, preview]) {
      for (const output of Object.values(synth.template.toJSON().Outputs as Record<string, Json>)) {
        expect(output.Export).toBeUndefined();
      }
    }
  });

  it('leaves the custom domain, its certificate and DNS records to the live site', () => {
    // The site's A and AAAA, and the A of the API's own name (api-origin.test.ts).
    expect(Object.keys(live.template.findResources('AWS::Route53::RecordSet'))).toHaveLength(3);
    expect(Object.keys(preview.template.findResources('AWS::Route53::RecordSet'))).toHaveLength(0);
    expect(Object.keys(preview.template.findResources('AWS::ApiGatewayV2::DomainName'))).toHaveLength(0);
    expect(Object.keys(preview.template.findResources('AWS::CertificateManager::Certificate'))).toHaveLength(0);
    const distribution = Object.values(preview.template.findResources('AWS::CloudFront::Distribution'))[0]!;
    expect(distribution.Properties.DistributionConfig.Aliases).toBeUndefined();
  });
});
