/**
 * The deploy's fence as plain data: the CDK bootstrap's names, the execution policy and permissions
 * boundary setup gives CloudFormation, the doctor's read actions, the preview role's statements, and the
 * GitHub repository and subjects the roles trust. The GitHub setup stack (github-deploy-stack.ts) builds
 * on them; `npm run setup`, `npm run doctor` and the deploy read them without loading aws-cdk-lib, whose
 * load would double each command's start.
 */
import { PREVIEW_KEY_PREFIX } from '../../contract/preview-path';
/** GitHub's token issuer and the audience aws-actions/configure-aws-credentials asks for. */
export const GITHUB_OIDC = {
  host: 'token.actions.githubusercontent.com',
  url: 'https://token.actions.githubusercontent.com',
  audience: 'sts.amazonaws.com',
} as const;

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

/** The customer managed policy setup passes `cdk bootstrap --cloudformation-execution-policies`. */
export const executionPolicyName = (portfolioStackName: string): string => `${portfolioStackName}-cdk-execution`;

/**
 * The permissions boundary setup passes `cdk bootstrap --custom-permissions-boundary` (the bootstrap
 * template's InputPermissionsBoundary: CloudFormation's execution role carries it), and which every role
 * the app's stacks make carries too (boundEveryRole in portfolio-app.ts). Named after the live
 * stack: a preview stage's roles carry the same one.
 */
export const boundaryPolicyName = (portfolioStackName: string): string => `${portfolioStackName}-cdk-boundary`;

/**
 * What `npm run doctor` reads (infra/scripts/doctor): none of these calls takes a narrower resource.
 * Derived from the doctor's code by github-deploy-stack.test.ts, so a new call cannot be missed here;
 * acm:DescribeCertificate is the external-DNS domain's certificate (Service Authorization Reference,
 * "Actions defined by AWS Certificate Manager": https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscertificatemanager.html);
 * cloudformation:ListStackResources and cloudwatch:DescribeAlarms find and read the stack's reCAPTCHA alarm.
 */
export const DOCTOR_READ_ACTIONS = [
  'acm:DescribeCertificate',
  'apigateway:GET',
  'budgets:ViewBudget',
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
  /** The region the stacks live in. */
  readonly region: string;
  /** cdk.json's stackName. */
  readonly portfolioStackName: string;
  /** The live site's reCAPTCHA secret parameter (cdk.json recaptchaSecretParameter), "" when it has none. */
  readonly liveSecretParameter: string;
}

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
  Action: [
    'secretsmanager:GetSecretValue',
    'secretsmanager:BatchGetSecretValue',
    'cloudfront-keyvaluestore:GetKey',
    'cloudfront-keyvaluestore:ListKeys',
  ],
  Resource: '*',
};

/**
 * What neither CloudFormation's execution role nor any role a template makes may do, whatever the
 * template says: assume another role (the lookup role's ReadOnlyAccess reads every table), make users,
 * keys or identity providers, change the deploy machinery (the bootstrap's roles, the execution policy,
 * the boundary, the GitHub stack's roles, which would let another branch in), make or change a role
 * that does not carry the boundary, or take the boundary off
 * (iam:PermissionsBoundary on CreateRole, PutRolePermissionsBoundary, PutRolePolicy, AttachRolePolicy,
 * DeleteRolePolicy, DetachRolePolicy), change the boundary itself, attach AWS's administrator policies,
 * switch an alarm's actions off, change a budget or its actions (the owner's, from setup), approve a paid
 * CloudFront plan (the owner's call: it starts a charge), or act on a
 * resource another stack made. Service Authorization Reference, "Actions, resources, and condition keys"
 * for IAM, CloudWatch and AWS Budget Service:
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsidentityandaccessmanagementiam.html,
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazoncloudwatch.html,
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsbudgetservice.html.
 */
export function fenceGuards(scope: FenceScope): PolicyStatementJson[] {
  const { partition: p, account } = scope;
  const boundary = `arn:${p}:iam::${account}:policy/${boundaryPolicyName(scope.portfolioStackName)}`;
  const stack = scope.portfolioStackName;
  return [
    { Sid: 'NoRoleChains', Effect: 'Deny', Action: 'sts:*', Resource: '*' },
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
        `arn:${p}:iam::${account}:policy/${executionPolicyName(stack)}`,
        boundary,
        `arn:${p}:iam::${account}:role/${stack}-GitHub-*`,
        `arn:${p}:iam::${account}:policy/${stack}-GitHub-*`,
      ],
    },
    {
      Sid: 'RolesOnlyWithinTheBoundary',
      Effect: 'Deny',
      Action: [
        'iam:CreateRole',
        'iam:PutRolePermissionsBoundary',
        'iam:PutRolePolicy',
        'iam:AttachRolePolicy',
        'iam:DeleteRolePolicy',
        'iam:DetachRolePolicy',
      ],
      Resource: '*',
      Condition: { StringNotEquals: { 'iam:PermissionsBoundary': boundary } },
    },
    {
      Sid: 'BoundaryStays',
      Effect: 'Deny',
      Action: ['iam:DeleteRolePermissionsBoundary', 'iam:DeleteUserPermissionsBoundary'],
      Resource: '*',
    },
    {
      Sid: 'NoAdministratorPolicies',
      Effect: 'Deny',
      Action: ['iam:AttachRolePolicy', 'iam:AttachUserPolicy', 'iam:AttachGroupPolicy'],
      Resource: '*',
      Condition: {
        ArnLike: {
          'iam:PolicyARN': ['AdministratorAccess', 'PowerUserAccess', 'IAMFullAccess'].map((name) => `arn:${p}:iam::aws:policy/${name}`),
        },
      },
    },
    { Sid: 'AlarmsKeepTheirActions', Effect: 'Deny', Action: 'cloudwatch:DisableAlarmActions', Resource: '*' },
    {
      Sid: 'BudgetsAreTheOwners',
      Effect: 'Deny',
      Action: [
        'budgets:ModifyBudget',
        'budgets:CreateBudgetAction',
        'budgets:UpdateBudgetAction',
        'budgets:DeleteBudgetAction',
        'budgets:ExecuteBudgetAction',
      ],
      Resource: '*',
    },
    {
      // A paid CloudFront plan bills from its approval, which is the owner's own call: CloudFormation
      // creates a paid subscription awaiting it and never approves (AWS CloudFormation Template Reference,
      // AWS::PricingPlanManager::Subscription), and a CreateSubscription that would approve at once needs
      // this same action (Service Authorization Reference, "Actions, resources, and condition keys for AWS
      // PricingPlanManager Service": https://docs.aws.amazon.com/service-authorization/latest/reference/list_pricing-plan-manager.html).
      Sid: 'PaidPlansAreTheOwners',
      Effect: 'Deny',
      Action: 'pricingplanmanager:ApprovePaidSubscription',
      Resource: '*',
    },
    {
      // CloudFormation tags what a stack makes with aws:cloudformation:stack-name; CDKToolkit's staging
      // bucket holds the assets a deploy reads.
      Sid: 'OnlyThisProjectsResources',
      Effect: 'Deny',
      Action: '*',
      Resource: '*',
      Condition: {
        StringNotLike: { 'aws:ResourceTag/aws:cloudformation:stack-name': [stack, `${stack}-*`, 'CDKToolkit'] },
        Null: { 'aws:ResourceTag/aws:cloudformation:stack-name': 'false' },
      },
    },
  ];
}

/**
 * The boundary's document: everything, but what fenceGuards forbids. As the boundary of every role the
 * stacks make, it caps what a template can grant however it words a role's policies.
 */
export function boundaryPolicyDocument(scope: FenceScope): { Version: '2012-10-17'; Statement: PolicyStatementJson[] } {
  return { Version: '2012-10-17', Statement: [{ Sid: 'AtMostThis', Effect: 'Allow', Action: '*', Resource: '*' }, ...fenceGuards(scope)] };
}

/** arn:…:parameter/name for "/name" and "name" alike, in any region (the ARN never has a double slash). */
function parameterArn(partition: string, account: string, name: string): string {
  return `arn:${partition}:ssm:*:${account}:parameter/${name.replace(/^\//, '')}`;
}

/**
 * The bootstrap execution role's policy, in place of AdministratorAccess (`cdk bootstrap
 * --cloudformation-execution-policies`: AWS CDK Developer Guide, "cdk bootstrap",
 * https://docs.aws.amazon.com/cdk/v2/guide/ref-cli-cmd-bootstrap.html). CloudFormation creates
 * whatever main's stacks hold, so everything is allowed but: reading any table's items (the archive),
 * the live secret, the secrets' values, what fenceGuards forbids every role (role chains, users and
 * keys, the deploy machinery, roles without the boundary, alarms, budgets, other stacks' resources),
 * the origin secret's value, and passing roles other stacks made.
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
        'dynamodb:BatchGetItem',
        'dynamodb:GetItem',
        'dynamodb:Query',
        'dynamodb:Scan',
        'dynamodb:PartiQLSelect',
        'dynamodb:ExportTableToPointInTime',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:RestoreTableFromBackup',
        'dynamodb:RestoreTableToPointInTime',
      ],
      Resource: '*',
    },
    NO_SECRET_VALUES,
  ];
  if (scope.liveSecretParameter) {
    statements.push({
      Sid: 'NotTheLiveSecret',
      Effect: 'Deny',
      Action: 'ssm:*',
      Resource: parameterArn(p, account, scope.liveSecretParameter),
    });
  }
  const stack = scope.portfolioStackName;
  statements.push(
    ...fenceGuards(scope),
    {
      // The origin secret's value changes by its rotation function alone (whose role may); a template
      // creates it with a generated value and never writes one (AWS Secrets Manager actions, Service
      // Authorization Reference: https://docs.aws.amazon.com/service-authorization/latest/reference/list_awssecretsmanager.html).
      Sid: 'OriginSecretOnlyByItsRotation',
      Effect: 'Deny',
      Action: ['secretsmanager:PutSecretValue', 'secretsmanager:UpdateSecretVersionStage', 'secretsmanager:DeleteResourcePolicy'],
      Resource: [
        `arn:${p}:secretsmanager:*:${account}:secret:${stack}-origin-secret-*`,
        `arn:${p}:secretsmanager:*:${account}:secret:${stack}-*-origin-secret-*`,
      ],
    },
    {
      // A service acts as the roles this project's stacks made (named "<stack>-…" by CloudFormation), no other.
      Sid: 'PassOnlyThisProjectsRoles',
      Effect: 'Deny',
      Action: 'iam:PassRole',
      NotResource: `arn:${p}:iam::${account}:role/${stack}-*`,
    },
  );
  return { Version: '2012-10-17', Statement: statements };
}

/** The preview role's whole policy: put, delete and list `pr-*` keys of the preview bucket, in this account. */
export function previewStatements(partition: string, account: string, bucketName: string): PolicyStatementJson[] {
  const bucket = `arn:${partition}:s3:::${bucketName}`;
  const ownAccount = { 'aws:ResourceAccount': account };
  return [
    {
      Sid: 'PreviewFilesOnly',
      Effect: 'Allow',
      Action: ['s3:PutObject', 's3:DeleteObject'],
      Resource: `${bucket}/${PREVIEW_KEY_PREFIX}*`,
      Condition: { StringEquals: ownAccount },
    },
    {
      Sid: 'ListPreviewFilesOnly',
      Effect: 'Allow',
      Action: 's3:ListBucket',
      Resource: bucket,
      Condition: { StringEquals: ownAccount, StringLike: { 's3:prefix': `${PREVIEW_KEY_PREFIX}*` } },
    },
  ];
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
    // No environment subject: any workflow may name any environment, so it would let any branch's push in.
    preview: [`${prefix}:pull_request`],
  };
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
