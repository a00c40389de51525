import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { type PortfolioConfig, webBuildEnv } from '../config/portfolio-config';
import { grantContactPermissions } from './contact-permissions';
import { SiteCertificate, SiteDnsRecords } from './domain';
import { HttpApi } from './http-api';
import { Monitoring } from './monitoring';
import { RouteFunctions } from './route-functions';
import { SiteBucket } from './site-bucket';
import { SiteDeployment } from './site-deployment';
import { SiteDistribution } from './site-distribution';
import { WebBuild } from './web-build';

export interface PortfolioStackProps extends StackProps {
  readonly config: PortfolioConfig;
  readonly projectRoot: string;
  /** A directory shaped like web/build to deploy as is (tests); default: build at synth. */
  readonly prebuiltSiteDir?: string;
  /** The us-east-1 certificate when this stack is elsewhere (CertificateStack); else made here. */
  readonly certificate?: acm.ICertificate;
}

/** The whole product on AWS: site bucket, CDN, API, deploy, alarms and dashboard. */
export class PortfolioStack extends Stack {
  readonly site: SiteBucket;
  readonly functions: RouteFunctions;
  readonly api: HttpApi;
  readonly web: WebBuild;
  readonly cdn: SiteDistribution;
  readonly deployment: SiteDeployment;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: PortfolioStackProps) {
    super(scope, id, props);
    const { config } = props;
    const logRetention = config.logRetentionDays as logs.RetentionDays;

    this.site = new SiteBucket(this, 'Site');
    this.functions = new RouteFunctions(this, 'Functions', {
      projectRoot: props.projectRoot,
      logRetention,
      options: {
        contact: {
          memorySize: 256,
          environment: {
            OWNER_EMAIL: config.ownerEmail,
            SENDER_EMAIL: config.senderEmail,
            // Only the parameter's name: the secret itself is read at cold start, never stored here.
            RECAPTCHA_SECRET_PARAMETER: config.recaptchaSecretParameter,
          },
        },
        events: { memorySize: 128 },
      },
    });
    grantContactPermissions(this.functions.functions.contact, config);
    this.api = new HttpApi(this, 'Api', { functions: this.functions.functions, logRetention });
    // The CSP comes from source (contract/inline-scripts.ts), so a content change never touches the
    // distribution's configuration; the build only has to match it (checked in WebBuild).
    this.web = new WebBuild(this, 'Web', {
      projectRoot: props.projectRoot,
      buildEnv: webBuildEnv(config),
      prebuiltDir: props.prebuiltSiteDir,
    });

    let certificate = props.certificate;
    if (config.domain && !certificate) {
      certificate = new SiteCertificate(this, 'Certificate', config.domain).certificate;
    }
    const extraConnectSources = [config.contactEndpoint, config.eventsEndpoint]
      .filter((endpoint) => endpoint.startsWith('https://'))
      .map((endpoint) => new URL(endpoint).origin);
    this.cdn = new SiteDistribution(this, 'Cdn', {
      bucket: this.site.bucket,
      api: this.api.api,
      extraConnectSources: [...new Set(extraConnectSources)],
      domain: config.domain && certificate ? { domainName: config.domain.domainName, certificate } : undefined,
    });
    this.deployment = new SiteDeployment(this, 'Deploy', {
      asset: this.web.asset,
      bucket: this.site.bucket,
      distribution: this.cdn.distribution,
      invalidationPaths: this.web.invalidationPaths,
      logRetention,
    });
    if (config.domain) new SiteDnsRecords(this, 'Dns', config.domain, this.cdn.distribution);

    this.monitoring = new Monitoring(this, 'Monitoring', {
      ownerEmail: config.ownerEmail,
      api: this.api.api,
      contactFunction: this.functions.functions.contact,
      eventsFunction: this.functions.functions.events,
    });

    new CfnOutput(this, 'SiteUrl', {
      description: 'The site',
      value: config.domain
        ? `https://${config.domain.domainName}`
        : `https://${this.cdn.distribution.distributionDomainName}`,
    });
    new CfnOutput(this, 'DistributionDomainName', { value: this.cdn.distribution.distributionDomainName });
    new CfnOutput(this, 'SiteBucketName', {
      description: 'Kept by cdk destroy; npm run destroy removes it (docs/deploy.md, "Teardown")',
      value: this.site.bucket.bucketName,
    });
    new CfnOutput(this, 'DistributionId', { value: this.cdn.distribution.distributionId });
    new CfnOutput(this, 'ApiUrl', { description: 'The API stage (the site calls it as /api/*)', value: this.api.url });
    new CfnOutput(this, 'DashboardUrl', {
      value: `https://console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards:name=${this.monitoring.dashboard.dashboardName}`,
    });
  }
}
