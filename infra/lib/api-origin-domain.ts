import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as targets from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import type { Route53Domain } from '../config/portfolio-config';
import { hostedZone } from './domain';

/** The label of the API's own name under the site's: api-origin.www.example.dev. */
export const API_ORIGIN_LABEL = 'api-origin';

/** The name CloudFront reaches the API by when the site has a Route 53 domain. */
export function apiOriginName(domain: Route53Domain): string {
  return `${API_ORIGIN_LABEL}.${domain.domainName}`;
}

export interface ApiOriginDomainProps {
  readonly domain: Route53Domain;
  readonly api: apigwv2.IHttpApi;
  readonly stage: apigwv2.IHttpStage;
}

/**
 * A custom domain name of the HTTP API under the site's Route 53 zone, for CloudFront's /api/* origin,
 * so the API's default execute-api endpoint can be disabled: "To ensure that clients can access your API
 * only by using a custom domain name, disable the default execute-api endpoint" (API Gateway Developer
 * Guide, "Disable the default endpoint for HTTP APIs":
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-disable-default-endpoint.html).
 * CloudFront reaches an origin by its name, so the name needs a regional certificate in the stack's
 * region (DNS-validated in the zone) and an alias record to the domain's regional endpoint. CloudFront
 * sends the origin's own name as Host (the API origin request policy never forwards the viewer's), which
 * is how API Gateway picks this domain's mapping.
 */
export class ApiOriginDomain extends Construct {
  readonly domainName: string;

  constructor(scope: Construct, id: string, props: ApiOriginDomainProps) {
    super(scope, id);
    this.domainName = apiOriginName(props.domain);
    const zone = hostedZone(this, 'Zone', props.domain);
    const certificate = new acm.Certificate(this, 'Certificate', {
      domainName: this.domainName,
      validation: acm.CertificateValidation.fromDns(zone),
    });
    const name = new apigwv2.DomainName(this, 'Name', {
      domainName: this.domainName,
      certificate,
      securityPolicy: apigwv2.SecurityPolicy.TLS_1_2,
    });
    new apigwv2.ApiMapping(this, 'Mapping', { api: props.api, domainName: name, stage: props.stage });
    new route53.ARecord(this, 'A', {
      zone,
      recordName: this.domainName,
      target: route53.RecordTarget.fromAlias(new targets.ApiGatewayv2DomainProperties(name.regionalDomainName, name.regionalHostedZoneId)),
    });
  }
}
