/** Custom domain with the stack in us-east-1: certificate, aliases, TLS 1.2 and DNS records in one stack. */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureConfig, synthPortfolio, type Synthesized, type Json } from './testing';

const DOMAIN = { domainName: 'www.portfolio.dev', hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'portfolio.dev' };
let synth: Synthesized;
let template: Template;
let resources: Record<string, Json>;

beforeAll(() => {
  synth = synthPortfolio(fixtureConfig({ region: 'us-east-1', domain: DOMAIN }));
  template = synth.template;
  resources = template.toJSON().Resources;
});

// The site's own certificate and records; the API's name under the site's (ApiOrigin…) is api-origin.test.ts's.
const ofType = (type: string) => Object.entries(resources).filter(([id, r]) => r.Type === type && !id.startsWith('ApiOrigin'));

describe('custom domain, stack in us-east-1', () => {
  it('makes a DNS-validated certificate in the stack itself', () => {
    expect(synth.certificateTemplate).toBeUndefined();
    template.hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: DOMAIN.domainName,
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: DOMAIN.domainName, HostedZoneId: DOMAIN.hostedZoneId }],
    });
  });

  it('serves the domain with that certificate, SNI only, TLS 1.2 minimum', () => {
    const [[certificateId]] = ofType('AWS::CertificateManager::Certificate') as [[string, Json]];
    const config = ofType('AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    expect(config.Aliases).toEqual([DOMAIN.domainName]);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: { Ref: certificateId },
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
  });

  it('points A and AAAA alias records at the distribution', () => {
    const records = ofType('AWS::Route53::RecordSet').map(([, r]) => r.Properties);
    expect(records.map((r) => r.Type).sort()).toEqual(['A', 'AAAA']);
    const distributionId = ofType('AWS::CloudFront::Distribution')[0]![0];
    for (const record of records) {
      expect(record).toMatchObject({ Name: `${DOMAIN.domainName}.`, HostedZoneId: DOMAIN.hostedZoneId });
      expect(record.AliasTarget.DNSName).toEqual({ 'Fn::GetAtt': [distributionId, 'DomainName'] });
    }
  });

  it('gives the domain as the site URL', () => {
    expect(template.toJSON().Outputs.SiteUrl.Value).toBe(`https://${DOMAIN.domainName}`);
  });
});
