import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/**
 * The private bucket that holds the built site. Nobody reaches it but CloudFront (origin access
 * control, granted by SiteDistribution) and the deploy (BucketDeployment).
 */
export class SiteBucket extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Versioning is off: the site is rebuilt from git at every deploy, and old hashed assets are kept
      // by the deploy itself (prune: false for assets/), which is what open tabs need.
      versioned: false,
      // Kept by `cdk destroy` (CloudFormation cannot delete a non-empty bucket, and an auto-delete custom
      // resource would add a Lambda whose log group has no retention): docs/deploy.md "Teardown" removes it.
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Server access logs would only record CloudFront fetching public build output through origin access ' +
        'control and the deploy writing it; the bucket holds no visitor data, and CloudTrail records bucket changes.',
    });
  }
}
