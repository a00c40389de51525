import { Stack, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as targets from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import { CLOUDFRONT_CERTIFICATE_REGION, type Route53Domain } from '../config/portfolio-config';

/** The hosted zone from its id and name: no lookup, so synth needs no credentials. */
export function hostedZone(scope: Construct, id: string, domain: Route53Domain): route53.IHostedZone {
  return route53.HostedZone.fromHostedZoneAttributes(scope, id, {
    hostedZoneId: domain.hostedZoneId,
    zoneName: domain.hostedZoneName,
  });
}

/** A DNS-validated certificate for the site's name; CloudFront only takes certificates from us-east-1. */
export class SiteCertificate extends Construct {
  readonly certificate: acm.Certificate;

  constructor(scope: Construct, id: string, domain: Route53Domain) {
    super(scope, id);
    if (Stack.of(this).region !== CLOUDFRONT_CERTIFICATE_REGION) {
      throw new Error(`The CloudFront certificate must be made in ${CLOUDFRONT_CERTIFICATE_REGION}, not ${Stack.of(this).region}.`);
    }
    this.certificate = new acm.Certificate(this, 'Certificate', {
      domainName: domain.domainName,
      validation: acm.CertificateValidation.fromDns(hostedZone(this, 'Zone', domain)),
    });
  }
}

/**
 * When the main stack is in another region: a small us-east-1 stack that only holds the certificate,
 * passed to the distribution with CDK's cross-region references.
 */
export class CertificateStack extends Stack {
  readonly certificate: acm.ICertificate;

  constructor(scope: Construct, id: string, domain: Route53Domain, props: StackProps) {
    super(scope, id, { ...props, crossRegionReferences: true });
    this.certificate = new SiteCertificate(this, 'Site', domain).certificate;
  }
}

/** A and AAAA alias records from the site's name to the distribution (IPv6 is on). */
export class SiteDnsRecords extends Construct {
  constructor(scope: Construct, id: string, domain: Route53Domain, distribution: cloudfront.IDistribution) {
    super(scope, id);
    const zone = hostedZone(this, 'Zone', domain);
    const target = route53.RecordTarget.fromAlias(new targets.CloudFrontTarget(distribution));
    const recordName = domain.domainName;
    new route53.ARecord(this, 'A', { zone, recordName, target });
    new route53.AaaaRecord(this, 'AAAA', { zone, recordName, target });
  }
}
