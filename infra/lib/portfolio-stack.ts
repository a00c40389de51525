import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { ARCHIVE_ENV } from '../../contract/archive';
import { postTitlesEnvironment } from '../../contract/event-catalog';
import { readPostTitles } from './post-titles';
import {
  cloudFrontPlanOf,
  isRoute53Domain,
  previewCloudFrontPlanOf,
  type PortfolioConfig,
  RECAPTCHA_TEST_SECRET,
  usesTestRecaptcha,
  webBuildEnv,
} from '../config/portfolio-config';
import { STACK_OUTPUT_KEYS } from '../shared/stack-output-keys';
import { ApiOriginDomain } from './api-origin-domain';
import { ArchiveTable } from './archive-table';
import { CircuitBreaker } from './circuit-breaker';
import { type ContactPermissionsProps, grantContactPermissions } from './contact-permissions';
import { SiteCertificate, SiteDnsRecords } from './domain';
import { HttpApi } from './http-api';
import { MailEvents } from './mail-events';
import { Monitoring } from './monitoring';
import { PreviewSite } from './preview-site';
import { OriginSecret } from './origin-secret';
import { Redelivery } from './redelivery';
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
  readonly archive: ArchiveTable;
  readonly mailEvents: MailEvents;
  readonly redelivery: Redelivery;
  readonly functions: RouteFunctions;
  readonly api: HttpApi;
  readonly web: WebBuild;
  readonly cdn: SiteDistribution;
  readonly deployment: SiteDeployment;
  readonly monitoring: Monitoring;
  /** Pull-request previews' bucket and distribution: the live stage only (never a branch's stack). */
  readonly previews?: PreviewSite;
  readonly breaker: CircuitBreaker;
  /** The origin secret CloudFront sends the API (each stage its own). */
  readonly originSecret: OriginSecret;

  constructor(scope: Construct, id: string, props: PortfolioStackProps) {
    super(scope, id, props);
    const { config } = props;
    const logRetention = config.logRetentionDays as logs.RetentionDays;

    this.site = new SiteBucket(this, 'Site');

    // The message archive and what SES says about each mail sent from it.
    this.archive = new ArchiveTable(this, 'Archive', { deleteOnDestroy: config.deleteArchiveOnDestroy });
    const archiveEnvironment = (configurationSetName: string): Record<string, string> => ({
      [ARCHIVE_ENV.table]: this.archive.table.tableName,
      [ARCHIVE_ENV.retentionDays]: String(config.messageRetentionDays),
      [ARCHIVE_ENV.configurationSet]: configurationSetName,
    });
    this.mailEvents = new MailEvents(this, 'MailEvents', {
      projectRoot: props.projectRoot,
      logRetention,
      archive: this.archive,
      environment: archiveEnvironment,
    });
    const configurationSetName = this.mailEvents.configurationSet.configurationSetName;
    const mailEnvironment = {
      OWNER_EMAIL: config.ownerEmail,
      SENDER_EMAIL: config.senderEmail,
      ...archiveEnvironment(configurationSetName),
    };
    const send = { ownerEmail: config.ownerEmail, senderEmail: config.senderEmail, configurationSetName };

    const recaptchaSecretParameter = this.recaptchaSecretParameter(config);

    // The value CloudFront adds to API requests and every API function demands: a random secret made
    // and rotated in the account, never derived from an id a deploy prints (infra/lib/origin-secret.ts).
    // Every stage has its own (named after its stack), so no stage's API is open at execute-api.
    this.originSecret = new OriginSecret(this, 'Origin', { projectRoot: props.projectRoot, logRetention });
    this.functions = this.routeFunctions(props, logRetention, mailEnvironment, { ...send, recaptchaSecretParameter });
    this.redelivery = new Redelivery(this, 'Redelivery', {
      projectRoot: props.projectRoot,
      logRetention,
      archive: this.archive,
      send,
      environment: mailEnvironment,
    });
    const { api, originHost: apiOriginHost } = this.httpApi(config, logRetention);
    this.api = api;
    // The CSP comes from source (web/boot/generate.ts), so a content change never touches the
    // distribution's configuration; the build only has to match it (checked in WebBuild).
    this.web = new WebBuild(this, 'Web', {
      projectRoot: props.projectRoot,
      buildEnv: webBuildEnv(config),
      prebuiltDir: props.prebuiltSiteDir,
    });

    const certificate = this.siteCertificate(config, props.certificate);
    const extraConnectSources = [config.contactEndpoint, config.eventsEndpoint]
      .filter((endpoint) => endpoint.startsWith('https://'))
      .map((endpoint) => new URL(endpoint).origin);
    this.cdn = new SiteDistribution(this, 'Cdn', {
      bucket: this.site.bucket,
      api: this.api.api,
      extraConnectSources: [...new Set(extraConnectSources)],
      domain: config.domain && certificate ? { domainName: config.domain.domainName, certificate } : undefined,
      // A preview creates no cache policy (an account holds 20, not adjustable: CloudFront Developer Guide,
      // "Quotas", https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/cloudfront-limits.html).
      // The managed CachingOptimized ("Use managed cache policies", id 658327ea-…) keys on nothing, compresses
      // (gzip, Brotli) and honours each object's Cache-Control from 1 s to a year: a preview's HTML may be a
      // second stale, where the live site's own policy (min TTL 0) revalidates at once.
      sharedCachePolicy: config.stage ? cloudfront.CachePolicy.CACHING_OPTIMIZED : undefined,
      apiViewerRequest: this.originSecret.viewerRequest,
      apiKeyValueStore: this.originSecret.store,
      apiOriginHost,
      plan: cloudFrontPlanOf(config),
    });
    this.deployment = new SiteDeployment(this, 'Deploy', {
      asset: this.web.asset,
      bucket: this.site.bucket,
      distribution: this.cdn.distribution,
      invalidationPaths: this.web.invalidationPaths,
      logRetention,
    });
    if (isRoute53Domain(config.domain)) new SiteDnsRecords(this, 'Dns', config.domain, this.cdn.distribution);

    this.monitoring = new Monitoring(this, 'Monitoring', {
      ownerEmail: config.ownerEmail,
      api: this.api.api,
      contactFunction: this.functions.functions.contact,
      eventsFunction: this.functions.functions.events,
      vitalsFunction: this.functions.functions.vitals,
      vitalsLogGroup: this.functions.logGroupOf.vitals,
      archiveFunctions: [this.redelivery.fn, this.mailEvents.fn],
      failedMailEvents: this.mailEvents.failedEvents,
      preview: config.stage !== '',
    });
    // Each route's day is capped: past its number it is turned down until 00:00 UTC, and the owner is told.
    this.breaker = new CircuitBreaker(this, 'Breaker', {
      projectRoot: props.projectRoot,
      logRetention,
      api: this.api,
      counters: this.archive.table,
      dailyRequests: config.circuitBreaker,
      owner: this.monitoring,
      preview: config.stage !== '',
    });

    if (!config.stage) this.previews = this.previewSite(config);
    this.addOutputs(config);
  }

  /** The live stack's pull-request previews: their bucket, distribution and plan, and the outputs the workflow reads. */
  private previewSite(config: PortfolioConfig): PreviewSite {
    const previews = new PreviewSite(this, 'Previews', {
      headers: { policy: this.cdn.headersPolicy, values: this.cdn.securityHeaderValues },
      cachePolicy: this.cdn.pagesCachePolicy,
      plan: previewCloudFrontPlanOf(config),
    });
    new CfnOutput(this, STACK_OUTPUT_KEYS.previewBucket, {
      description: 'Pull-request previews, under pr-N/<sha>/',
      value: previews.bucket.bucketName,
    });
    new CfnOutput(this, STACK_OUTPUT_KEYS.previewUrl, { value: `https://${previews.distribution.distributionDomainName}` });
    if (previews.subscription) {
      new CfnOutput(this, STACK_OUTPUT_KEYS.previewPlan, {
        description: "The previews' CloudFront plan subscription",
        value: previews.subscription.attrArn,
      });
    }
    return previews;
  }

  /**
   * The HTTP API, and the name CloudFront reaches it by when it is not execute-api: with a Route 53
   * domain, a name of the owner's, and the execute-api endpoint answers nothing; without one, CloudFront
   * needs that endpoint (docs/deploy.md, "The API's own address").
   */
  private httpApi(config: PortfolioConfig, logRetention: logs.RetentionDays): { api: HttpApi; originHost?: string } {
    const domain = isRoute53Domain(config.domain) && !config.stage ? config.domain : undefined;
    const api = new HttpApi(this, 'Api', {
      functions: this.functions.functions,
      logRetention,
      disableExecuteApiEndpoint: domain !== undefined,
    });
    if (!domain) return { api };
    return { api, originHost: new ApiOriginDomain(this, 'ApiOrigin', { domain, api: api.api, stage: api.stage }).domainName };
  }

  /** The API's functions with their environments and grants: all read the origin secret; the contact one mails and archives. */
  private routeFunctions(
    props: PortfolioStackProps,
    logRetention: logs.RetentionDays,
    mailEnvironment: Record<string, string>,
    contactProps: ContactPermissionsProps,
  ) {
    const origin: Record<string, string> = this.originSecret.environment;
    // The beacons' per-address counters share the archive's table, as the contact form's do.
    const beaconCounters = { [ARCHIVE_ENV.table]: this.archive.table.tableName };
    const functions = new RouteFunctions(this, 'Functions', {
      projectRoot: props.projectRoot,
      logRetention,
      options: {
        contact: {
          memorySize: 256,
          environment: {
            ...mailEnvironment,
            // Only the parameter's name: the secret itself is read at cold start, never stored here.
            RECAPTCHA_SECRET_PARAMETER: contactProps.recaptchaSecretParameter,
            ...origin,
            CAPTCHA_MONTHLY_BUDGET: String(props.config.captchaMonthlyBudget),
          },
        },
        events: {
          memorySize: 128,
          // The bundled function cannot read the posts (Markdown files): their titles come in at synth.
          environment: { ...postTitlesEnvironment(readPostTitles(props.projectRoot)), ...origin, ...beaconCounters },
        },
        vitals: { memorySize: 128, environment: { ...origin, ...beaconCounters } },
      },
    });
    for (const fn of Object.values(functions.functions)) this.originSecret.grantRead(fn);
    this.archive.grantBeaconCounters(functions.functions.events, 'BeaconCountersOnly');
    this.archive.grantBeaconCounters(functions.functions.vitals, 'BeaconCountersOnly');
    const contact = functions.functions.contact;
    grantContactPermissions(contact, contactProps);
    // Put a message, read it back (idempotency), update its status: never scan, query or delete.
    this.archive.grantItems(contact, ['PutItem', 'GetItem', 'UpdateItem'], 'ArchiveSingleMessagesNoScanNoDelete');
    return functions;
  }

  // Google's test key: Google's public test secret (reCAPTCHA FAQ) in a parameter of this stack, made and
  // deleted with it, so no owner's parameter is ever overwritten for a trial or a preview.
  private recaptchaSecretParameter(config: PortfolioConfig): string {
    if (!usesTestRecaptcha(config)) return config.recaptchaSecretParameter;
    return new ssm.StringParameter(this, 'RecaptchaTestSecret', {
      description: "Google's public reCAPTCHA v2 test secret (not a secret): this stack uses Google's test site key",
      stringValue: RECAPTCHA_TEST_SECRET,
    }).parameterName;
  }

  /** The custom domain's certificate: given (CertificateStack), the one npm run setup requested, or made here. */
  private siteCertificate(config: PortfolioConfig, given: acm.ICertificate | undefined): acm.ICertificate | undefined {
    // External DNS: the certificate npm run setup requested (validated at the owner's DNS host).
    if (config.domain?.certificateArn) return acm.Certificate.fromCertificateArn(this, 'Certificate', config.domain.certificateArn);
    if (isRoute53Domain(config.domain) && !given) return new SiteCertificate(this, 'Certificate', config.domain).certificate;
    return given;
  }

  /** What the owner's commands and the deploy log read: the site's address, its bucket, table and dashboard. */
  private addOutputs(config: PortfolioConfig): void {
    new CfnOutput(this, STACK_OUTPUT_KEYS.siteUrl, {
      description: 'The site',
      value: config.domain ? `https://${config.domain.domainName}` : `https://${this.cdn.distribution.distributionDomainName}`,
    });
    new CfnOutput(this, STACK_OUTPUT_KEYS.distributionDomain, { value: this.cdn.distribution.distributionDomainName });
    new CfnOutput(this, STACK_OUTPUT_KEYS.siteBucket, {
      description: 'Kept by cdk destroy; npm run destroy removes it (docs/deploy.md, "Teardown")',
      value: this.site.bucket.bucketName,
    });
    new CfnOutput(this, 'DistributionId', { value: this.cdn.distribution.distributionId });
    if (this.cdn.subscription) {
      new CfnOutput(this, STACK_OUTPUT_KEYS.sitePlan, {
        description: "The site's CloudFront plan subscription",
        value: this.cdn.subscription.attrArn,
      });
    }
    new CfnOutput(this, STACK_OUTPUT_KEYS.archiveTable, {
      description: `The message archive (npm run messages reads it); ${config.deleteArchiveOnDestroy ? 'deleted' : 'kept'} by cdk destroy`,
      value: this.archive.table.tableName,
    });
    new CfnOutput(this, STACK_OUTPUT_KEYS.pageViewsLogGroup, {
      description: 'Page views and Core Web Vitals, one log line each (npm run visitors queries it)',
      value: this.functions.logGroupOf.vitals.logGroupName,
    });
    new CfnOutput(this, 'DashboardUrl', {
      value: `https://console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards:name=${this.monitoring.dashboard.dashboardName}`,
    });
  }
}
