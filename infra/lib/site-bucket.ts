import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/**
 * What every bucket of built files has (the site's and the previews'): private to CloudFront and its
 * deploy, encrypted, TLS only, owner-enforced, unversioned (rebuilt from git at will), and kept by
 * `cdk destroy` (CloudFormation cannot delete a non-empty bucket, and an auto-delete custom resource
 * would add a Lambda whose log group has no retention): docs/deploy.md "Teardown" removes it.
 * Incomplete multipart uploads are aborted after a day; `lifecycleRules` adds rules of its own.
 */
export function builtFilesBucketProps(lifecycleRules: readonly s3.LifecycleRule[] = []): s3.BucketProps {
  return {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    versioned: false,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [...lifecycleRules, { abortIncompleteMultipartUploadAfter: Duration.days(1) }],
  };
}

/**
 * The private bucket that holds the built site. Nobody reaches it but CloudFront (origin access
 * control, granted by SiteDistribution) and the deploy (BucketDeployment).
 */
export class SiteBucket extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // Versioning is off: the site is rebuilt from git at every deploy, and old hashed assets are kept
    // by the deploy itself (prune: false for assets/), which is what open tabs need.
    this.bucket = new s3.Bucket(this, 'Bucket', builtFilesBucketProps());
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Server access logs would only record CloudFront fetching public build output through origin access ' +
        'control and the deploy writing it; the bucket holds no visitor data, and CloudTrail records bucket changes.',
    });
  }
}
