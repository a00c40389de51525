/**
 * `npm run destroy -- --stage NAME`: removes a preview copy completely: `cdk destroy` of its stack, then
 * its site bucket, which every stage keeps on `cdk destroy` (CloudFormation cannot delete a bucket that
 * holds files) and which this script empties and deletes. `npm run destroy -- --live` does the same
 * for the live site. Other arguments go to `cdk destroy` (e.g. `--force` to skip its question).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeleteBucketCommand, DeleteObjectsCommand, ListObjectVersionsCommand, S3Client } from '@aws-sdk/client-s3';
import { CONTEXT_OVERRIDES, usesTestRecaptcha } from '../config/portfolio-config';
import { checkedConfig, contextArgs, parseScriptArgs, runCdk } from './cdk-cli';
import { stackOutputs } from './stack-outputs';

/** Deletes every object (and version) of a bucket, then the bucket; a bucket already gone is fine. */
export async function emptyAndDeleteBucket(bucket: string, client: S3Client): Promise<number> {
  let deleted = 0;
  try {
    let keyMarker: string | undefined;
    let versionIdMarker: string | undefined;
    for (;;) {
      const page = await client.send(
        new ListObjectVersionsCommand({ Bucket: bucket, KeyMarker: keyMarker, VersionIdMarker: versionIdMarker }),
      );
      const objects = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])].map((o) => ({
        Key: o.Key!,
        VersionId: o.VersionId,
      }));
      if (objects.length > 0) {
        const result = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }));
        if (result.Errors?.length) throw new Error(`could not delete ${result.Errors.length} objects of ${bucket}: ${result.Errors[0]?.Message}`);
        deleted += objects.length;
      }
      if (!page.IsTruncated) break;
      keyMarker = page.NextKeyMarker;
      versionIdMarker = page.NextVersionIdMarker;
    }
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));
  } catch (error) {
    if ((error as Error).name === 'NoSuchBucket') return deleted;
    throw error;
  }
  return deleted;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const live = argv.includes('--live');
  const args = parseScriptArgs(argv.filter((arg) => arg !== '--live'));
  if (!args.stage && !live) {
    console.error('npm run destroy removes a preview stage: npm run destroy -- --stage NAME (the live site: -- --live).');
    return 1;
  }
  const config = checkedConfig({ forDeploy: false, args });
  const outputs = await stackOutputs(config.stackName, config.region);
  if (!outputs) {
    console.error(`No stack ${config.stackName} in ${config.region}: nothing to destroy.`);
    return 0;
  }
  // The site key does not matter for removing the stack: the app must not refuse to synthesize it.
  const context = [...contextArgs(config), '-c', `${CONTEXT_OVERRIDES.trial}=true`];
  const status = runCdk(['destroy', '--all', ...context, ...args.rest], { AWS_REGION: config.region });
  if (status !== 0) return status;
  // cdk destroy also exits 0 when the owner answers "no": the bucket goes only once the stack has.
  if (await stackOutputs(config.stackName, config.region)) {
    console.error(`${config.stackName} still exists: its bucket was left alone.`);
    return 1;
  }
  const bucket = outputs.SiteBucketName;
  if (bucket) {
    const count = await emptyAndDeleteBucket(bucket, new S3Client({ region: config.region }));
    console.error(`Deleted the site bucket ${bucket} (${count} objects).`);
  }
  const parameter = usesTestRecaptcha(config) ? '' : `the SSM parameter ${config.recaptchaSecretParameter} and `;
  console.error(`${config.stackName} is gone. Left on purpose: ${parameter}your SES identities (shared with the other stages).`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (status) => process.exit(status),
    (error: unknown) => {
      console.error(`npm run destroy failed: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
