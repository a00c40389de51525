/**
 * The GitHub setup stack (npm run github-setup): GitHub's OIDC provider without a thumbprint, made or
 * imported, and two roles whose trust is one AssumeRoleWithWebIdentity statement pinning the audience
 * and this repository's exact subjects: production only CDK's deploy and file-publishing roles and the
 * doctor's reads; preview only the files under pr-* of main's preview bucket.
 * cdk-nag runs on it. What the roles reach is simulated in github-iam.test.ts.
 */
import { App, Validations } from 'aws-cdk-lib';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { DOCTOR_READ_ACTIONS, type GitHubRepository, parseRepository, repositoryFromContext, trustedSubjects } from './deploy-fence';
import { GitHubDeployStack } from './github-deploy-stack';
import { scratchDir } from '../../tools/scratch';
import type { Json } from './testing';

const REPO: GitHubRepository = { owner: 'jane-doe', name: 'portfolio', ids: { owner: 1234567, repository: 7654321 } };
const EXISTING = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';

function synth(props: { repository?: GitHubRepository; existingProviderArn?: string } = {}) {
  const app = new App({ outdir: scratchDir('cdk.out-') });
  const stack = new GitHubDeployStack(app, 'Portfolio-GitHub', {
    env: { account: '123456789012', region: 'eu-west-1' },
    repository: props.repository ?? REPO,
    existingProviderArn: props.existingProviderArn,
    portfolioStackName: 'Portfolio',
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth(); // an unacknowledged cdk-nag finding throws here
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, Json>;
  const roleId = (description: RegExp) =>
    Object.entries(resources).find(([, r]) => r.Type === 'AWS::IAM::Role' && description.test(r.Properties.Description))![0];
  const policyOf = (id: string): Json[] =>
    Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: Json) => role.Ref === id))
      .flatMap((r) => r.Properties.PolicyDocument.Statement);
  const production = roleId(/^Deploys the live site/);
  const preview = roleId(/^Uploads and removes pull-request previews/);
  return { template, resources, production, preview, policyOf };
}

describe('the OIDC provider', () => {
  it("is GitHub's issuer with the audience sts.amazonaws.com and no thumbprint (IAM trusts its own root CAs for GitHub)", () => {
    const { template } = synth();
    const providers = Object.values(template.findResources('AWS::IAM::OIDCProvider'));
    expect(providers).toHaveLength(1);
    expect(providers[0]!.Properties).toEqual({ Url: 'https://token.actions.githubusercontent.com', ClientIdList: ['sts.amazonaws.com'] });
    expect(template.toJSON().Outputs.OidcProviderOwned.Value).toBe('yes');
  });

  it('is imported when the account has one (one per account), and the roles trust that one', () => {
    const { template, resources, production } = synth({ existingProviderArn: EXISTING });
    expect(Object.keys(template.findResources('AWS::IAM::OIDCProvider'))).toHaveLength(0);
    expect(resources[production]!.Properties.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({ Federated: EXISTING });
    expect(template.toJSON().Outputs.OidcProviderOwned.Value).toBe('no');
  });
});

describe("each role's trust", () => {
  const { resources, production, preview } = synth();
  const subjects = trustedSubjects(REPO);

  it.each([
    ['production', production, subjects.production],
    ['preview', preview, subjects.preview],
  ])('%s: one AssumeRoleWithWebIdentity statement, StringEquals on aud and the exact subjects', (_name, id, expected) => {
    const statements = resources[id]!.Properties.AssumeRolePolicyDocument.Statement as Json[];
    expect(statements).toHaveLength(1);
    const [statement] = statements;
    expect(statement).toMatchObject({ Effect: 'Allow', Action: 'sts:AssumeRoleWithWebIdentity' });
    expect(Object.keys(statement!.Condition)).toEqual(['StringEquals']); // no StringLike, no ForAllValues/ForAnyValue
    expect(statement!.Condition.StringEquals).toEqual({
      'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
      'token.actions.githubusercontent.com:sub': expected,
    });
    for (const subject of expected) expect(subject).not.toMatch(/[*?]/);
  });

  it("names this repository by its immutable ids (new repositories' subjects), each role its own events", () => {
    expect(subjects).toEqual({
      production: ['repo:jane-doe@1234567/portfolio@7654321:ref:refs/heads/main'],
      preview: ['repo:jane-doe@1234567/portfolio@7654321:pull_request'],
    });
    expect(trustedSubjects({ owner: 'old', name: 'repo' }).production[0]).toBe('repo:old/repo:ref:refs/heads/main');
  });
});

describe("each role's permissions", () => {
  const { production, preview, policyOf } = synth();
  const doctor = { Sid: 'DoctorReadOnly', Effect: 'Allow', Action: [...DOCTOR_READ_ACTIONS], Resource: '*' };

  it("production: the bootstrap deploy and file-publishing roles by name (never lookup), and the doctor's reads", () => {
    const role = (kind: string) => ({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:iam::123456789012:role/cdk-hnb659fds-${kind}-role-123456789012-*`]],
    });
    expect(policyOf(production)).toEqual([
      doctor,
      {
        Sid: 'AssumeCdkDeployRolesOnly',
        Effect: 'Allow',
        Action: ['sts:AssumeRole', 'sts:TagSession'],
        Resource: [role('deploy'), role('file-publishing')],
      },
    ]);
  });

  it("preview: put, delete and list pr-* of this account's preview bucket, nothing else (no doctor, no stack read)", () => {
    const arn = (rest: string) => ({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:s3:::portfolio-previews-123456789012-eu-west-1${rest}`]],
    });
    const own = { 'aws:ResourceAccount': '123456789012' };
    expect(policyOf(preview)).toEqual([
      {
        Sid: 'PreviewFilesOnly',
        Effect: 'Allow',
        Action: ['s3:PutObject', 's3:DeleteObject'],
        Resource: arn('/pr-*'),
        Condition: { StringEquals: own },
      },
      {
        Sid: 'ListPreviewFilesOnly',
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: arn(''),
        Condition: { StringEquals: own, StringLike: { 's3:prefix': 'pr-*' } },
      },
    ]);
  });

  it('the stack holds two roles and no other IAM resource but the provider', () => {
    const { resources } = synth();
    const types = Object.values(resources)
      .map((r) => r.Type)
      .filter((t) => t.startsWith('AWS::IAM::'))
      .sort();
    expect(types).toEqual(['AWS::IAM::OIDCProvider', 'AWS::IAM::Policy', 'AWS::IAM::Policy', 'AWS::IAM::Role', 'AWS::IAM::Role']);
  });

  it("the doctor's reads are exactly the AWS calls in its code (each SDK command mapped to its IAM action)", () => {
    expect([...DOCTOR_READ_ACTIONS].sort()).toEqual(doctorActions());
  });

  it("the doctor's reads are reads", () => {
    // API Gateway's management reads are the HTTP verb GET; Budgets' reads are View*.
    for (const action of DOCTOR_READ_ACTIONS) expect(action).toMatch(/^[a-z0-9]+:(Get|Describe|List|View)|^apigateway:GET$/);
  });
});

/**
 * The IAM prefix of each AWS SDK client (Service Authorization Reference: acm, cloudformation, cloudwatch, route53,
 * route53domains, ses for SES API v2, ssm): https://docs.aws.amazon.com/service-authorization/latest/reference/reference_policies_actions-resources-contextkeys.html
 * (CloudWatch: https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazoncloudwatch.html, "service prefix: cloudwatch")
 * e.g. https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsimpleemailservicev2.html ("service prefix: ses").
 * An action is named after its API operation for every call the doctor makes.
 */
const IAM_PREFIX: Record<string, string> = {
  acm: 'acm',
  apigatewayv2: 'apigateway',
  budgets: 'budgets',
  cloudformation: 'cloudformation',
  cloudwatch: 'cloudwatch',
  'route-53': 'route53',
  'route-53-domains': 'route53domains',
  sesv2: 'ses',
  ssm: 'ssm',
  sts: 'sts',
};
/** "No permissions are required to perform this operation" (STS API Reference, GetCallerIdentity): https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html */
const NEEDS_NO_PERMISSION = new Set(['sts:GetCallerIdentity']);
/**
 * Calls whose IAM action is not named after them: "DescribeBudget … budgets:ViewBudget" (Service
 * Authorization Reference, AWS Budgets); API Gateway's management calls are HTTP verbs on resources
 * ("apigateway:GET", Control access to the API Gateway management API with IAM permissions).
 */
const ACTION_OF: Record<string, string> = { 'budgets:DescribeBudget': 'budgets:ViewBudget', 'apigateway:GetStage': 'apigateway:GET' };

/** The IAM actions of every AWS SDK call (`new XCommand(`, `paginateX(`) in the doctor's CLI and the modules it imports. */
function doctorActions(): string[] {
  const actions = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    const clientOf = new Map<string, string>();
    for (const [, names, client] of source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@aws-sdk\/client-([a-z0-9-]+)'/g)) {
      for (const name of names!.split(',')) clientOf.set(name.replace(/\btype\b/, '').trim(), client!);
    }
    for (const [, command] of source.matchAll(/new\s+(\w+)Command\s*\(/g)) add(`${command}Command`, command!);
    for (const [, operation] of source.matchAll(/\bpaginate(\w+)\s*\(/g)) add(`paginate${operation}`, operation!);
    function add(name: string, operation: string) {
      const client = clientOf.get(name);
      if (!client) throw new Error(`${file}: ${name} is not imported from an @aws-sdk client`);
      const prefix = IAM_PREFIX[client];
      if (!prefix)
        throw new Error(`${file}: @aws-sdk/client-${client} has no IAM prefix in this test yet (Service Authorization Reference)`);
      const action = ACTION_OF[`${prefix}:${operation}`] ?? `${prefix}:${operation}`;
      if (!NEEDS_NO_PERMISSION.has(action)) actions.add(action);
    }
    for (const [, relative] of source.matchAll(/from\s*'(\.{1,2}\/[^']+)'/g)) {
      const base = path.resolve(path.dirname(file), relative!);
      const target = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base].find((f) => existsSync(f) && /\.tsx?$/.test(f));
      if (target) visit(target);
    }
  };
  visit(path.resolve(import.meta.dirname, '../scripts/doctor/cli.ts'));
  expect(seen.has(path.resolve(import.meta.dirname, '../scripts/doctor/checks.ts'))).toBe(true);
  return [...actions].sort();
}

describe('the repository from the setup', () => {
  it('takes OWNER/NAME with both ids or neither', () => {
    const get = (values: Record<string, string>) => (key: string) => values[key];
    expect(
      repositoryFromContext(get({ 'github:repository': 'jane-doe/portfolio', 'github:ownerId': '1', 'github:repositoryId': '2' })),
    ).toEqual({
      owner: 'jane-doe',
      name: 'portfolio',
      ids: { owner: 1, repository: 2 },
    });
    expect(repositoryFromContext(get({ 'github:repository': 'jane-doe/portfolio' }))).toEqual({ owner: 'jane-doe', name: 'portfolio' });
    expect(() => repositoryFromContext(get({ 'github:repository': 'jane-doe/portfolio', 'github:ownerId': '1' }))).toThrow(/go together/);
    expect(() => repositoryFromContext(get({ 'github:repository': 'a/b', 'github:ownerId': 'x', 'github:repositoryId': '2' }))).toThrow(
      /numeric id/,
    );
  });

  it.each(['jane/*', '*/portfolio', 'jane', 'jane/portfolio/extra', 'ja ne/portfolio'])(
    'refuses %j (no wildcard reaches a subject)',
    (text) => {
      expect(() => parseRepository(text)).toThrow(/not a GitHub repository OWNER\/NAME/);
    },
  );
});
