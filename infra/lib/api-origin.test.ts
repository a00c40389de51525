/**
 * How CloudFront reaches the API: with a Route 53 domain, by a custom domain name of the API under the
 * site's zone, its execute-api endpoint disabled; without one, by the execute-api host (the only name
 * the API then has).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ORIGIN_LABEL } from './api-origin-domain';
import { fixtureConfig, type Json, synthPortfolio, type Synthesized } from './testing';

const DOMAIN = { domainName: 'www.portfolio.dev', hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'portfolio.dev' };
const ORIGIN = `${API_ORIGIN_LABEL}.${DOMAIN.domainName}`;
let withDomain: Synthesized;
let without: Synthesized;

beforeAll(() => {
  withDomain = synthPortfolio(fixtureConfig({ region: 'us-east-1', domain: DOMAIN }));
  without = synthPortfolio();
}, 120_000);

const resources = (synth: Synthesized, type: string): [string, Json][] => Object.entries(synth.template.findResources(type));
const liveDistribution = (synth: Synthesized): Json =>
  resources(synth, 'AWS::CloudFront::Distribution').find(([id]) => !id.startsWith('Previews'))![1].Properties.DistributionConfig;
/** The origin the api/* behaviour goes to. */
const apiOrigin = (synth: Synthesized): Json => {
  const config = liveDistribution(synth);
  const behavior = config.CacheBehaviors.find((b: Json) => b.PathPattern === 'api/*');
  return config.Origins.find((o: Json) => o.Id === behavior.TargetOriginId);
};

describe('with a Route 53 domain', () => {
  it('disables the execute-api endpoint', () => {
    const [[, api]] = resources(withDomain, 'AWS::ApiGatewayV2::Api') as [[string, Json]];
    expect(api.Properties.DisableExecuteApiEndpoint).toBe(true);
  });

  it("gives the API a name under the site's, with a DNS-validated certificate in the stack's region, TLS 1.2, mapped to its stage", () => {
    const [[nameId, name]] = resources(withDomain, 'AWS::ApiGatewayV2::DomainName') as [[string, Json]];
    expect(name.Properties.DomainName).toBe(ORIGIN);
    expect(name.Properties.DomainNameConfigurations).toEqual([
      expect.objectContaining({ EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2', CertificateArn: { Ref: expect.any(String) } }),
    ]);
    const certificateId = name.Properties.DomainNameConfigurations[0].CertificateArn.Ref;
    expect(withDomain.template.toJSON().Resources[certificateId].Properties).toMatchObject({
      DomainName: ORIGIN,
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: ORIGIN, HostedZoneId: DOMAIN.hostedZoneId }],
    });
    const [[, mapping]] = resources(withDomain, 'AWS::ApiGatewayV2::ApiMapping') as [[string, Json]];
    expect(mapping.Properties.DomainName).toEqual({ Ref: nameId });
    expect(mapping.Properties.Stage).toBe('$default');
    const [[apiId]] = resources(withDomain, 'AWS::ApiGatewayV2::Api') as [[string, Json]];
    expect(mapping.Properties.ApiId).toEqual({ Ref: apiId });
    const record = resources(withDomain, 'AWS::Route53::RecordSet').find(([, r]) => r.Properties.Name === `${ORIGIN}.`);
    expect(record![1].Properties).toMatchObject({
      Type: 'A',
      HostedZoneId: DOMAIN.hostedZoneId,
      AliasTarget: {
        DNSName: { 'Fn::GetAtt': [nameId, 'RegionalDomainName'] },
        HostedZoneId: { 'Fn::GetAtt': [nameId, 'RegionalHostedZoneId'] },
      },
    });
  });

  it('sends /api/* to that name over HTTPS, never to execute-api', () => {
    expect(apiOrigin(withDomain)).toMatchObject({ DomainName: ORIGIN, CustomOriginConfig: { OriginProtocolPolicy: 'https-only' } });
    expect(JSON.stringify(liveDistribution(withDomain))).not.toContain('ApiEndpoint');
  });
});

describe('without a domain', () => {
  it("keeps the execute-api endpoint, CloudFront's only way to the API", () => {
    const [[, api]] = resources(without, 'AWS::ApiGatewayV2::Api') as [[string, Json]];
    expect(api.Properties.DisableExecuteApiEndpoint).toBe(false);
    expect(resources(without, 'AWS::ApiGatewayV2::DomainName')).toEqual([]);
    expect(JSON.stringify(apiOrigin(without).DomainName)).toContain('ApiEndpoint');
  });
});
