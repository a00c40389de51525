import { type CfnElement, Size, Stack, Token, Validations } from 'aws-cdk-lib';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as s3assets from 'aws-cdk-lib/aws-s3-assets';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import { Construct } from 'constructs';
import { cacheControlFor } from '../shared/cache-control';
import { ownLogGroup } from './route-functions';
import { FEED_CONTENT_TYPE, FEED_GLOBS, PAGE_DATA_CONTENT_TYPE, PAGE_DATA_GLOB } from '../shared/content-type';

export interface SiteDeploymentProps {
  readonly asset: s3assets.Asset;
  readonly bucket: s3.IBucket;
  readonly distribution: cloudfront.IDistribution;
  /** Paths to invalidate after the upload: pages and named files, never assets/. */
  readonly invalidationPaths: readonly string[];
  readonly logRetention: logs.RetentionDays;
}

/**
 * The deployment handler's size. CDK makes one handler function per stack for every BucketDeployment
 * of the same size, so a deployment elsewhere in the stack (the previews' not-found page) passes this
 * too and shares it, with its log group and grants.
 */
export const DEPLOYMENT_HANDLER_SIZE = { memoryLimit: 512, ephemeralStorageSize: Size.mebibytes(1024) } as const;

/**
 * Uploads the build in five passes so each kind of object carries its own Cache-Control
 * (infra/shared/cache-control.ts, the rule the local server uses too) and, where the guess by
 * extension is wrong, its Content-Type (infra/shared/content-type.ts, likewise shared):
 *   1. assets/ (content-hashed): a year, immutable; never pruned, so tabs opened before a deploy can
 *      still load the chunks they reference;
 *   2. pages' data (*.data): revalidated, as text/x-script (so CloudFront compresses it); pruned;
 *   3. pages (*.html): revalidated on every visit; pruned, so a removed page disappears;
 *   4. the Atom feeds: a day, as application/atom+xml; pruned;
 *   5. everything else (videos, robots.txt, sitemap, manifest, icons): a day; pruned.
 * Pages go up only after the assets and data they reference, and one invalidation at the end clears
 * the pages and named files at the edge; hashed assets never need one.
 */
export class SiteDeployment extends Construct {
  readonly assets: s3deploy.BucketDeployment;
  readonly pageData: s3deploy.BucketDeployment;
  readonly pages: s3deploy.BucketDeployment;
  readonly feeds: s3deploy.BucketDeployment;
  readonly others: s3deploy.BucketDeployment;

  constructor(scope: Construct, id: string, props: SiteDeploymentProps) {
    super(scope, id);
    const source = s3deploy.Source.bucket(props.asset.bucket, props.asset.s3ObjectKey);
    // The five deployments share one handler function and therefore this one log group.
    const logGroup = ownLogGroup(this, 'DeployLogs', props.logRetention);
    const common = {
      sources: [source],
      destinationBucket: props.bucket,
      ...DEPLOYMENT_HANDLER_SIZE,
      logGroup,
      // The handler would return every key written: over CloudFormation's 4 KB response limit for a big site.
      outputObjectKeys: false,
    };

    // Each kind of object, with the Cache-Control (and Content-Type) of a sample name of that kind.
    const deploy = (kind: string, sample: string, options: Partial<s3deploy.BucketDeploymentProps>) =>
      new s3deploy.BucketDeployment(this, kind, {
        ...common,
        exclude: ['*'],
        prune: true,
        cacheControl: [s3deploy.CacheControl.fromString(cacheControlFor(sample))],
        ...options,
      });
    this.assets = deploy('Assets', 'assets/any.js', { include: ['assets/*'], prune: false });
    this.pageData = deploy('PageData', 'home.data', { include: [PAGE_DATA_GLOB], contentType: PAGE_DATA_CONTENT_TYPE });
    this.pages = deploy('Pages', 'index.html', { include: ['*.html'] });
    this.feeds = deploy('Feeds', 'feed.xml', { include: [...FEED_GLOBS], contentType: FEED_CONTENT_TYPE });
    this.others = deploy('Others', 'robots.txt', {
      exclude: ['assets/*', '*.html', PAGE_DATA_GLOB, ...FEED_GLOBS],
      distribution: props.distribution,
      distributionPaths: [...props.invalidationPaths],
    });
    // Each pass waits for the one before it.
    const order = [this.assets, this.pageData, this.pages, this.feeds, this.others];
    order.slice(1).forEach((deployment, i) => deployment.node.addDependency(order[i]!));

    // The deployments share one singleton handler created at stack level by CDK; its grants come from
    // CDK, so each of their wildcard findings is acknowledged by name.
    const stack = Stack.of(this);
    const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
    // The partition shows as a literal when the region is known, else as a token.
    const partitions = ['<AWS::Partition>'];
    if (!Token.isUnresolved(stack.region)) partitions.push(RegionInfo.get(stack.region).partition ?? 'aws');
    const assetBuckets = partitions.map((partition) => `arn:${partition}:s3:::cdk-hnb659fds-assets-${account}-${stack.region}/*`);
    const siteBucket = `<${stack.getLogicalId(props.bucket.node.defaultChild as CfnElement)}.Arn>/*`;
    const findings: Record<string, string> = {
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
        'The CDK BucketDeployment handler writes its own logs with the basic execution role; it runs only during deploys.',
      'AwsSolutions-IAM5[Action::s3:GetBucket*]': 'CDK BucketDeployment reads the CDK asset bucket holding the site zip.',
      'AwsSolutions-IAM5[Action::s3:GetObject*]': 'CDK BucketDeployment reads the site zip from the CDK asset bucket.',
      'AwsSolutions-IAM5[Action::s3:List*]': 'CDK BucketDeployment lists the asset and site buckets to sync them.',
      ...Object.fromEntries(
        assetBuckets.map((arn) => [
          `AwsSolutions-IAM5[Resource::${arn}]`,
          'The site zip is one object of the CDK bootstrap asset bucket; CDK grants read on its objects.',
        ]),
      ),
      'AwsSolutions-IAM5[Action::s3:Abort*]': 'CDK BucketDeployment aborts its own failed multipart uploads to the site bucket.',
      'AwsSolutions-IAM5[Action::s3:DeleteObject*]': 'Pruning removes pages and files that left the site (never assets/).',
      [`AwsSolutions-IAM5[Resource::${siteBucket}]`]: 'BucketDeployment writes every object of the site bucket, which holds only the site.',
      'AwsSolutions-L1': 'The BucketDeployment handler runtime is chosen and upgraded by aws-cdk-lib, not by this stack.',
      'AwsSolutions-IAM5[Resource::*]':
        'CDK grants cloudfront:CreateInvalidation/GetInvalidation on * for the post-deploy invalidation of pages.',
    };
    for (const handler of stack.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
      for (const [id, reason] of Object.entries(findings)) Validations.of(handler).acknowledge({ id, reason });
    }
  }
}
