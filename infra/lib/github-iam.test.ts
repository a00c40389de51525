/**
 * What a GitHub workflow can reach in the owner's account, proved by an IAM policy simulation
 * (@cloud-copilot/iam-simulate: identity policies, permissions boundaries, conditions) of the synthesized
 * `Portfolio-GitHub` stack and the CDK bootstrap template as installed (node_modules/aws-cdk, v33), with
 * the execution policy setup passes `cdk bootstrap --cloudformation-execution-policies` and the
 * permissions boundary it passes `--custom-permissions-boundary` (which every role a template makes
 * carries too: a role a template could make is simulated within it).
 *
 * From each GitHub role, every role it reaches is followed: sts:AssumeRole where the identity policy
 * allows it and the target's trust names the account, iam:PassRole where it allows passing a role a
 * service trusts (the service then acts as that role). For each role reached, the actions that must be
 * denied are simulated; one allowed fails the test. For the preview role that list is an attacker's: a
 * pull request's code changing what live visitors get (the viewer-request function, the security
 * headers, cache and origin-request policies, invalidations, the distribution), exporting the live logs,
 * reading or writing parameters, opening a role's trust to the world, reading the live stack; and next
 * to it what a preview must still do (put, delete and list its files), so it cannot pass by denying all.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../config/portfolio-config';
import { scratchDir } from '../../tools/scratch';
import { boundaryPolicyDocument, boundaryPolicyName, executionPolicyDocument, executionPolicyName, type FenceScope } from './deploy-fence';
import { GitHubDeployStack } from './github-deploy-stack';
import { previewBucketName } from './preview-site';
import type { Json } from './testing';

const ACCOUNT = '123456789012';
const REGION = 'eu-west-1';
const STACK = 'Portfolio';
const SECRET = '/portfolio/recaptcha-secret';
const SCOPE: FenceScope = { partition: 'aws', account: ACCOUNT, region: REGION, portfolioStackName: STACK, liveSecretParameter: SECRET };

/** The live site's resources as CloudFormation names them ("<stack>-<logical id>-<suffix>"). */
const LIVE = {
  bucket: 'arn:aws:s3:::portfolio-sitebucket397a1860-1a2b3c4d5e6f',
  secret: `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter${SECRET}`,
  archive: `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/Portfolio-ArchiveTable0F0A1B2C-1A2B3C4D5E6F`,
  stack: `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/Portfolio/0a1b2c3d-0000-0000-0000-000000000000`,
  functionRole: `arn:aws:iam::${ACCOUNT}:role/Portfolio-FunctionsContactRole1A2B3C-1A2B3C4D5E6F`,
  function: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:Portfolio-FunctionsContactFunction-1A2B3C4D5E6F`,
  distribution: `arn:aws:cloudfront::${ACCOUNT}:distribution/E1LIVE0000000`,
  originSecret: `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:Portfolio-origin-secret-AbCdEf`,
  originStore: `arn:aws:cloudfront::${ACCOUNT}:key-value-store/0a1b2c3d-0000-0000-0000-00000000000a`,
};
/** The live site's CloudFront objects, which carry ids and no tags (what no name or tag fence can hold). */
const LIVE_CDN = {
  function: `arn:aws:cloudfront::${ACCOUNT}:function/PortfolioCdnViewerRequestA1B2C3D4`,
  headers: `arn:aws:cloudfront::${ACCOUNT}:response-headers-policy/5f3a1b2c-0000-0000-0000-000000000001`,
  cache: `arn:aws:cloudfront::${ACCOUNT}:cache-policy/5f3a1b2c-0000-0000-0000-000000000002`,
  originRequest: `arn:aws:cloudfront::${ACCOUNT}:origin-request-policy/5f3a1b2c-0000-0000-0000-000000000003`,
  logGroup: `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:/aws/lambda/Portfolio-FunctionsContactFunction-1A2B3C4D5E6F`,
  parameter: `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter/some/other-parameter`,
};
/** The boundary setup makes, which CloudFormation's role and every role a template makes carry. */
const BOUNDARY = `arn:aws:iam::${ACCOUNT}:policy/${boundaryPolicyName(STACK)}`;
const WITHIN = { 'iam:PermissionsBoundary': BOUNDARY };
const A_NEW_ROLE = `arn:aws:iam::${ACCOUNT}:role/${STACK}-Anything1A2B3C-1A2B3C4D5E6F`;
/** Another stack's resources, as CloudFormation tags them. */
const OTHER_STACKS = { 'aws:ResourceTag/aws:cloudformation:stack-name': 'SomeoneElses' };
const THIS_STACK = { 'aws:ResourceTag/aws:cloudformation:stack-name': STACK };

/** A role an older design let a preview create (and so change the trust of). */
const PREVIEW_CREATED_ROLE = `arn:aws:iam::${ACCOUNT}:role/Portfolio-pr-7-FunctionsContactRole1A2B3C-1A2B3C4D5E6F`;
const PREVIEW_BUCKET = `arn:aws:s3:::${previewBucketName(STACK, ACCOUNT, REGION)}`;
/** The simulator's request context for a resource of this account (the role's aws:ResourceAccount condition). */
const OWN = { 'aws:ResourceAccount': ACCOUNT };

/** ReadOnlyAccess's DynamoDB reads (AWS managed policy reference, ReadOnlyAccess and AmazonDynamoDBReadOnlyAccess:
 * https://docs.aws.amazon.com/aws-managed-policy/latest/reference/ReadOnlyAccess.html), the part that reads the archive. */
const MANAGED: Record<string, Json> = {
  AdministratorAccess: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] },
  ReadOnlyAccess: {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: [
          'dynamodb:BatchGetItem',
          'dynamodb:Describe*',
          'dynamodb:List*',
          'dynamodb:GetItem',
          'dynamodb:Query',
          'dynamodb:Scan',
          'dynamodb:PartiQLSelect',
          's3:Get*',
          's3:List*',
          'ssm:Describe*',
          'ssm:Get*',
          'ssm:List*',
        ],
        Resource: '*',
      },
    ],
  },
  // AWSCloudFormationReadOnlyAccess: https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AWSCloudFormationReadOnlyAccess.html
  AWSCloudFormationReadOnlyAccess: {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: [
          'cloudformation:Describe*',
          'cloudformation:EstimateTemplateCost',
          'cloudformation:Get*',
          'cloudformation:List*',
          'cloudformation:ValidateTemplate',
          'cloudformation:Detect*',
        ],
        Resource: '*',
      },
    ],
  },
};

interface Role {
  arn: string;
  trust: Json[];
  policies: { name: string; policy: Json }[];
  boundary?: Json;
  /** The role's tags, which a condition on iam:ResourceTag/KEY reads when it is assumed or passed. */
  tags: Record<string, string>;
}

/** A small CloudFormation evaluator: Ref, Fn::Sub, Fn::Join, Fn::GetAtt, Fn::If and conditions, AWS::NoValue. */
function evaluator(template: Json, parameters: Record<string, unknown>, physical: (logicalId: string, attribute?: string) => string) {
  const pseudo: Record<string, string> = {
    'AWS::Partition': 'aws',
    'AWS::AccountId': ACCOUNT,
    'AWS::Region': REGION,
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::NoValue': '\0novalue',
  };
  const parameter = (name: string) => {
    const given = parameters[name] ?? template.Parameters?.[name]?.Default ?? '';
    // A CommaDelimitedList is a list, its empty default [""] (CloudFormation's Parameters reference).
    if (template.Parameters?.[name]?.Type === 'CommaDelimitedList' && !Array.isArray(given)) return String(given).split(',');
    return given;
  };
  const conditions = new Map<string, boolean>();
  const condition = (name: string): boolean => {
    if (!conditions.has(name)) conditions.set(name, Boolean(value(template.Conditions[name])));
    return conditions.get(name)!;
  };
  const ref = (name: string) =>
    name in pseudo ? pseudo[name] : name in (template.Parameters ?? {}) || name in parameters ? parameter(name) : physical(name);
  const value = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(value).filter((v) => v !== '\0novalue');
    if (!node || typeof node !== 'object') return node;
    const entries = Object.entries(node as Json);
    if (entries.length === 1) {
      const [key, arg] = entries[0]!;
      if (key === 'Ref') return ref(arg);
      if (key === 'Fn::Sub')
        return String(arg).replace(/\$\{([^}]+)\}/g, (_m, name: string) =>
          name.includes('.') ? physical(name.split('.')[0]!, name.split('.')[1]) : String(ref(name)),
        );
      if (key === 'Fn::Join') return (value(arg[1]) as unknown[]).join(arg[0]);
      if (key === 'Fn::GetAtt') return physical(...((Array.isArray(arg) ? arg : String(arg).split('.')) as [string, string]));
      if (key === 'Fn::If') return condition(arg[0]) ? value(arg[1]) : value(arg[2]);
      if (key === 'Fn::Equals') return JSON.stringify(value(arg[0])) === JSON.stringify(value(arg[1]));
      if (key === 'Fn::Not') return !value(arg[0]);
      if (key === 'Fn::And') return arg.every((a: unknown) => value(a));
      if (key === 'Fn::Or') return arg.some((a: unknown) => value(a));
      if (key === 'Condition') return condition(arg);
    }
    const out: Json = {};
    for (const [key, child] of entries) {
      const v = value(child);
      if (v !== '\0novalue') out[key] = v;
    }
    return out;
  };
  return value;
}

/** The roles of a template: their names, trust, inline and attached policies (managed ones from MANAGED or the template), boundary. */
function rolesOf(template: Json, parameters: Record<string, unknown>, extraManaged: Record<string, Json> = {}): Role[] {
  const resources = template.Resources as Record<string, Json>;
  const nameOf = (id: string) => {
    const r = resources[id]!;
    if (r.Type === 'AWS::IAM::Role') return `arn:aws:iam::${ACCOUNT}:role/${r.Properties.RoleName ? value(r.Properties.RoleName) : id}`;
    if (r.Type === 'AWS::IAM::ManagedPolicy') return `arn:aws:iam::${ACCOUNT}:policy/${value(r.Properties.ManagedPolicyName)}`;
    if (r.Type === 'AWS::IAM::OIDCProvider') return `arn:aws:iam::${ACCOUNT}:oidc-provider/token.actions.githubusercontent.com`;
    if (r.Type === 'AWS::S3::Bucket') return `arn:aws:s3:::${r.Properties.BucketName ? value(r.Properties.BucketName) : id.toLowerCase()}`;
    return `arn:aws:service:${REGION}:${ACCOUNT}:${id}`;
  };
  const value = evaluator(template, parameters, (id, attribute) => (attribute && attribute !== 'Arn' ? `${id}.${attribute}` : nameOf(id)));
  const managed = (arn: string): Json => {
    const name = arn.split('/').pop()!;
    const known = MANAGED[name] ?? extraManaged[arn];
    if (known) return known;
    const own = Object.entries(resources).find(([id, r]) => r.Type === 'AWS::IAM::ManagedPolicy' && nameOf(id) === arn);
    if (own) return value(own[1].Properties.PolicyDocument) as Json;
    throw new Error(`no document for the managed policy ${arn}`);
  };
  return Object.entries(resources)
    .filter(([, r]) => r.Type === 'AWS::IAM::Role' && (!r.Condition || value({ Condition: r.Condition })))
    .map(([id, r]) => {
      const props = value(r.Properties) as Json;
      const attached = Object.values(resources)
        .filter((p) => p.Type === 'AWS::IAM::Policy' && (p.Properties.Roles as Json[]).some((x) => x.Ref === id))
        .map((p) => ({ name: String(value(p.Properties.PolicyName)), policy: value(p.Properties.PolicyDocument) as Json }));
      return {
        arn: nameOf(id),
        trust: props.AssumeRolePolicyDocument.Statement as Json[],
        policies: [
          ...(props.Policies ?? []).map((p: Json) => ({ name: p.PolicyName, policy: p.PolicyDocument })),
          ...attached,
          ...((props.ManagedPolicyArns ?? []) as string[]).flat().map((arn) => ({ name: arn, policy: managed(arn) })),
        ],
        ...(props.PermissionsBoundary ? { boundary: managed(props.PermissionsBoundary) } : {}),
        tags: Object.fromEntries(((props.Tags ?? []) as Json[]).map((t) => [t.Key, t.Value])),
      };
    });
}

/** The account's roles: the GitHub stack's and the bootstrap template's, bootstrapped as `setup` does it. */
function account(options: { executionPolicies: boolean }): Role[] {
  const app = new App({ outdir: scratchDir('cdk.out-') });
  const stack = new GitHubDeployStack(app, `${STACK}-GitHub`, {
    env: { account: ACCOUNT, region: REGION },
    repository: { owner: 'jane-doe', name: 'portfolio', ids: { owner: 1, repository: 2 } },
    portfolioStackName: STACK,
  });
  const github = app.synth().getStackByName(stack.stackName).template as Json;
  const bootstrap = parse(readFileSync(path.join(REPO_ROOT, 'node_modules/aws-cdk/lib/api/bootstrap/bootstrap-template.yaml'), 'utf8'));
  const executionPolicyArn = `arn:aws:iam::${ACCOUNT}:policy/${executionPolicyName(STACK)}`;
  const parameters = options.executionPolicies
    ? { CloudFormationExecutionPolicies: [executionPolicyArn], InputPermissionsBoundary: boundaryPolicyName(STACK), Qualifier: 'hnb659fds' }
    : { Qualifier: 'hnb659fds' };
  return [
    ...rolesOf(github, {}),
    ...rolesOf(bootstrap, parameters, { [executionPolicyArn]: executionPolicyDocument(SCOPE), [BOUNDARY]: boundaryPolicyDocument(SCOPE) }),
  ];
}

async function decide(role: Role, action: string, resource: string, context: Record<string, string | string[]> = {}): Promise<string> {
  const response = await runSimulation(
    {
      request: { principal: role.arn, action, resource: { resource, accountId: ACCOUNT }, contextVariables: context },
      identityPolicies: role.policies,
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      ...(role.boundary ? { permissionBoundaryPolicies: [{ name: 'boundary', policy: role.boundary }] } : {}),
    },
    {},
  );
  if (response.resultType === 'error') throw new Error(`${action} on ${resource}: ${JSON.stringify(response.errors)}`);
  return response.overallResult;
}

/** The role's trust lets `from` assume it: it names the account (then identity policies decide) or `from` itself. */
const trusts = (role: Role, from: Role) =>
  role.trust.some(
    (s) =>
      s.Effect === 'Allow' &&
      [s.Action].flat().includes('sts:AssumeRole') &&
      [s.Principal?.AWS].flat().some((p) => p === ACCOUNT || p === `arn:aws:iam::${ACCOUNT}:root` || p === from.arn),
  );
const trustedService = (role: Role): string | undefined =>
  role.trust.find((s) => s.Effect === 'Allow' && [s.Action].flat().includes('sts:AssumeRole') && s.Principal?.Service)?.Principal.Service;

/** Every role reachable from `start` (itself included), with the way it was reached. */
async function reachable(start: Role, roles: Role[]): Promise<Map<Role, string>> {
  const label = (role: Role) =>
    role.arn
      .split('/')
      .pop()!
      .replace(/[0-9A-F]{8}$/, '');
  const seen = new Map<Role, string>([[start, label(start)]]);
  const queue = [start];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const to of roles) {
      if (seen.has(to)) continue;
      const service = trustedService(to);
      const tags = Object.fromEntries(
        Object.entries(to.tags).flatMap(([k, v]) => [
          [`aws:ResourceTag/${k}`, v],
          [`iam:ResourceTag/${k}`, v],
        ]),
      );
      const assumed = trusts(to, from) && (await decide(from, 'sts:AssumeRole', to.arn, tags)) === 'Allowed';
      const passed =
        service !== undefined && (await decide(from, 'iam:PassRole', to.arn, { 'iam:PassedToService': service })) === 'Allowed';
      if (assumed || passed) {
        seen.set(to, `${seen.get(from)} → ${assumed ? 'assumes' : `passes to ${service}`} ${label(to)}`);
        queue.push(to);
      }
    }
  }
  return seen;
}

type Check = [action: string, resource: string, context?: Record<string, string | string[]>];

/** What no role a workflow reaches may do: read the archive or the secret, change IAM's deploy machinery, make users. */
const NEVER: Check[] = [
  ...[
    'dynamodb:Scan',
    'dynamodb:Query',
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:PartiQLSelect',
    'dynamodb:ExportTableToPointInTime',
  ].map((a): Check => [a, LIVE.archive]),
  ...['ssm:GetParameter', 'ssm:GetParameters', 'ssm:PutParameter', 'ssm:DeleteParameter'].map((a): Check => [a, LIVE.secret]),
  // The origin secret CloudFront sends the API: neither its value nor the key value store's copy.
  ['secretsmanager:GetSecretValue', LIVE.originSecret],
  ['cloudfront-keyvaluestore:GetKey', LIVE.originStore],
  ['cloudfront-keyvaluestore:ListKeys', LIVE.originStore],
  ['iam:CreateUser', `arn:aws:iam::${ACCOUNT}:user/someone`],
  ['iam:CreateAccessKey', `arn:aws:iam::${ACCOUNT}:user/someone`],
  ['iam:UpdateOpenIDConnectProviderThumbprint', `arn:aws:iam::${ACCOUNT}:oidc-provider/token.actions.githubusercontent.com`],
  ...['iam:UpdateAssumeRolePolicy', 'iam:PutRolePolicy', 'iam:AttachRolePolicy', 'iam:DeleteRolePermissionsBoundary'].flatMap(
    (a): Check[] => [
      [a, `arn:aws:iam::${ACCOUNT}:role/cdk-hnb659fds-lookup-role-${ACCOUNT}-${REGION}`],
      [a, `arn:aws:iam::${ACCOUNT}:role/cdk-hnb659fds-cfn-exec-role-${ACCOUNT}-${REGION}`],
      [a, `arn:aws:iam::${ACCOUNT}:role/${STACK}-GitHub-ProductionRole1A2B3C-1A2B3C4D5E6F`],
    ],
  ),
  ['iam:CreatePolicyVersion', `arn:aws:iam::${ACCOUNT}:policy/${executionPolicyName(STACK)}`],
  // No role outside the boundary: made, changed or freed of it; nor the boundary changed.
  ['iam:CreateRole', A_NEW_ROLE],
  ['iam:CreateRole', A_NEW_ROLE, { 'iam:PermissionsBoundary': `arn:aws:iam::${ACCOUNT}:policy/AnotherBoundary` }],
  ['iam:PutRolePolicy', `arn:aws:iam::${ACCOUNT}:role/SomeAdministratorRole`],
  [
    'iam:AttachRolePolicy',
    `arn:aws:iam::${ACCOUNT}:role/SomeAdministratorRole`,
    { 'iam:PolicyARN': 'arn:aws:iam::aws:policy/ReadOnlyAccess' },
  ],
  ['iam:AttachRolePolicy', LIVE.functionRole, { ...WITHIN, 'iam:PolicyARN': 'arn:aws:iam::aws:policy/AdministratorAccess' }],
  ['iam:DeleteRolePermissionsBoundary', LIVE.functionRole],
  ...['iam:CreatePolicyVersion', 'iam:SetDefaultPolicyVersion', 'iam:DeletePolicy'].map((a): Check => [a, BOUNDARY]),
  // Alarms keep their actions; budgets are the owner's; other stacks' resources are theirs.
  ['cloudwatch:DisableAlarmActions', `arn:aws:cloudwatch:${REGION}:${ACCOUNT}:alarm:Portfolio-ContactErrors`],
  ['budgets:ModifyBudget', `arn:aws:budgets::${ACCOUNT}:budget/portfolio-monthly`],
  // A paid CloudFront plan starts billing only when the owner approves it.
  ['pricingplanmanager:ApprovePaidSubscription', '*'],
  ...['budgets:DeleteBudgetAction', 'budgets:ExecuteBudgetAction', 'budgets:UpdateBudgetAction'].map((a): Check => [
    a,
    `arn:aws:budgets::${ACCOUNT}:budget/portfolio-monthly/action/0a1b2c3d-0000-0000-0000-000000000000`,
  ]),
  // (Services that evaluate aws:ResourceTag for the action; S3's bucket actions do not, docs/deploy.md says so.)
  ['lambda:UpdateFunctionCode', `arn:aws:lambda:${REGION}:${ACCOUNT}:function:SomeoneElsesFunction`, OTHER_STACKS],
  ['dynamodb:DeleteTable', `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/SomeoneElsesTable`, OTHER_STACKS],
  ['sns:SetTopicAttributes', `arn:aws:sns:${REGION}:${ACCOUNT}:SomeoneElsesTopic`, OTHER_STACKS],
];

/** And CloudFormation's own role: the origin secret's value only by its rotation, no other project's role handed to a service. */
const NEVER_FROM_THE_EXECUTION_ROLE: Check[] = [
  ...['secretsmanager:PutSecretValue', 'secretsmanager:UpdateSecretVersionStage', 'secretsmanager:DeleteResourcePolicy'].map((a): Check => [
    a,
    LIVE.originSecret,
  ]),
  ['iam:PassRole', `arn:aws:iam::${ACCOUNT}:role/SomeAdministratorRole`, { 'iam:PassedToService': 'lambda.amazonaws.com' }],
];

/** What a real deploy of the stacks asks of CloudFormation's role, which the fence must leave allowed. */
const A_DEPLOY_NEEDS: Check[] = [
  ['s3:PutBucketPolicy', LIVE.bucket, THIS_STACK],
  ['dynamodb:UpdateTable', LIVE.archive],
  ['iam:CreateRole', A_NEW_ROLE, WITHIN],
  ['iam:PutRolePolicy', LIVE.functionRole, WITHIN],
  [
    'iam:AttachRolePolicy',
    LIVE.functionRole,
    { ...WITHIN, 'iam:PolicyARN': 'arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole' },
  ],
  ['iam:PassRole', LIVE.functionRole, { 'iam:PassedToService': 'lambda.amazonaws.com' }],
  ['lambda:CreateFunction', LIVE.function],
  ['lambda:UpdateFunctionCode', LIVE.function, THIS_STACK],
  ['cloudwatch:PutMetricAlarm', `arn:aws:cloudwatch:${REGION}:${ACCOUNT}:alarm:Portfolio-ContactErrors`],
  ...['secretsmanager:CreateSecret', 'secretsmanager:PutResourcePolicy', 'secretsmanager:RotateSecret', 'secretsmanager:TagResource'].map(
    (a): Check => [a, LIVE.originSecret],
  ),
  ['cloudfront:UpdateDistribution', LIVE.distribution, THIS_STACK],
  // The CloudFront plan: its web ACL (CLOUDFRONT scope, us-east-1), the subscription, and with a Route 53
  // domain the API's own name (API Gateway's management actions are HTTP verbs).
  ['wafv2:CreateWebACL', `arn:aws:wafv2:us-east-1:${ACCOUNT}:global/webacl/PortfolioSiteFirewall/0a1b2c3d-0000-0000-0000-00000000000b`],
  [
    'wafv2:UpdateWebACL',
    `arn:aws:wafv2:us-east-1:${ACCOUNT}:global/webacl/PortfolioSiteFirewall/0a1b2c3d-0000-0000-0000-00000000000b`,
    THIS_STACK,
  ],
  ['pricingplanmanager:CreateSubscription', '*'],
  ['apigateway:POST', `arn:aws:apigateway:${REGION}::/domainnames`],
  // The assets the deploy reads from the bootstrap's staging bucket (CDKToolkit's).
  [
    's3:GetObject',
    `arn:aws:s3:::cdk-hnb659fds-assets-${ACCOUNT}-${REGION}/asset.zip`,
    { 'aws:ResourceTag/aws:cloudformation:stack-name': 'CDKToolkit' },
  ],
];

/**
 * And what nothing a preview reaches may do: the attacker's list (what a pull request's code would use to
 * change live pages before anyone merges it, or to read what it should not), the live stack and its
 * bucket, functions, distribution, archive and IAM, and anything in the preview bucket beyond pr-*.
 */
const NEVER_FROM_A_PREVIEW: Check[] = [
  ...NEVER,
  ['cloudfront:UpdateFunction', LIVE_CDN.function],
  ['cloudfront:PublishFunction', LIVE_CDN.function],
  ['cloudfront:UpdateResponseHeadersPolicy', LIVE_CDN.headers],
  ['cloudfront:UpdateCachePolicy', LIVE_CDN.cache],
  ['cloudfront:UpdateOriginRequestPolicy', LIVE_CDN.originRequest],
  ['cloudfront:CreateInvalidation', LIVE.distribution],
  ['cloudfront:UpdateDistribution', LIVE.distribution],
  ['logs:CreateExportTask', LIVE_CDN.logGroup],
  ['logs:FilterLogEvents', LIVE_CDN.logGroup],
  ['ssm:GetParameter', LIVE_CDN.parameter],
  ['ssm:PutParameter', LIVE_CDN.parameter],
  ['iam:UpdateAssumeRolePolicy', PREVIEW_CREATED_ROLE],
  ['iam:CreateRole', PREVIEW_CREATED_ROLE],
  ['cloudformation:DescribeStacks', LIVE.stack],
  // Nor change the live origin secret or its store's copy.
  ...['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue', 'secretsmanager:RotateSecret', 'secretsmanager:DeleteSecret'].map(
    (a): Check => [a, LIVE.originSecret],
  ),
  ...['cloudfront-keyvaluestore:GetKey', 'cloudfront-keyvaluestore:PutKey'].map((a): Check => [a, LIVE.originStore]),
  ...['cloudformation:CreateChangeSet', 'cloudformation:UpdateStack', 'cloudformation:DeleteStack', 'cloudformation:ExecuteChangeSet'].map(
    (a): Check => [a, LIVE.stack],
  ),
  ...['s3:GetObject', 's3:PutObject', 's3:DeleteObject'].map((a): Check => [a, `${LIVE.bucket}/index.html`, OWN]),
  ...['s3:PutBucketPolicy', 's3:DeleteBucket', 's3:ListBucket'].map((a): Check => [a, LIVE.bucket, OWN]),
  ...['lambda:UpdateFunctionCode', 'lambda:UpdateFunctionConfiguration', 'lambda:AddPermission'].map((a): Check => [a, LIVE.function]),
  ...['iam:PutRolePolicy', 'iam:AttachRolePolicy', 'iam:UpdateAssumeRolePolicy', 'iam:PassRole'].map((a): Check => [a, LIVE.functionRole]),
  ...['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:DeleteTable'].map((a): Check => [a, LIVE.archive]),
  // The preview bucket itself: its policy, lifecycle and anything outside pr-*.
  ...['s3:PutBucketPolicy', 's3:PutLifecycleConfiguration', 's3:DeleteBucket'].map((a): Check => [a, PREVIEW_BUCKET, OWN]),
  ['s3:PutObject', `${PREVIEW_BUCKET}/index.html`, OWN],
  ['s3:GetObject', `${PREVIEW_BUCKET}/pr-7/abc1234/index.html`, OWN],
  ['s3:ListBucket', PREVIEW_BUCKET, { ...OWN, 's3:prefix': '' }],
  // A bucket of the preview bucket's name in someone else's account receives nothing.
  ['s3:PutObject', `${PREVIEW_BUCKET}/pr-7/abc1234/index.html`, { 'aws:ResourceAccount': '999999999999' }],
  ['sts:AssumeRole', `arn:aws:iam::${ACCOUNT}:role/cdk-hnb659fds-deploy-role-${ACCOUNT}-${REGION}`],
];

/** What a preview must still do: its files, under its own path. */
const PREVIEW_NEEDS: Check[] = [
  ['s3:PutObject', `${PREVIEW_BUCKET}/pr-7/abc1234/index.html`, OWN],
  ['s3:PutObject', `${PREVIEW_BUCKET}/pr-7/abc1234/assets/entry-AbC123.js`, OWN],
  ['s3:DeleteObject', `${PREVIEW_BUCKET}/pr-7/abc1234/index.html`, OWN],
  ['s3:ListBucket', PREVIEW_BUCKET, { ...OWN, 's3:prefix': 'pr-7/' }],
];

/** What the design must still let each do (so the simulation cannot pass by denying everything). */
async function allowedAll(role: Role, checks: Check[]): Promise<string[]> {
  const denied: string[] = [];
  for (const [action, resource, context] of checks)
    if ((await decide(role, action, resource, context)) !== 'Allowed') denied.push(`${action} ${resource}`);
  return denied;
}

async function violations(start: Role, roles: Role[], never: Check[]): Promise<string[]> {
  const found: string[] = [];
  for (const [role, way] of await reachable(start, roles)) {
    for (const [action, resource, context] of never) {
      if ((await decide(role, action, resource, context)) === 'Allowed') found.push(`${way}: ${action} on ${resource}`);
    }
  }
  return found;
}

const byName = (roles: Role[], pattern: RegExp) => roles.find((r) => pattern.test(r.arn))!;

describe('the GitHub roles in an account bootstrapped as setup does it', () => {
  const roles = account({ executionPolicies: true });
  const production = byName(roles, /role\/ProductionRole/);
  const preview = byName(roles, /role\/PreviewRole/);

  it("production reaches the deploy and file-publishing roles and CloudFormation's execution role, never the lookup role", async () => {
    const reached = [...(await reachable(production, roles)).values()].sort();
    expect(reached).toEqual([
      'ProductionRole',
      `ProductionRole → assumes cdk-hnb659fds-deploy-role-${ACCOUNT}-${REGION}`,
      `ProductionRole → assumes cdk-hnb659fds-deploy-role-${ACCOUNT}-${REGION} → passes to cloudformation.amazonaws.com cdk-hnb659fds-cfn-exec-role-${ACCOUNT}-${REGION}`,
      `ProductionRole → assumes cdk-hnb659fds-file-publishing-role-${ACCOUNT}-${REGION}`,
    ]);
  }, 120_000);

  it('preview reaches no other role', async () => {
    expect([...(await reachable(preview, roles)).values()]).toEqual(['PreviewRole']);
  }, 120_000);

  it('nothing production reaches reads the archive or the secret, or changes the deploy machinery', async () => {
    expect(await violations(production, roles, NEVER)).toEqual([]);
  }, 300_000);

  it("nothing preview reaches can do anything on the attacker's list, or touch the live stack, bucket, functions, archive or IAM", async () => {
    expect(await violations(preview, roles, NEVER_FROM_A_PREVIEW)).toEqual([]);
  }, 300_000);

  it("CloudFormation's role carries the boundary, writes no origin secret value and hands a service no other project's role", async () => {
    const execution = byName(roles, /cfn-exec-role/);
    expect(execution.boundary).toEqual(boundaryPolicyDocument(SCOPE));
    expect(await violations(execution, roles, NEVER_FROM_THE_EXECUTION_ROLE)).toEqual([]);
  }, 300_000);

  it('a role a template makes, however wide its policy, stays within the boundary', async () => {
    const crafted: Role = {
      arn: A_NEW_ROLE,
      trust: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
      policies: [{ name: 'everything', policy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] } }],
      boundary: boundaryPolicyDocument(SCOPE),
      tags: {},
    };
    // The site's data its functions read (archive items, the captcha secret, the origin secret and its
    // store's copy) is the execution policy's to keep from CloudFormation, not the boundary's.
    const data = ([action, resource]: Check) =>
      /^(dynamodb|ssm|secretsmanager|cloudfront-keyvaluestore):/.test(action) && !/SomeoneElses/.test(resource);
    expect(
      await violations(
        crafted,
        roles,
        NEVER.filter((check) => !data(check)),
      ),
    ).toEqual([]);
    // What the site's functions do is still theirs to do.
    expect(
      await allowedAll(crafted, [
        ['dynamodb:PutItem', LIVE.archive],
        ['ses:SendEmail', `arn:aws:ses:${REGION}:${ACCOUNT}:identity/portfolio.dev`],
        ['secretsmanager:PutSecretValue', LIVE.originSecret],
      ]),
    ).toEqual([]);
  }, 300_000);

  it('the fence fits in a managed policy (6,144 characters: IAM quotas, https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html)', () => {
    const long: FenceScope = {
      ...SCOPE,
      portfolioStackName: 'A-Portfolio-Stack-Name-Of-Some-Length',
      liveSecretParameter: '/a/reasonably/long/recaptcha-secret-parameter-name',
    };
    expect(JSON.stringify(executionPolicyDocument(long)).length).toBeLessThan(6144);
    expect(JSON.stringify(boundaryPolicyDocument(long)).length).toBeLessThan(6144);
  });

  it('each can still do its job: production deploys through CloudFormation, preview puts, deletes and lists its files', async () => {
    expect(await allowedAll(byName(roles, /cfn-exec-role/), A_DEPLOY_NEEDS)).toEqual([]);
    expect(await allowedAll(preview, PREVIEW_NEEDS)).toEqual([]);
  }, 300_000);
});
