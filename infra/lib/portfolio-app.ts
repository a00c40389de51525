import { type App, CfnResource, type Stack, Tags, Validations } from 'aws-cdk-lib';
import { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import {
  CLOUDFRONT_CERTIFICATE_REGION,
  isRoute53Domain,
  liveStackName,
  planRegionProblem,
  type PortfolioConfig,
  portfolioStackNames,
  REPO_ROOT,
} from '../config/portfolio-config';
import { boundaryPolicyName } from './deploy-fence';
import { CertificateStack } from './domain';
import { PortfolioStack } from './portfolio-stack';

/** The tag every stage puts on its resources (`live` for the live site), so the console tells them apart. */
export const STAGE_TAG = 'portfolio:stage';
export const LIVE_STAGE_TAG_VALUE = 'live';

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
  const planProblem = planRegionProblem(config);
  if (planProblem) throw new Error(planProblem);
  let certificate: CertificateStack | undefined;
  const names = portfolioStackNames(config);
  if (names.certificate !== undefined && isRoute53Domain(config.domain)) {
    if (!options.account) {
      throw new Error(
        `portfolio.region is ${config.region} and a domain is configured, so the certificate lives in a us-east-1 ` +
          'stack referenced across regions, which needs the account: run with AWS credentials (the CDK CLI sets ' +
          'CDK_DEFAULT_ACCOUNT) or set portfolio.region to "us-east-1".',
      );
    }
    certificate = new CertificateStack(app, names.certificate, config.domain, {
      env: { account: options.account, region: CLOUDFRONT_CERTIFICATE_REGION },
      description: `TLS certificate for ${config.domain.domainName} (CloudFront needs it in us-east-1)`,
    });
  }
  const main = new PortfolioStack(app, names.main, {
    env,
    config,
    projectRoot: options.projectRoot ?? REPO_ROOT,
    prebuiltSiteDir: options.prebuiltSiteDir,
    certificate: certificate?.certificate,
    crossRegionReferences: certificate !== undefined,
    description: 'Portfolio site: S3 + CloudFront, contact/events API on Lambda, message archive, alarms and dashboard',
  });
  // Every stage's resources say which stage they are.
  Tags.of(main).add(STAGE_TAG, config.stage || LIVE_STAGE_TAG_VALUE);
  // Every role the stacks make carries the boundary setup made (the execution role may create no other).
  for (const stack of [main, certificate]) if (stack) boundEveryRole(stack, boundaryPolicyName(liveStackName(config)));
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { main, certificate };
}

/**
 * Puts the boundary on every role of the stack. Not an aspect (PermissionsBoundary.of): aspects run
 * before the app is prepared, and preparing it adds the cross-region references' provider roles, which
 * an aspect never sees. A validation runs after that, before the templates are written, so it reaches
 * every role the stack will hold; it changes nothing else and reports nothing.
 */
function boundEveryRole(stack: Stack, boundaryName: string): void {
  const arn = ManagedPolicy.fromManagedPolicyName(stack, 'FenceBoundary', boundaryName).managedPolicyArn;
  stack.node.addValidation({
    validate: () => {
      for (const node of stack.node.findAll()) {
        if (CfnResource.isCfnResource(node) && node.cfnResourceType === 'AWS::IAM::Role')
          node.addPropertyOverride('PermissionsBoundary', arn);
      }
      return [];
    },
  });
}
