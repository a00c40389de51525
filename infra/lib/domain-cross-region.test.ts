/** Custom domain with the stack outside us-east-1: the certificate lives in a us-east-1 stack. */
import { App } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { addPortfolioStacks } from './portfolio-app';
import { scratchDir } from '../../tools/scratch';
import { fixtureConfig, makeFixtureSite, synthPortfolio, type Synthesized, type Json, roleBoundaries, undeployableTypes } from './testing';

const DOMAIN = { domainName: 'portfolio.dev', hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'portfolio.dev' };
let synth: Synthesized;

beforeAll(() => {
  synth = synthPortfolio(fixtureConfig({ region: 'eu-west-1', domain: DOMAIN }));
});

describe('custom domain, stack in eu-west-1', () => {
  it('holds only resource types the production deploy accepts, in both stacks', () => {
    expect(undeployableTypes(synth.template, synth.certificateTemplate)).toEqual([]);
  });

  it("gives the roles of both stacks the boundary, the cross-region references' too", () => {
    const boundaries = roleBoundaries(synth.template, synth.certificateTemplate);
    expect(boundaries.length).toBeGreaterThan(0);
    expect(boundaries.every((b) => b.includes(':policy/Portfolio-cdk-boundary'))).toBe(true);
    expect(roleBoundaries(synth.certificateTemplate).length).toBeGreaterThan(0);
  });

  it('puts the certificate in a us-east-1 stack that the main stack depends on', () => {
    expect(synth.stacks.certificate?.region).toBe('us-east-1');
    expect(synth.stacks.main.region).toBe('eu-west-1');
    expect(synth.stacks.main.dependencies).toContain(synth.stacks.certificate);
    synth.certificateTemplate!.hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: DOMAIN.domainName,
      ValidationMethod: 'DNS',
    });
    // Only the API's own name has a certificate here, in the stack's region (api-origin.test.ts).
    const here = Object.entries(synth.template.findResources('AWS::CertificateManager::Certificate'));
    expect(here.map(([, r]) => r.Properties.DomainName)).toEqual([`api-origin.${DOMAIN.domainName}`]);
  });

  it('uses it through a cross-region reference, TLS 1.2 minimum, with alias records at the apex', () => {
    const resources: Record<string, Json> = synth.template.toJSON().Resources;
    const distribution = Object.values(resources).find((r) => r.Type === 'AWS::CloudFront::Distribution')!;
    const certificate = distribution.Properties.DistributionConfig.ViewerCertificate;
    expect(certificate.MinimumProtocolVersion).toBe('TLSv1.2_2021');
    // CDK's cross-region reference: a custom resource reads the ARN the certificate stack exported to SSM.
    expect(JSON.stringify(certificate.AcmCertificateArn)).toContain('ExportsReader');
    const records = Object.entries(resources)
      .filter(([id, r]) => r.Type === 'AWS::Route53::RecordSet' && !id.startsWith('ApiOrigin'))
      .map(([, r]) => r);
    expect(records.map((r) => [r.Properties.Type, r.Properties.Name]).sort()).toEqual([
      ['A', 'portfolio.dev.'],
      ['AAAA', 'portfolio.dev.'],
    ]);
  });

  it('refuses to guess the account that cross-region references need', () => {
    expect(() =>
      addPortfolioStacks(new App({ outdir: scratchDir('cdk.out-') }), fixtureConfig({ region: 'eu-west-1', domain: DOMAIN }), {
        prebuiltSiteDir: makeFixtureSite(),
      }),
    ).toThrow(/portfolio\.region is eu-west-1 and a domain is configured/);
  });
});
