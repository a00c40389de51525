/**
 * `npm run github-setup`: what GitHub Actions needs to deploy without AWS keys, and the fence that keeps
 * a pull request's workflow away from the live site. GitHub's OpenID Connect provider (one per account:
 * imported when the account has it) and two roles a workflow assumes with its OIDC token:
 *  - production: only this repository's `main` branch (its ref subject; no environment, which GitHub
 *    creates on first use and does not protect on every plan). It may assume the CDK bootstrap deploy
 *    and file-publishing roles (never the lookup role, whose ReadOnlyAccess reads every table), which
 *    pass CloudFormation the bootstrap execution role, scoped by `executionPolicyDocument` below.
 *  - preview: this repository's pull requests (and its `preview` environment). It reaches no bootstrap
 *    role: it assumes the preview deploy role this stack holds, which changes only `<stackName>-pr-N`
 *    stacks, through CloudFormation with the preview execution role, whose policy and the permissions
 *    boundary of every role a preview creates deny the live stack's resources (`previewFence`).
 * This stack is deployed with the owner's own credentials (CliCredentialsStackSynthesizer), never
 * through the bootstrap execution role, which may not touch it.
 */
import { CfnOutput, CliCredentialsStackSynthesizer, Stack, type StackProps, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { previewStage } from '../config/previews';
import { GITHUB_STACK_OUTPUT_KEYS } from '../shared/stack-output-keys';

/** GitHub's token issuer and the audience aws-actions/configure-aws-credentials asks for. */
export const GITHUB_OIDC = {
  host: 'token.actions.githubusercontent.com',
  url: 'https://token.actions.githubusercontent.com',
  audience: 'sts.amazonaws.com',
} as const;

/** The GitHub environment the preview workflows name (a job with an environment gets it as its subject). */
export const GITHUB_ENVIRONMENTS = { preview: 'preview' } as const;

/**
 * The CDK bootstrap's names (the CLI's lib/api/bootstrap/bootstrap-template.yaml, v33: RoleName and
 * BucketName of each resource with the default qualifier, which setup uses).
 */
export const CDK_QUALIFIER = 'hnb659fds';
export function bootstrapNames(account: string, region: string) {
  const at = `${account}-${region}`;
  return {
    deployRole: `cdk-${CDK_QUALIFIER}-deploy-role-${at}`,
    filePublishingRole: `cdk-${CDK_QUALIFIER}-file-publishing-role-${at}`,
    imagePublishingRole: `cdk-${CDK_QUALIFIER}-image-publishing-role-${at}`,
    lookupRole: `cdk-${CDK_QUALIFIER}-lookup-role-${at}`,
    executionRole: `cdk-${CDK_QUALIFIER}-cfn-exec-role-${at}`,
    stagingBucket: `cdk-${CDK_QUALIFIER}-assets-${at}`,
  };
}

/** The bootstrap roles the production role may assume: deploy and publish files, no lookups, no images. */
export const BOOTSTRAP_ROLES_ASSUMED = ['deployRole', 'filePublishingRole'] as const;

/** Preview stacks' files go under this prefix of the staging bucket, the only part the preview role writes. */
export const PREVIEW_ASSET_PREFIX = 'previews/';

/**
 * The tag every stage puts on its resources (`pr-N` for a preview, `live` for the live site): CloudFront
 * and API Gateway fence on it. A resource without it (an API's sub-resource, if it does not carry its
 * API's tags) is left to the names and the boundary; one tagged anything but `pr-*` is out of a preview's reach.
 */
export const STAGE_TAG = 'portfolio:stage';
export const LIVE_STAGE_TAG_VALUE = 'live';

/** The customer managed policy setup passes `cdk bootstrap --cloudformation-execution-policies`. */
export const executionPolicyName = (portfolioStackName: string): string => `${portfolioStackName}-cdk-execution`;

/**
 * What `npm run doctor` reads (infra/scripts/doctor): none of these calls takes a narrower resource.
 * Derived from the doctor's code by github-deploy-stack.test.ts, so a new call cannot be missed here;
 * acm:DescribeCertificate is the external-DNS domain's certificate (Service Authorization Reference,
 * "Actions defined by AWS Certificate Manager": https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscertificatemanager.html);
 * cloudformation:ListStackResources and cloudwatch:DescribeAlarms find and read the stack's reCAPTCHA alarm.
 */
export const DOCTOR_READ_ACTIONS = [
  'acm:DescribeCertificate',
  'cloudformation:DescribeStacks',
  'cloudformation:ListStackResources',
  'cloudwatch:DescribeAlarms',
  'ses:GetAccount',
  'ses:GetEmailIdentity',
  'ssm:DescribeParameters',
  'route53:GetHostedZone',
  'route53:ListHostedZonesByName',
  'route53domains:GetDomainDetail',
] as const;

/**
 * What the CDK CLI calls on a preview stack with the preview role's own credentials (deploy, destroy,
 * outputs): change sets, the stack's events and template, deletion. Service Authorization Reference,
 * "Actions defined by AWS CloudFormation": https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscloudformation.html
 */
export const PREVIEW_STACK_ACTIONS = [
  'cloudformation:CreateChangeSet',
  'cloudformation:DeleteChangeSet',
  'cloudformation:DescribeChangeSet',
  'cloudformation:ExecuteChangeSet',
  'cloudformation:DescribeStackEvents',
  'cloudformation:DescribeStackResources',
  'cloudformation:ListStackResources',
  'cloudformation:GetTemplate',
  'cloudformation:GetTemplateSummary',
  'cloudformation:DeleteStack',
] as const;

/** An IAM policy statement as JSON (what IAM stores; the simulator and setup read the same objects). */
export interface PolicyStatementJson {
  Sid: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** Where a fence stands: the account, its partition and region, the live stack's name and its secret. */
export interface FenceScope {
  readonly partition: string;
  readonly account: string;
  /** The region the stacks live in (previews deploy there only, their files staged in its bootstrap bucket). */
  readonly region: string;
  /** cdk.json's stackName: preview stacks are `<stackName>-pr-N`. */
  readonly portfolioStackName: string;
  /** The live site's reCAPTCHA secret parameter (cdk.json recaptchaSecretParameter), "" when it has none. */
  readonly liveSecretParameter: string;
  /** cdk.json's ownerEmail: the one address a preview may mail. */
  readonly ownerEmail?: string;
}

/** The names preview stacks and the GitHub stack give things (CloudFormation names a resource "<stack>-<logical id>-<suffix>"). */
export function previewNames(portfolioStackName: string) {
  return {
    /** Every preview stack and what CloudFormation names after it: "<stackName>-pr-*". Logical ids have no "-", so no live name matches. */
    stacks: `${portfolioStackName}-${previewStage(1).replace(/\d+$/, '')}*`,
    buckets: `${previewBucketPrefix(portfolioStackName)}*`,
    executionRole: `${portfolioStackName}-GitHub-preview-exec`,
    deployRole: `${portfolioStackName}-GitHub-preview-deploy`,
    boundaryPolicy: `${portfolioStackName}-GitHub-preview-boundary`,
  };
}

/**
 * The services a preview stack's resources belong to (its template's resource types; the custom
 * resources are Lambda functions): what the preview execution role and the boundary allow, within the fence.
 */
export const PREVIEW_SERVICES = ['apigateway', 'cloudfront', 'cloudwatch', 'dynamodb', 'events', 'iam', 'lambda', 'logs', 's3', 'ses', 'sns', 'sqs', 'ssm'] as const;

/**
 * The fence around previews: Deny statements for everything that is not a preview's own, in the preview
 * execution role's policy and in the permissions boundary of every role a preview creates. Names come
 * from CloudFormation's naming ("<stack>-<logical id>-<suffix>", lower case for buckets: CloudFormation
 * Template Reference, "Name type": https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-name.html);
 * CloudFront distributions and API Gateway APIs have ids, not names, so they are fenced by the stage tag
 * a preview stack puts on them (aws:ResourceTag is a condition key of the distribution and of the API and
 * its routes, integrations and stages: Service Authorization Reference, CloudFront and Amazon API Gateway
 * Management V2, https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazoncloudfront.html,
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonapigatewaymanagementv2.html).
 */
/**
 * No deploy reads a secret's value: the origin secret (Secrets Manager) and the copy CloudFront's key
 * value store holds. Deploying needs neither (Secrets Manager generates the value; only the rotation
 * function writes the store). Actions: Service Authorization Reference, "Actions defined by AWS Secrets
 * Manager" (GetSecretValue, BatchGetSecretValue) and "Actions defined by Amazon CloudFront KeyValueStore"
 * (GetKey, ListKeys): https://docs.aws.amazon.com/service-authorization/latest/reference/list_awssecretsmanager.html,
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazoncloudfrontkeyvaluestore.html.
 */
export const NO_SECRET_VALUES: PolicyStatementJson = {
  Sid: 'NoSecretValues',
  Effect: 'Deny',
  Action: ['secretsmanager:GetSecretValue', 'secretsmanager:BatchGetSecretValue', 'cloudfront-keyvaluestore:GetKey', 'cloudfront-keyvaluestore:ListKeys'],
  Resource: '*',
};

export function previewFence(scope: FenceScope): PolicyStatementJson[] {
  const { partition: p, account, region } = scope;
  const names = previewNames(scope.portfolioStackName);
  const staging = `arn:${p}:s3:::${bootstrapNames(account, region).stagingBucket}`;
  const tag = `aws:ResourceTag/${STAGE_TAG}`;
  const notPreviewTag = { StringNotLike: { [tag]: `${previewStage(1).replace(/\d+$/, '')}*` }, Null: { [tag]: 'false' } };
  const statements: PolicyStatementJson[] = [
    {
      Sid: 'FenceBucketsToPreviews',
      Effect: 'Deny',
      Action: 's3:*',
      NotResource: [`arn:${p}:s3:::${names.buckets}`, `arn:${p}:s3:::${names.buckets}/*`, staging, `${staging}/${PREVIEW_ASSET_PREFIX}*`],
    },
    { Sid: 'FenceTablesToPreviews', Effect: 'Deny', Action: 'dynamodb:*', NotResource: `arn:${p}:dynamodb:*:${account}:table/${names.stacks}` },
    { Sid: 'FenceIamToPreviewRoles', Effect: 'Deny', Action: 'iam:*', NotResource: `arn:${p}:iam::${account}:role/${names.stacks}` },
    { Sid: 'NoRoleChains', Effect: 'Deny', Action: 'sts:*', Resource: '*' },
    NO_SECRET_VALUES,
    { Sid: 'FenceStacksToPreviews', Effect: 'Deny', Action: 'cloudformation:*', NotResource: `arn:${p}:cloudformation:*:${account}:stack/${names.stacks}/*` },
    {
      Sid: 'FenceFunctionsToPreviews',
      Effect: 'Deny',
      Action: ['lambda:*Function*', 'lambda:*Permission', 'lambda:*Alias', 'lambda:*Policy', 'lambda:PublishVersion', 'lambda:TagResource', 'lambda:UntagResource'],
      NotResource: [`arn:${p}:lambda:*:${account}:function:${names.stacks}`],
    },
    { Sid: 'FenceQueuesToPreviews', Effect: 'Deny', Action: 'sqs:*', NotResource: `arn:${p}:sqs:*:${account}:${names.stacks}` },
    { Sid: 'FenceTopicsToPreviews', Effect: 'Deny', Action: 'sns:*', NotResource: `arn:${p}:sns:*:${account}:${names.stacks}` },
    { Sid: 'FenceRulesToPreviews', Effect: 'Deny', Action: ['events:*Rule', 'events:*Targets'], NotResource: `arn:${p}:events:*:${account}:rule/${names.stacks}` },
    {
      Sid: 'FenceAlarmsToPreviews',
      Effect: 'Deny',
      Action: ['cloudwatch:PutMetricAlarm', 'cloudwatch:DeleteAlarms', 'cloudwatch:DisableAlarmActions', 'cloudwatch:SetAlarmState'],
      NotResource: `arn:${p}:cloudwatch:*:${account}:alarm:${names.stacks}`,
    },
    {
      // The live functions' logs (what they print about a message) and their retention.
      Sid: 'FenceLogsToPreviews',
      Effect: 'Deny',
      Action: ['logs:Delete*', 'logs:Put*', 'logs:Get*', 'logs:FilterLogEvents', 'logs:StartQuery', 'logs:StartLiveTail', 'logs:Associate*', 'logs:Disassociate*'],
      NotResource: [`arn:${p}:logs:*:${account}:log-group:${names.stacks}`, `arn:${p}:logs:*:${account}:log-group:/aws/lambda/${names.stacks}`],
    },
    {
      Sid: 'FenceDistributionsToPreviews',
      Effect: 'Deny',
      Action: ['cloudfront:UpdateDistribution', 'cloudfront:DeleteDistribution', 'cloudfront:TagResource', 'cloudfront:UntagResource'],
      Resource: `arn:${p}:cloudfront::${account}:distribution/*`,
      Condition: notPreviewTag,
    },
    {
      Sid: 'FenceApisToPreviews',
      Effect: 'Deny',
      Action: ['apigateway:DELETE', 'apigateway:PATCH', 'apigateway:POST', 'apigateway:PUT'],
      Resource: `arn:${p}:apigateway:*::/apis/*`,
      Condition: notPreviewTag,
    },
    // A preview's tag is set when its stack creates the API; no other API gets one afterwards.
    { Sid: 'NoRetaggingApis', Effect: 'Deny', Action: ['apigateway:PUT', 'apigateway:DELETE'], Resource: `arn:${p}:apigateway:*::/tags/*` },
    { Sid: 'NoBootstrapParameters', Effect: 'Deny', Action: 'ssm:*', Resource: `arn:${p}:ssm:*:${account}:parameter/cdk-bootstrap/*` },
    // The account's SES identities and sending status belong to the live site.
    { Sid: 'NoSesIdentitiesOrAccount', Effect: 'Deny', Action: ['ses:*EmailIdentity*', 'ses:PutAccount*', 'ses:*Suppress*'], Resource: '*' },
  ];
  if (scope.ownerEmail) {
    // A preview mails the owner only, never the world from the owner's verified sender (ses:Recipients:
    // Service Authorization Reference, "Amazon SES and Amazon Pinpoint Email",
    // https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsimpleemailservicev2.html).
    statements.push({
      Sid: 'MailOnlyTheOwner',
      Effect: 'Deny',
      Action: ['ses:SendEmail', 'ses:SendRawEmail'],
      Resource: '*',
      Condition: { 'ForAnyValue:StringNotEquals': { 'ses:Recipients': scope.ownerEmail } },
    });
  }
  if (scope.liveSecretParameter) {
    statements.push({ Sid: 'NotTheLiveSecret', Effect: 'Deny', Action: 'ssm:*', Resource: parameterArn(p, account, scope.liveSecretParameter) });
  }
  return statements;
}

/** arn:…:parameter/name for "/name" and "name" alike, in any region (the ARN never has a double slash). */
function parameterArn(partition: string, account: string, name: string): string {
  return `arn:${partition}:ssm:*:${account}:parameter/${name.replace(/^\//, '')}`;
}

/** The preview execution role's policy: a preview's services, inside the fence; roles only with the boundary. */
export function previewExecutionPolicy(scope: FenceScope): PolicyStatementJson[] {
  const boundary = `arn:${scope.partition}:iam::${scope.account}:policy/${previewNames(scope.portfolioStackName).boundaryPolicy}`;
  return [
    { Sid: 'PreviewServices', Effect: 'Allow', Action: PREVIEW_SERVICES.map((s) => `${s}:*`), Resource: '*' },
    ...previewFence(scope),
    {
      // A role a preview creates carries the boundary, which nothing it holds can lift (IAM User Guide,
      // "Permissions boundaries for IAM entities": https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_boundaries.html).
      Sid: 'RolesOnlyWithTheBoundary',
      Effect: 'Deny',
      Action: ['iam:CreateRole', 'iam:PutRolePermissionsBoundary', 'iam:PutRolePolicy', 'iam:AttachRolePolicy', 'iam:DetachRolePolicy', 'iam:DeleteRolePolicy'],
      Resource: '*',
      Condition: { StringNotEquals: { 'iam:PermissionsBoundary': boundary } },
    },
    { Sid: 'BoundaryStays', Effect: 'Deny', Action: 'iam:DeleteRolePermissionsBoundary', Resource: '*' },
  ];
}

/** The boundary of every role a preview creates: a preview's services inside the fence, and no IAM at all. */
export function previewBoundaryPolicy(scope: FenceScope): PolicyStatementJson[] {
  return [
    { Sid: 'PreviewServices', Effect: 'Allow', Action: PREVIEW_SERVICES.filter((s) => s !== 'iam').map((s) => `${s}:*`), Resource: '*' },
    ...previewFence(scope),
    { Sid: 'NoIam', Effect: 'Deny', Action: 'iam:*', Resource: '*' },
  ];
}

/**
 * The bootstrap execution role's policy, in place of AdministratorAccess (`cdk bootstrap
 * --cloudformation-execution-policies`: AWS CDK Developer Guide, "cdk bootstrap",
 * https://docs.aws.amazon.com/cdk/v2/guide/ref-cli-cmd-bootstrap.html). CloudFormation creates
 * whatever main's stacks hold, so everything is allowed but: reading any table's items (the archive),
 * the live secret, assuming roles (the lookup role's ReadOnlyAccess reads every table), changing the
 * bootstrap's roles, this policy, the GitHub stack's roles, boundary and OIDC provider (which would let
 * another branch in), and creating users or keys.
 */
export function executionPolicyDocument(scope: FenceScope): { Version: '2012-10-17'; Statement: PolicyStatementJson[] } {
  const { partition: p, account } = scope;
  const statements: PolicyStatementJson[] = [
    { Sid: 'WhatMainsStacksHold', Effect: 'Allow', Action: '*', Resource: '*' },
    {
      // Data-plane reads (Service Authorization Reference, "Actions defined by Amazon DynamoDB":
      // https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html).
      Sid: 'NoTableItems',
      Effect: 'Deny',
      Action: [
        'dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:PartiQLSelect',
        'dynamodb:ExportTableToPointInTime', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator',
        'dynamodb:RestoreTableFromBackup', 'dynamodb:RestoreTableToPointInTime',
      ],
      Resource: '*',
    },
    { Sid: 'NoRoleChains', Effect: 'Deny', Action: 'sts:*', Resource: '*' },
    NO_SECRET_VALUES,
    {
      Sid: 'NoUsersKeysOrProviders',
      Effect: 'Deny',
      Action: ['iam:*User*', 'iam:*AccessKey*', 'iam:*LoginProfile', 'iam:*Group*', 'iam:*OpenIDConnectProvider*', 'iam:*SAMLProvider*'],
      Resource: '*',
    },
    {
      Sid: 'NotTheDeployMachinery',
      Effect: 'Deny',
      Action: 'iam:*',
      Resource: [
        `arn:${p}:iam::${account}:role/cdk-*`,
        `arn:${p}:iam::${account}:policy/${executionPolicyName(scope.portfolioStackName)}`,
        `arn:${p}:iam::${account}:role/${scope.portfolioStackName}-GitHub-*`,
        `arn:${p}:iam::${account}:policy/${scope.portfolioStackName}-GitHub-*`,
      ],
    },
  ];
  if (scope.liveSecretParameter) {
    statements.push({ Sid: 'NotTheLiveSecret', Effect: 'Deny', Action: 'ssm:*', Resource: parameterArn(p, account, scope.liveSecretParameter) });
  }
  return { Version: '2012-10-17', Statement: statements };
}

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
 * a job with an environment carries `environment:NAME`, else a push or a manual run `ref:refs/heads/BRANCH`
 * and a pull_request event `pull_request`. Production trusts main's ref only: any workflow may name any
 * environment, GitHub creates it on first use, and branch rules on environments are not available to
 * private repositories on GitHub Free (GitHub Docs, "Managing environments for deployment":
 * https://docs.github.com/en/actions/how-tos/deploy/configure-and-manage-deployments/manage-environments),
 * so an environment subject would let any branch in.
 */
export function trustedSubjects(repository: GitHubRepository): { production: string[]; preview: string[] } {
  const prefix = subjectPrefix(repository);
  return {
    production: [`${prefix}:ref:refs/heads/main`],
    preview: [`${prefix}:pull_request`, `${prefix}:environment:${GITHUB_ENVIRONMENTS.preview}`],
  };
}

export interface GitHubDeployStackProps extends StackProps {
  readonly repository: GitHubRepository;
  /** The account's GitHub OIDC provider when it has one (one per URL per account): imported, not made. */
  readonly existingProviderArn?: string;
  /** cdk.json's stackName: preview stacks are `<stackName>-pr-N`, their buckets `<stackname>-pr-N-…`. */
  readonly portfolioStackName: string;
  /** cdk.json's recaptchaSecretParameter: the live secret no preview may touch ("" when none). */
  readonly liveSecretParameter: string;
  /** cdk.json's ownerEmail: the one address a preview may mail. */
  readonly ownerEmail?: string;
}

export class GitHubDeployStack extends Stack {
  readonly providerArn: string;
  readonly productionRole: iam.Role;
  readonly previewRole: iam.Role;
  readonly previewExecutionRole: iam.Role;
  readonly previewDeployRole: iam.Role;
  readonly previewBoundary: iam.ManagedPolicy;

  constructor(scope: Construct, id: string, props: GitHubDeployStackProps) {
    // The owner's own credentials deploy this stack: the bootstrap execution role may not change it.
    super(scope, id, { synthesizer: new CliCredentialsStackSynthesizer(), ...props });
    // No thumbprint: IAM verifies GitHub's certificate against its own library of trusted root CAs
    // (IAM API Reference, UpdateOpenIDConnectProviderThumbprint, note naming GitHub:
    // https://docs.aws.amazon.com/IAM/latest/APIReference/API_UpdateOpenIDConnectProviderThumbprint.html),
    // and AWS::IAM::OIDCProvider takes no ThumbprintList then.
    this.providerArn = props.existingProviderArn
      ? iam.OidcProviderNative.fromOidcProviderArn(this, 'GitHubProvider', props.existingProviderArn).oidcProviderArn
      : new iam.OidcProviderNative(this, 'GitHubProvider', { url: GITHUB_OIDC.url, clientIds: [GITHUB_OIDC.audience] }).oidcProviderArn;

    const subjects = trustedSubjects(props.repository);
    const repository = `${props.repository.owner}/${props.repository.name}`;
    const fence: FenceScope = {
      partition: this.partition,
      account: this.account,
      region: this.region,
      portfolioStackName: props.portfolioStackName,
      liveSecretParameter: props.liveSecretParameter,
      ownerEmail: props.ownerEmail,
    };
    const names = previewNames(props.portfolioStackName);
    const document = (statements: PolicyStatementJson[]) => iam.PolicyDocument.fromJson({ Version: '2012-10-17', Statement: statements });

    this.previewBoundary = new iam.ManagedPolicy(this, 'PreviewBoundary', {
      managedPolicyName: names.boundaryPolicy,
      description: 'Permissions boundary of every role a pull-request preview creates: its own resources only',
      document: document(previewBoundaryPolicy(fence)),
    });
    this.previewExecutionRole = new iam.Role(this, 'PreviewExecutionRole', {
      roleName: names.executionRole,
      description: `CloudFormation's role for ${props.portfolioStackName}-pr-N stacks: their own resources only`,
      assumedBy: new iam.ServicePrincipal('cloudformation.amazonaws.com'),
      inlinePolicies: { PreviewStacksOnly: document(previewExecutionPolicy(fence)) },
    });

    this.productionRole = this.githubRole('ProductionRole', subjects.production, `Deploys the live site from ${repository} (main only)`);
    this.previewRole = this.githubRole('PreviewRole', subjects.preview, `Deploys and removes pull-request previews of ${repository}`);

    // Production: the bootstrap deploy and file-publishing roles by name, in any region (the certificate
    // stack lives in us-east-1), never the lookup role.
    const bootstrapRole = (key: (typeof BOOTSTRAP_ROLES_ASSUMED)[number]) =>
      `arn:${this.partition}:iam::${this.account}:role/${bootstrapNames(this.account, '*')[key]}`;
    this.productionRole.addToPolicy(
      new iam.PolicyStatement({ sid: 'AssumeCdkDeployRolesOnly', actions: ['sts:AssumeRole', 'sts:TagSession'], resources: BOOTSTRAP_ROLES_ASSUMED.map(bootstrapRole) }),
    );

    // Preview: the preview deploy role (what the bootstrap deploy role is to the live site): its stacks,
    // through CloudFormation with the preview execution role, its files under previews/ of the staging
    // bucket (a live deploy skips a file already there: previews never write where live files go).
    // The workflow's own role keeps what `npm run destroy -- --stage pr-N` does after cdk destroy.
    const previewStacks = `arn:${this.partition}:cloudformation:${this.region}:${this.account}:stack/${names.stacks}/*`;
    const staging = `arn:${this.partition}:s3:::${bootstrapNames(this.account, this.region).stagingBucket}`;
    const previewBuckets = `arn:${this.partition}:s3:::${names.buckets}`;
    this.previewDeployRole = new iam.Role(this, 'PreviewDeployRole', {
      roleName: names.deployRole,
      description: `Deploys ${props.portfolioStackName}-pr-N stacks for the preview role`,
      assumedBy: new iam.ArnPrincipal(this.previewRole.roleArn),
    });
    this.previewDeployRole.assumeRolePolicy?.addStatements(
      new iam.PolicyStatement({ actions: ['sts:TagSession'], principals: [new iam.ArnPrincipal(this.previewRole.roleArn)] }),
    );
    const deployStatements = [
      new iam.PolicyStatement({ sid: 'PreviewStacksOnly', actions: [...PREVIEW_STACK_ACTIONS], resources: [previewStacks] }),
      new iam.PolicyStatement({ sid: 'ReadStacks', actions: ['cloudformation:DescribeStacks'], resources: ['*'] }),
      new iam.PolicyStatement({
        sid: 'PassThePreviewExecutionRoleOnly',
        actions: ['iam:PassRole'],
        resources: [this.previewExecutionRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'cloudformation.amazonaws.com' } },
      }),
      new iam.PolicyStatement({ sid: 'PreviewFilesOnly', actions: ['s3:GetObject', 's3:PutObject'], resources: [`${staging}/${PREVIEW_ASSET_PREFIX}*`] }),
      new iam.PolicyStatement({ sid: 'StagingBucketFacts', actions: ['s3:GetBucketLocation', 's3:GetEncryptionConfiguration', 's3:ListBucket'], resources: [staging] }),
      new iam.PolicyStatement({
        // The CLI checks the bootstrap's version before a deploy.
        sid: 'BootstrapVersion',
        actions: ['ssm:GetParameter', 'ssm:GetParameters'],
        resources: [`arn:${this.partition}:ssm:${this.region}:${this.account}:parameter/cdk-bootstrap/${CDK_QUALIFIER}/version`],
      }),
    ];
    for (const statement of deployStatements) this.previewDeployRole.addToPolicy(statement);
    const statements = [
      new iam.PolicyStatement({ sid: 'AssumeThePreviewDeployRoleOnly', actions: ['sts:AssumeRole', 'sts:TagSession'], resources: [this.previewDeployRole.roleArn] }),
      new iam.PolicyStatement({
        // CloudFormation names the stage's bucket after its stack ("MyStack-MyBucket-abcdefghijk1", lower case).
        sid: 'DestroyPreviewBucketsOnly',
        actions: ['s3:ListBucket', 's3:ListBucketVersions', 's3:DeleteBucket', 's3:DeleteObject', 's3:DeleteObjectVersion'],
        resources: [previewBuckets, `${previewBuckets}/*`],
      }),
    ];
    for (const statement of statements) this.previewRole.addToPolicy(statement);

    // cdk-nag names a resource as synthesized: a pseudo parameter as <AWS::Name>, a known value as itself.
    const shown = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
    const partition = shown(this.partition, 'Partition');
    const account = shown(this.account, 'AccountId');
    const region = shown(this.region, 'Region');
    const acknowledge = (construct: Construct, reasons: Record<string, string>) => {
      for (const [findingId, reason] of Object.entries(reasons)) Validations.of(construct).acknowledge({ id: findingId, reason });
    };
    const doctor = { 'AwsSolutions-IAM5[Resource::*]': "The doctor's read calls (SES account and identity, stacks, parameters, hosted zones, domains) take no narrower resource." };
    acknowledge(this.productionRole, {
      ...doctor,
      ...Object.fromEntries(
        BOOTSTRAP_ROLES_ASSUMED.map((key) => [
          `AwsSolutions-IAM5[Resource::arn:${partition}:iam::${account}:role/${bootstrapNames(account, '*')[key]}]`,
          'The CDK bootstrap role of this name in any region the stacks live in (the certificate stack is in us-east-1).',
        ]),
      ),
    });
    const stagingShown = `arn:${partition}:s3:::${bootstrapNames(account, region).stagingBucket}`;
    acknowledge(this.previewRole, {
      ...doctor,
      [`AwsSolutions-IAM5[Resource::arn:${partition}:s3:::${names.buckets}]`]: 'Preview buckets are named by CloudFormation after their stack "<stack>-pr-N".',
      [`AwsSolutions-IAM5[Resource::arn:${partition}:s3:::${names.buckets}/*]`]: 'Preview buckets are named by CloudFormation after their stack "<stack>-pr-N".',
    });
    acknowledge(this.previewDeployRole, {
      'AwsSolutions-IAM5[Resource::*]': 'DescribeStacks takes no narrower resource when the CLI lists stacks.',
      [`AwsSolutions-IAM5[Resource::arn:${partition}:cloudformation:${region}:${account}:stack/${names.stacks}/*]`]: 'Preview stacks are named <stackName>-pr-N.',
      [`AwsSolutions-IAM5[Resource::${stagingShown}/${PREVIEW_ASSET_PREFIX}*]`]: "Preview stacks' files, under their own prefix of the staging bucket.",
    });
    const fenced = 'Allows a preview\'s services on any name; the fence\'s Deny statements leave only the previews\' own resources (tested by an IAM simulation).';
    const wildcards = ['AwsSolutions-IAM5[Resource::*]', ...PREVIEW_SERVICES.map((service) => `AwsSolutions-IAM5[Action::${service}:*]`)];
    for (const construct of [this.previewExecutionRole, this.previewBoundary]) {
      acknowledge(construct, Object.fromEntries(wildcards.map((finding) => [finding, fenced])));
    }

    new CfnOutput(this, GITHUB_STACK_OUTPUT_KEYS.productionRole, { value: this.productionRole.roleArn });
    new CfnOutput(this, GITHUB_STACK_OUTPUT_KEYS.previewRole, { value: this.previewRole.roleArn });
    new CfnOutput(this, GITHUB_STACK_OUTPUT_KEYS.providerArn, { value: this.providerArn });
    // The setup reads this next time: a provider this stack made stays in it (importing it would delete it).
    new CfnOutput(this, GITHUB_STACK_OUTPUT_KEYS.providerOwned, { value: props.existingProviderArn ? 'no' : 'yes' });
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
