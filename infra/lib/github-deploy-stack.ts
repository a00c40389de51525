/**
 * `npm run github-setup`: what GitHub Actions needs to deploy without AWS keys, and the fence that keeps
 * a pull request's workflow away from the live site. GitHub's OpenID Connect provider (one per account:
 * imported when the account has it) and two roles a workflow assumes with its OIDC token:
 *  - production: only this repository's `main` branch (its ref subject; no environment, which GitHub
 *    creates on first use and does not protect on every plan). It may assume the CDK bootstrap deploy
 *    and file-publishing roles (never the lookup role, whose ReadOnlyAccess reads every table), which
 *    pass CloudFormation the bootstrap execution role, scoped by `executionPolicyDocument` (deploy-fence.ts).
 *  - preview: this repository's pull requests. It may put and delete objects under `pr-` in main's
 *    preview bucket (infra/lib/preview-site.ts) and list that prefix: nothing else in the account (no
 *    CloudFormation, IAM, Lambda, CloudFront, SSM, logs, no stack read). A preview is files only.
 * This stack is deployed with the owner's own credentials (CliCredentialsStackSynthesizer), never
 * through the bootstrap execution role, which may not touch it.
 */
import { CfnOutput, CliCredentialsStackSynthesizer, Stack, type StackProps, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import {
  BOOTSTRAP_ROLES_ASSUMED,
  bootstrapNames,
  DOCTOR_READ_ACTIONS,
  GITHUB_OIDC,
  type GitHubRepository,
  previewStatements,
  trustedSubjects,
} from './deploy-fence';
import { PREVIEW_KEY_PREFIX, previewBucketName } from './preview-site';
import { GITHUB_STACK_OUTPUT_KEYS } from '../shared/stack-output-keys';

export interface GitHubDeployStackProps extends StackProps {
  readonly repository: GitHubRepository;
  /** The account's GitHub OIDC provider when it has one (one per URL per account): imported, not made. */
  readonly existingProviderArn?: string;
  /** cdk.json's stackName: the preview bucket is named after it (previewBucketName). */
  readonly portfolioStackName: string;
}

export class GitHubDeployStack extends Stack {
  readonly providerArn: string;
  readonly productionRole: iam.Role;
  readonly previewRole: iam.Role;

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
    this.productionRole = this.githubRole('ProductionRole', subjects.production, `Deploys the live site from ${repository} (main only)`);
    this.productionRole.addToPolicy(
      new iam.PolicyStatement({ sid: 'DoctorReadOnly', actions: [...DOCTOR_READ_ACTIONS], resources: ['*'] }),
    );
    this.previewRole = this.githubRole(
      'PreviewRole',
      subjects.preview,
      `Uploads and removes pull-request previews' files of ${repository}`,
    );

    // Production: the bootstrap deploy and file-publishing roles by name, in any region (the certificate
    // stack lives in us-east-1), never the lookup role.
    const bootstrapRole = (key: (typeof BOOTSTRAP_ROLES_ASSUMED)[number]) =>
      `arn:${this.partition}:iam::${this.account}:role/${bootstrapNames(this.account, '*')[key]}`;
    this.productionRole.addToPolicy(
      new iam.PolicyStatement({
        sid: 'AssumeCdkDeployRolesOnly',
        actions: ['sts:AssumeRole', 'sts:TagSession'],
        resources: BOOTSTRAP_ROLES_ASSUMED.map(bootstrapRole),
      }),
    );

    // Preview: files under pr-* of main's preview bucket, which must be this account's (a bucket of that
    // name in another account gets nothing). Object actions on keys, ListBucket on the bucket with the
    // s3:prefix key (Amazon S3 User Guide, "Identity-based policy examples for Amazon S3", a folder per
    // user: https://docs.aws.amazon.com/AmazonS3/latest/userguide/example-policies-s3.html); a delete of
    // many keys (DeleteObjects) is authorized as s3:DeleteObject on each.
    const bucketName = previewBucketName(props.portfolioStackName, this.account, this.region);
    for (const statement of previewStatements(this.partition, this.account, bucketName)) {
      this.previewRole.addToPolicy(iam.PolicyStatement.fromJson(statement));
    }

    // cdk-nag names a resource as synthesized: a pseudo parameter as <AWS::Name>, a known value as itself.
    const shown = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
    const partition = shown(this.partition, 'Partition');
    const account = shown(this.account, 'AccountId');
    const region = shown(this.region, 'Region');
    const acknowledge = (construct: Construct, reasons: Record<string, string>) => {
      for (const [findingId, reason] of Object.entries(reasons)) Validations.of(construct).acknowledge({ id: findingId, reason });
    };
    acknowledge(this.productionRole, {
      'AwsSolutions-IAM5[Resource::*]':
        "The doctor's read calls (SES account and identity, stacks, parameters, hosted zones, domains) take no narrower resource.",
      ...Object.fromEntries(
        BOOTSTRAP_ROLES_ASSUMED.map((key) => [
          `AwsSolutions-IAM5[Resource::arn:${partition}:iam::${account}:role/${bootstrapNames(account, '*')[key]}]`,
          'The CDK bootstrap role of this name in any region the stacks live in (the certificate stack is in us-east-1).',
        ]),
      ),
    });
    acknowledge(this.previewRole, {
      [`AwsSolutions-IAM5[Resource::arn:${partition}:s3:::${previewBucketName(props.portfolioStackName, account, region)}/${PREVIEW_KEY_PREFIX}*]`]:
        "Every pull request's preview files, under pr-N/<sha>/ of the preview bucket only.",
    });

    new CfnOutput(this, GITHUB_STACK_OUTPUT_KEYS.productionRole, { value: this.productionRole.roleArn });
    new CfnOutput(this, GITHUB_STACK_OUTPUT_KEYS.previewRole, { value: this.previewRole.roleArn });
    new CfnOutput(this, GITHUB_STACK_OUTPUT_KEYS.previewBucket, { value: bucketName });
    new CfnOutput(this, GITHUB_STACK_OUTPUT_KEYS.providerArn, { value: this.providerArn });
    // The setup reads this next time: a provider this stack made stays in it (importing it would delete it).
    new CfnOutput(this, GITHUB_STACK_OUTPUT_KEYS.providerOwned, { value: props.existingProviderArn ? 'no' : 'yes' });
  }

  private githubRole(id: string, subjects: string[], description: string): iam.Role {
    return new iam.Role(this, id, {
      description,
      // One StringEquals on both claims: the audience, and the exact subjects (no wildcard, no set operator).
      assumedBy: new iam.WebIdentityPrincipal(this.providerArn, {
        StringEquals: {
          [`${GITHUB_OIDC.host}:aud`]: GITHUB_OIDC.audience,
          [`${GITHUB_OIDC.host}:sub`]: subjects,
        },
      }),
    });
  }
}
