/** The site bucket every stage keeps on `cdk destroy` (CloudFormation cannot delete a bucket that holds files). */
import { DeleteBucketCommand, DeleteObjectsCommand, ListObjectVersionsCommand, type S3Client } from '@aws-sdk/client-s3';
import { errorName } from '../kit/aws';

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
        if (result.Errors?.length)
          throw new Error(`could not delete ${result.Errors.length} objects of ${bucket}: ${result.Errors[0]?.Message}`);
        deleted += objects.length;
      }
      if (!page.IsTruncated) break;
      keyMarker = page.NextKeyMarker;
      versionIdMarker = page.NextVersionIdMarker;
    }
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));
  } catch (error) {
    if (errorName(error) === 'NoSuchBucket') return deleted;
    throw error;
  }
  return deleted;
}
