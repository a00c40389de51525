/**
 * Custom domain with DNS outside Route 53 (domain with certificateArn, no hostedZoneId), stack in
 * eu-west-1: the certificate npm run setup requested is imported, no certificate stack, no DNS records.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureConfig, synthPortfolio, type Synthesized, type Json } from './testing';

const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/01234567-aaaa-bbbb-cccc-000000000000';
const DOMAIN = { domainName: 'www.portfolio.dev', certificateArn: CERTIFICATE_ARN };
let synth: Synthesized;
let template: Template;
let resources: Record<string, Json>;

beforeAll(() => {
  synth = synthPortfolio(fixtureConfig({ region: 'eu-west-1', domain: DOMAIN }));
  template = synth.template;
  resources = template.toJSON().Resources;
});

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

describe('custom domain with external DNS', () => {
  it('imports the certificate by ARN: no certificate resource, no us-east-1 stack', () => {
    expect(synth.certificateTemplate).toBeUndefined();
    expect(ofType('AWS::CertificateManager::Certificate')).toEqual([]);
    const config = ofType('AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    expect(config.Aliases).toEqual([DOMAIN.domainName]);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: CERTIFICATE_ARN,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
  });

  it('writes no Route 53 records (the owner publishes the CNAME at their DNS host)', () => {
    expect(ofType('AWS::Route53::RecordSet')).toEqual([]);
    expect(template.toJSON().Outputs.SiteUrl.Value).toBe(`https://${DOMAIN.domainName}`);
  });
});
