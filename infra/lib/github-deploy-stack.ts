/**
 * `npm run github-setup`: what GitHub Actions needs to deploy without AWS keys. GitHub's OpenID Connect
 * provider (one per account: imported when the account has it) and two roles a workflow assumes with its
 * OIDC token: production (this repository's main branch or its `production` environment) and preview (its
 * pull requests or its `preview` environment). Each may only assume the CDK bootstrap roles (which deploy)
 * and make the doctor's read calls; the preview role may also empty and delete preview stages' buckets,
 * which `npm run destroy` does after `cdk destroy`.
 */
import { CfnOutput, Stack, type StackProps, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { previewStage } from '../config/previews';

/** GitHub's token issuer and the audience aws-actions/configure-aws-credentials asks for. */
export const GITHUB_OIDC = {
  host: 'token.actions.githubusercontent.com',
  url: 'https://token.actions.githubusercontent.com',
  audience: 'sts.amazonaws.com',
} as const;

/** The GitHub environments the workflows name (a job with an environment gets it as its subject). */
export const GITHUB_ENVIRONMENTS = { production: 'production', preview: 'preview' } as const;

/**
 * The CDK bootstrap roles a deploy assumes, by the tag the bootstrap template puts on each
 * (`aws-cdk:bootstrap-role`: file-publishing, image-publishing, lookup, deploy, in the CLI's
 * lib/api/bootstrap/bootstrap-template.yaml), as cdk-pipelines-github's GitHubActionRole grants them.
 * No image publishing: nothing here is a container. The bootstrap roles trust the account itself.
 */
export const BOOTSTRAP_ROLE_TAGS = ['deploy', 'file-publishing', 'lookup'] as const;

/**
 * What `npm run doctor` reads (infra/scripts/doctor): none of these calls takes a narrower resource.
 * Derived from the doctor's code by github-deploy-stack.test.ts, so a new call cannot be missed here;
 * acm:DescribeCertificate is the external-DNS domain's certificate (Service Authorization Reference,
 * "Actions defined by AWS Certificate Manager": https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscertificatemanager.html).
 */
export const DOCTOR_READ_ACTIONS = [
  'acm:DescribeCertificate',
  'cloudformation:DescribeStacks',
  'ses:GetAccount',
  'ses:GetEmailIdentity',
  'ssm:DescribeParameters',
  'route53:GetHostedZone',
  'route53:ListHostedZonesByName',
  'route53domains:GetDomainDetail',
] as const;

export interface GitHubRepository {
  readonly owner: string;
  readonly name: string;
  /**
   * The immutable ids GitHub puts in the subject of repositories created (or renamed, transferred) on
   * or after 2026-07-15, and of older ones that opted in: `repo:OWNER@OWNER_ID/NAME@REPO_ID:…`. Source:
   * GitHub changelog, "Immutable subject claims for GitHub Actions OIDC tokens" (2026-04-23, updated
   * 2026-06-10 for the "@" delimiter): https://github.blog/changelog/2026-04-23-immutable-subject-claims-for-github-actions-oidc-tokens/
   * and GitHub Docs, "OpenID Connect", Immutable subject claims. Absent: the older name-only subject.
   */
  readonly ids?: { readonly owner: number; readonly repository: number };
}

/** The subject prefix GitHub's tokens carry for this repository. */
export function subjectPrefix(repository: GitHubRepository): string {
  const { owner, name, ids } = repository;
  return ids ? `repo:${owner}@${ids.owner}/${name}@${ids.repository}` : `repo:${owner}/${name}`;
}

/**
 * The exact subjects each role trusts (GitHub Docs, "OpenID Connect reference", example subject claims):
 * a job with an environment carries `environment:NAME`, else a push `ref:refs/heads/BRANCH` and a
 * pull_request event `pull_request`.
 */
export function trustedSubjects(repository: GitHubRepository): { production: string[]; preview: string[] } {
  const prefix = subjectPrefix(repository);
  return {
    production: [`${prefix}:ref:refs/heads/main`, `${prefix}:environment:${GITHUB_ENVIRONMENTS.production}`],
    preview: [`${prefix}:pull_request`, `${prefix}:environment:${GITHUB_ENVIRONMENTS.preview}`],
  };
}

export interface GitHubDeployStackProps extends StackProps {
  readonly repository: GitHubRepository;
  /** The account's GitHub OIDC provider when it has one (one per URL per account): imported, not made. */
  readonly existingProviderArn?: string;
  /** cdk.json's stackName: preview stacks are `<stackName>-pr-N`, their buckets `<stackname>-pr-N-…`. */
  readonly portfolioStackName: string;
}

export class GitHubDeployStack extends Stack {
  readonly providerArn: string;
  readonly productionRole: iam.Role;
  readonly previewRole: iam.Role;

  constructor(scope: Construct, id: string, props: GitHubDeployStackProps) {
    super(scope, id, props);
    // No thumbprint: IAM verifies GitHub's certificate against its own library of trusted root CAs
    // (IAM API Reference, UpdateOpenIDConnectProviderThumbprint, note naming GitHub:
    // https://docs.aws.amazon.com/IAM/latest/APIReference/API_UpdateOpenIDConnectProviderThumbprint.html),
    // and AWS::IAM::OIDCProvider takes no ThumbprintList then.
    this.providerArn = props.existingProviderArn
      ? iam.OidcProviderNative.fromOidcProviderArn(this, 'GitHubProvider', props.existingProviderArn).oidcProviderArn
      : new iam.OidcProviderNative(this, 'GitHubProvider', { url: GITHUB_OIDC.url, clientIds: [GITHUB_OIDC.audience] }).oidcProviderArn;

    const subjects = trustedSubjects(props.repository);
    const repository = `${props.repository.owner}/${props.repository.name}`;
    this.productionRole = this.githubRole('ProductionRole', subjects.production, `Deploys the live site from ${repository} (main, environment production)`);
    this.previewRole = this.githubRole('PreviewRole', subjects.preview, `Deploys and removes pull-request previews of ${repository}`);

    // What `npm run destroy -- --stage pr-N` does after cdk destroy: empty and delete the stage's bucket,
    // whose name CloudFormation derives from the stack's ("MyStack-MyBucket-abcdefghijk1", lower case for S3:
    // CloudFormation Template Reference, "CloudFormation resource custom naming",
    // https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-name.html).
    const previewBuckets = `arn:${this.partition}:s3:::${previewBucketPrefix(props.portfolioStackName)}*`;
    this.previewRole.addToPolicy(
      new iam.PolicyStatement({
        sid: 'DestroyPreviewBucketsOnly',
        actions: ['s3:ListBucket', 's3:ListBucketVersions', 's3:DeleteBucket', 's3:DeleteObject', 's3:DeleteObjectVersion'],
        resources: [previewBuckets, `${previewBuckets}/*`],
      }),
    );

    // cdk-nag names a resource as synthesized: a pseudo parameter as <AWS::Name>, a known value as itself.
    const shown = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
    const partition = shown(this.partition, 'Partition');
    const findings: Record<string, string> = {
      [`AwsSolutions-IAM5[Resource::arn:${partition}:iam::${shown(this.account, 'AccountId')}:role/*]`]:
        'Only the CDK bootstrap roles, selected by their aws-cdk:bootstrap-role tag (their names carry a qualifier and a region).',
      'AwsSolutions-IAM5[Resource::*]':
        'The doctor\'s read calls (SES account and identity, stacks, parameters, hosted zones, domains) take no narrower resource.',
    };
    for (const role of [this.productionRole, this.previewRole]) {
      for (const [id, reason] of Object.entries(findings)) Validations.of(role).acknowledge({ id, reason });
    }
    const bucketReason = 'Preview buckets are named by CloudFormation after their stack "<stack>-pr-N", so only that prefix selects them.';
    const prefix = previewBucketPrefix(props.portfolioStackName);
    for (const resource of [`${prefix}*`, `${prefix}*/*`]) {
      Validations.of(this.previewRole).acknowledge({ id: `AwsSolutions-IAM5[Resource::arn:${partition}:s3:::${resource}]`, reason: bucketReason });
    }

    new CfnOutput(this, 'ProductionRoleArn', { value: this.productionRole.roleArn });
    new CfnOutput(this, 'PreviewRoleArn', { value: this.previewRole.roleArn });
    new CfnOutput(this, 'OidcProviderArn', { value: this.providerArn });
    // The setup reads this next time: a provider this stack made stays in it (importing it would delete it).
    new CfnOutput(this, 'OidcProviderOwned', { value: props.existingProviderArn ? 'no' : 'yes' });
  }

  private githubRole(id: string, subjects: string[], description: string): iam.Role {
    const role = new iam.Role(this, id, {
      description,
      // One StringEquals on both claims: the audience, and the exact subjects (no wildcard, no set operator).
      assumedBy: new iam.WebIdentityPrincipal(this.providerArn, {
        StringEquals: {
          [`${GITHUB_OIDC.host}:aud`]: GITHUB_OIDC.audience,
          [`${GITHUB_OIDC.host}:sub`]: subjects,
        },
      }),
    });
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'AssumeCdkBootstrapRolesOnly',
        actions: ['sts:AssumeRole'],
        resources: [`arn:${this.partition}:iam::${this.account}:role/*`],
        conditions: { StringEquals: { 'iam:ResourceTag/aws-cdk:bootstrap-role': [...BOOTSTRAP_ROLE_TAGS] } },
      }),
    );
    role.addToPolicy(new iam.PolicyStatement({ sid: 'DoctorReadOnly', actions: [...DOCTOR_READ_ACTIONS], resources: ['*'] }));
    return role;
  }
}

/** The start of every preview stage's bucket name: "<stackname>-pr-" (S3 names are lower case). */
export function previewBucketPrefix(portfolioStackName: string): string {
  return `${portfolioStackName.toLowerCase()}-${previewStage(1).replace(/\d+$/, '')}`;
}

/** The setup stack's name: "<stackName>-GitHub". */
export const githubSetupStackName = (portfolioStackName: string): string => `${portfolioStackName}-GitHub`;

const GITHUB_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,99})$/;

/** OWNER/NAME checked (GitHub's characters; no wildcard can slip into a subject). */
export function parseRepository(text: string): { owner: string; name: string } {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(text.trim());
  if (!match || !GITHUB_NAME.test(match[1]!) || !GITHUB_NAME.test(match[2]!)) {
    throw new Error(`"${text}" is not a GitHub repository OWNER/NAME (letters, digits, ".", "-", "_")`);
  }
  return { owner: match[1]!, name: match[2]! };
}

/** The repository from the setup's context (github:repository, github:ownerId, github:repositoryId). */
export function repositoryFromContext(get: (key: string) => string | undefined): GitHubRepository {
  const text = get('github:repository');
  if (!text) throw new Error('github:repository is missing: run `npm run github-setup`, which passes it.');
  const id = (key: string) => {
    const value = get(key);
    if (value === undefined || value === '') return undefined;
    if (!/^[1-9][0-9]*$/.test(String(value))) throw new Error(`${key} is "${value}": GitHub's numeric id`);
    return Number(value);
  };
  const owner = id('github:ownerId');
  const repository = id('github:repositoryId');
  if ((owner === undefined) !== (repository === undefined)) {
    throw new Error('github:ownerId and github:repositoryId go together (immutable subjects name both)');
  }
  return { ...parseRepository(text), ...(owner !== undefined && repository !== undefined ? { ids: { owner, repository } } : {}) };
}
