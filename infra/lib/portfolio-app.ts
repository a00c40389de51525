import { type App, DefaultStackSynthesizer, Tags, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { CLOUDFRONT_CERTIFICATE_REGION, isRoute53Domain, type PortfolioConfig, REPO_ROOT } from '../config/portfolio-config';
import { CertificateStack } from './domain';
import { LIVE_STAGE_TAG_VALUE, PREVIEW_ASSET_PREFIX, previewNames, STAGE_TAG } from './github-deploy-stack';
import { PortfolioStack } from './portfolio-stack';

export interface PortfolioAppOptions {
  /** The AWS account, when known (the CDK CLI passes CDK_DEFAULT_ACCOUNT from the credentials). */
  readonly account?: string;
  /** See PortfolioStackProps.prebuiltSiteDir. */
  readonly prebuiltSiteDir?: string;
  readonly projectRoot?: string;
}

export interface PortfolioStacks {
  readonly main: PortfolioStack;
  readonly certificate?: CertificateStack;
}

/**
 * Adds the portfolio's stacks to an app and turns on cdk-nag's AWS Solutions checks (an
 * unacknowledged finding fails synth). The certificate must live in us-east-1: with a custom domain
 * and the stack elsewhere, a small certificate stack there is referenced across regions.
 */
export function addPortfolioStacks(app: App, config: PortfolioConfig, options: PortfolioAppOptions = {}): PortfolioStacks {
  const env = { account: options.account, region: config.region };
  let certificate: CertificateStack | undefined;
  if (isRoute53Domain(config.domain) && config.region !== CLOUDFRONT_CERTIFICATE_REGION) {
    if (!options.account) {
      throw new Error(
        `portfolio.region is ${config.region} and a domain is configured, so the certificate lives in a us-east-1 ` +
          'stack referenced across regions, which needs the account: run with AWS credentials (the CDK CLI sets ' +
          'CDK_DEFAULT_ACCOUNT) or set portfolio.region to "us-east-1".',
      );
    }
    certificate = new CertificateStack(app, `${config.stackName}-Certificate`, config.domain, {
      env: { account: options.account, region: CLOUDFRONT_CERTIFICATE_REGION },
      description: `TLS certificate for ${config.domain.domainName} (CloudFront needs it in us-east-1)`,
    });
  }
  const main = new PortfolioStack(app, config.stackName, {
    env,
    config,
    projectRoot: options.projectRoot ?? REPO_ROOT,
    prebuiltSiteDir: options.prebuiltSiteDir,
    certificate: certificate?.certificate,
    crossRegionReferences: certificate !== undefined,
    description: 'Portfolio site: S3 + CloudFront, contact/events API on Lambda, message archive, alarms and dashboard',
    // A pull request's preview is deployed by the preview role itself through CloudFormation with the
    // preview execution role (npm run github-setup), its files under their own prefix of the staging
    // bucket: it reaches none of the bootstrap roles the live site deploys with.
    ...(config.stage
      ? {
          synthesizer: previewSynthesizer(stackNameOf(config)),
        }
      : {}),
  });
  if (config.stage) {
    // Every role the preview creates carries the fence as its boundary (infra/lib/github-deploy-stack.ts, previewFence).
    const boundary = iam.ManagedPolicy.fromManagedPolicyName(main, 'PreviewBoundary', previewNames(stackNameOf(config)).boundaryPolicy);
    iam.PermissionsBoundary.of(main).apply(boundary);
  }
  // Every stage's resources say which stage they are: the live site's are out of a preview's reach.
  Tags.of(main).add(STAGE_TAG, config.stage || LIVE_STAGE_TAG_VALUE);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { main, certificate };
}

/** cdk.json's stackName, which a preview's "<stackName>-<stage>" carries. */
function stackNameOf(config: PortfolioConfig): string {
  return config.stage ? config.stackName.slice(0, -(config.stage.length + 1)) : config.stackName;
}

/** A preview's deploy: the GitHub stack's preview deploy and execution roles, its files under their own prefix; no lookups. */
function previewSynthesizer(portfolioStackName: string): DefaultStackSynthesizer {
  const names = previewNames(portfolioStackName);
  const role = (name: string) => `arn:\${AWS::Partition}:iam::\${AWS::AccountId}:role/${name}`;
  return new DefaultStackSynthesizer({
    deployRoleArn: role(names.deployRole),
    fileAssetPublishingRoleArn: role(names.deployRole),
    lookupRoleArn: role(names.deployRole),
    cloudFormationExecutionRole: role(names.executionRole),
    bucketPrefix: PREVIEW_ASSET_PREFIX,
  });
}
